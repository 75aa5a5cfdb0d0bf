// Tandem expressions as Z3 terms: the Translator (translator.h) of the Z3 back end. The Z3 session
// (z3_solver.cpp) owns what is asserted.
#pragma once

#include <z3++.h>

#include "mc/smt/translator.h"

namespace tandem::smt {

struct Z3Builder;  // encoder.h's builder over Z3's C API (z3_translate.cpp)

using Z3Translator = Translator<z3::expr, z3::context, Z3Builder>;
extern template class Translator<z3::expr, z3::context, Z3Builder>;

}  // namespace tandem::smt
