#include "cover/expression_calls.h"

#include <set>

namespace tandem::cover {

namespace {

bool hasCall(ExprRef e, std::set<ExprRef>& seen) {
  if (!seen.insert(e).second) return false;
  if (e->op == Op::Call) return true;
  for (ExprRef k : e->kids)
    if (hasCall(k, seen)) return true;
  return false;
}

}  // namespace

void refuseCalls(const ReachVc& vc, const symbolic::SymEvaluator& sev) {
  std::set<ExprRef> seen;
  bool calls = sev.uncheckedCalls() > 0;  // a procedure's errors would go unchecked
  for (ExprRef c : vc.clauses()) calls = calls || hasCall(c, seen);
  if (calls)
    throw symbolic::NotImplemented(
        "cover: calls inside expressions (natives and pure procedures, which the solver sees "
        "as uninterpreted functions)");
}

}  // namespace tandem::cover
