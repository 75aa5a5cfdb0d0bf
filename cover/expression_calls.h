// Calls inside expressions (natives, pure procedures) are uninterpreted functions to the solver:
// a model of a verification condition with one would not be an execution, and "infeasible" would
// not be true. `cover` refuses them.
#pragma once

#include "cover/reach_vc.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::cover {

// Throws symbolic::NotImplemented when `vc` has a call inside an expression, or `sev` met a call
// of a procedure whose errors it did not check.
void refuseCalls(const ReachVc& vc, const symbolic::SymEvaluator& sev);

}  // namespace tandem::cover
