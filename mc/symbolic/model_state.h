// Concrete states from models: the solver's model of a query over a symbolic configuration, turned
// into a concrete state that execution can continue from (prove's fabricated states, Yorsh, Ball,
// Sagiv, ISSTA'06, Sect. 3.3; the initial states of closed systems with inputs).
#pragma once

#include "mc/exec/evaluator.h"
#include "mc/smt/model.h"
#include "mc/symbolic/sym_config.h"

namespace tandem::symbolic {

// `shape` is a concrete state of the same system (threads, frames of the right procedures);
// its values and locations are replaced by the configuration's under the model. Symbols the
// model leaves open take their type's default value.
exec::State concretize(const ir::Program& p, const SymConfig& c, const smt::Model& m,
                       exec::State shape);

// A concrete value of a symbolic one under the model.
// A scalar of type `type` from its model value (bool 0/1, enum index, integer, f64 bit pattern).
exec::Value modelScalar(TypeRef type, const BigInt& x);
exec::Value modelValue(const SymValue& v, TypeRef t, const smt::Model& m);

}  // namespace tandem::symbolic
