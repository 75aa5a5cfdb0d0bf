// Tandem expressions as cvc5 terms: the Translator (translator.h) of the cvc5 back end. In cvc5
// 1.0 the Solver object also makes the terms, so the translator borrows it, but it never asserts:
// the cvc5 session (cvc5_solver.cpp) owns what is asserted.
#pragma once

#include <cvc5/cvc5.h>

#include "mc/smt/translator.h"

namespace tandem::smt {

struct Cvc5Builder;  // encoder.h's builder over cvc5's API (cvc5_translate.cpp)

using Cvc5Translator = Translator<cvc5::Term, cvc5::Solver, Cvc5Builder>;
extern template class Translator<cvc5::Term, cvc5::Solver, Cvc5Builder>;

}  // namespace tandem::smt
