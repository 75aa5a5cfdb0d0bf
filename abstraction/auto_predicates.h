// Default predicates (`prove --auto-predicates`, Yorsh, Ball, Sagiv, ISSTA'06, Sect. 4.5): the
// atoms of branch conditions, assertions, invariants and implicit checks (null, bounds,
// division), propagated backwards once through the assignments that precede them (their weakest
// preconditions), so that a condition on x + 1 after `x := x + 1` is tracked before it too.
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::abstraction {

// At most `limit` predicates, in the order found (conditions first, then their preconditions).
std::vector<ExprRef> defaultPredicates(const ir::Program& p, const std::vector<ir::CfaId>& cfas,
                                       size_t limit = 16);

}  // namespace tandem::abstraction
