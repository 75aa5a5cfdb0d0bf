// Tandem expressions as cvc5 terms: the Translator (translator.h) of the cvc5 back end. In cvc5
// 1.0 the Solver object also makes the terms, so the translator borrows it, but it never asserts:
// the cvc5 session (cvc5_solver.cpp) owns what is asserted.
#pragma once

#include <cvc5/cvc5.h>

#include "mc/smt/translator.h"

namespace tandem::smt {

struct Cvc5Builder;  // encoder.h's builder over cvc5's API (cvc5_translate.cpp)

struct Cvc5Terms {
  using Term = cvc5::Term;
  using Factory = cvc5::Solver;
  using Builder = Cvc5Builder;
};

using Cvc5Translator = Translator<Cvc5Terms>;
extern template class Translator<Cvc5Terms>;

}  // namespace tandem::smt
