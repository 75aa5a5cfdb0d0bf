// Printing states and values with the names users wrote, for traces, `tandem run` and debugging.
#pragma once

#include <string>

#include "mc/exec/state.h"
#include "mc/exec/value.h"
#include "mc/ir/program.h"

namespace tandem::exec {

// The variable an address starts from, without its index path: `x` (a global or a local),
// `P[1].x` (a process local), `obj0.size` (a field).
std::string addressName(const ir::Program& program, const State& state, const Address& a);

// Names for Value::toString; the program and state must outlive the result.
ValueNames valueNames(const ir::Program& program, const State& state);

// One line per global, thread (its frames' pcs and locals) and heap object.
std::string formatState(const ir::Program& program, const State& state);

}  // namespace tandem::exec
