// `P@L` (process instance P is at location L) in a configuration whose threads' locations are
// known: the atom is a constant there. Prove's fragments, invariants and predicates of closed
// systems are evaluated this way, since symbolic states keep no process locations of their own.
#pragma once

#include <span>

#include "mc/exec/evaluator.h"

namespace tandem::symbolic {

// `e` with every AtLoc replaced by true or false for the threads' locations `pcs` (closed
// systems: one per thread, numbered as `concrete` numbers them; open systems: thread 0). An
// instance that is not a constant becomes a choice over the instances; one out of range is left
// as an AtLoc for the symbolic evaluator's range check.
ExprRef foldLocations(const ir::Program& p, const exec::Evaluator& concrete, ExprRef e,
                      std::span<const ir::LocId> pcs);

}  // namespace tandem::symbolic
