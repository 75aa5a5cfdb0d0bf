// The expressions of an edge, and the variables whose address code takes: shared by the
// cutpoints (rule (iv) of ISSTA'06 Sect. 4.2), the fragments' reference candidates and the
// default predicates.
#pragma once

#include <set>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

// Every expression an edge evaluates or writes: guard, condition, both sides of its
// assignments, call arguments and result (not an assertion's `verified` premise, which names
// annotations).
template <typename F>
void forEachExpr(const Edge& e, F&& f) {
  for (ExprRef x : {e.guard, e.cond, e.result})
    if (x) f(x);
  for (const Assignment& a : e.assigns) {
    f(a.lhs);
    if (a.rhs) f(a.rhs);
  }
  for (ExprRef x : e.args) f(x);
}

// The top-level conjuncts of a guard, in order (`a && (b && c)`: a, b, c); none for null. The
// compiled engine evaluates them one by one for partial-order reduction (mc/search/por_*.h).
inline void conjuncts(ExprRef g, std::vector<ExprRef>& out) {
  if (!g) return;
  if (g->op == Op::And) {
    for (ExprRef k : g->kids) conjuncts(k, out);
    return;
  }
  out.push_back(g);
}

// The variables whose address (`&v`, `&v[i]`) the code of `cfa` takes.
std::set<VarId> addressTaken(const Program& p, CfaId cfa);

}  // namespace tandem::ir
