// Live process-local variables, by a backward dataflow over each process's CFA: a process local
// that every path from a location overwrites before reading it is dead there. `prove` leaves the
// predicates and exact values of dead variables out of the abstract state: they cannot change
// the rest of the run, and keeping them multiplies the abstract states of protocols with scratch
// locals (a loop index, a running maximum) by values nobody reads (the locations' scopes of
// SLAM and BLAST do the same).
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

// Per location (indexed by LocId): the process-local variables dead there, sorted; empty outside
// processes. A variable named from outside its process (`P[i].v` in code or an invariant) or
// whose address is taken is never dead.
std::vector<std::vector<VarId>> deadProcessLocals(const Program& p);

}  // namespace tandem::ir
