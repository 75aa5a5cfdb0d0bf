// Local steps of processes: a location whose every step reads and writes only its own process's
// locals, and where some step is always enabled, need not be a cutpoint of a closed system. Such
// a step commutes with every step of the other processes and never blocks (Lipton's both-movers),
// so running it at once after its process's previous step loses no reachable global state at the
// cutpoints and no error. Fewer locations to interleave at means fewer abstract states in `prove`
// (and fewer clauses in `export-chc`).
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

// Per location (indexed by LocId): true where a process location is a local step that need not be
// a cutpoint. Never a step into an atomic block, the entry or exit of a process, a location some
// `P@L` names, or a location of a process whose locals an invariant names (`P[i].v`), whose
// locations the code reads, or whose locations an invariant names positively (`P@A || x == 0` could
// hold only at P's local step); and every cycle of a process keeps at least one cutpoint.
std::vector<bool> localStepLocations(const Program& p);

}  // namespace tandem::ir
