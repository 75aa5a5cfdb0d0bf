#include "mc/ir/edge_exprs.h"

namespace tandem::ir {

namespace {

// The variable at the root of an lvalue (`v`, `v[i]`, `v[i][j]`), or kNone.
VarId rootVar(ExprRef lv) {
  while (lv->op == Op::Select) lv = lv->kid(0);
  return lv->op == Op::Var ? lv->payload : kNone;
}

void collect(ExprRef e, std::set<VarId>& out) {
  if (e->op == Op::AddrOf)
    if (VarId v = rootVar(e->kid(0)); v != kNone) out.insert(v);
  for (ExprRef k : e->kids) collect(k, out);
}

}  // namespace

std::set<VarId> addressTaken(const Program& p, CfaId cfa) {
  std::set<VarId> out;
  for (LocId l : p.cfas[cfa].locs)
    for (EdgeId e : p.locs[l].out) forEachExpr(p.edges[e], [&out](ExprRef x) { collect(x, out); });
  for (const Assignment& a : p.cfas[cfa].entryInits)
    if (a.rhs) collect(a.rhs, out);
  return out;
}

}  // namespace tandem::ir
