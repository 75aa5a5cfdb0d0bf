// Internal to the DVE importer: a parsed DVE model becomes the processes of an ir::Program.
//
// Each DVE process is one CFA of kind Process (one instance) named as in the file; its locations
// are the DVE states in declaration order, each labelled with its name (so `P_0@CS` names one),
// and its entry is the `init` state. Each transition is one Command edge: the guards' conjunction
// and the effects, which run left to right (Edge::sequential). Globals and process locals are
// `int` variables (arrays `int[N]`) with constant initialisers; scalar `const`s are folded away.
//
// Storage semantics follow DiVinE: a `byte` holds 0..255 and an `int` -32768..32767, and every
// assignment wraps its value into that range (`b = e` is `b := (e) % 256` with the IR's
// Euclidean `%`; for ints, ((e + 32768) % 65536) - 32768). Initialisers wrap the same way.
// Expressions are evaluated on unbounded integers with C's operators (see lower_expr.h).
#pragma once

#include "mc/dve/ast.h"
#include "mc/ir/program.h"
#include "mc/lang/diagnostics.h"

namespace tandem::dve {

// Fills `prog` (whose type table and expression manager exist). False after reporting errors.
bool lowerModel(const Model& model, ir::Program& prog, Diagnostics& diags);

}  // namespace tandem::dve
