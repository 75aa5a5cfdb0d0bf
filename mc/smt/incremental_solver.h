// Incremental solving along a path. The client's assertions and a check's assumptions are read as
// one list of conjuncts; the wrapped solver keeps the conjuncts of the previous check asserted,
// one push scope each, so a check pops to the longest common prefix of the two lists and pushes
// only the new conjuncts. A symbolic executor's consecutive queries (a path condition and its
// extensions, a minimiser's pins) share long prefixes, so the back end keeps what it learned
// about them instead of solving each query from scratch. Each check of this solver is exactly one
// check of the wrapped one.
#pragma once

#include <memory>

#include "mc/smt/solver.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeIncrementalSolver(std::unique_ptr<Solver> inner);

}  // namespace tandem::smt
