// Tandem expressions as Z3 terms: the Translator (translator.h) of the Z3 back end. The Z3 session
// (z3_solver.cpp) owns what is asserted.
#pragma once

#include <z3++.h>

#include "mc/smt/translator.h"

namespace tandem::smt {

struct Z3Builder;  // encoder.h's builder over Z3's C API (z3_translate.cpp)

// The context makes the terms.
struct Z3Terms {
  using Term = z3::expr;
  using Factory = z3::context;
  using Builder = Z3Builder;
};

using Z3Translator = Translator<Z3Terms>;
extern template class Translator<Z3Terms>;

}  // namespace tandem::smt
