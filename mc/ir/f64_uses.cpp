#include "mc/ir/f64_uses.h"
#include "mc/expr/expr_walk.h"

#include <unordered_set>
#include <vector>

namespace tandem::ir {

namespace {

bool holdsF64(TypeRef t) {
  for (; t; t = t->elem)
    if (t->kind == TypeKind::F64) return true;
  return false;
}

bool usesF64(ExprRef root) {
  return root && anyNode(root, [](ExprRef e) { return holdsF64(e->type); });
}

bool edgeUsesF64(const Edge& e) {
  if (usesF64(e.guard) || usesF64(e.cond) || usesF64(e.result)) return true;
  for (const Assignment& a : e.assigns)
    if (usesF64(a.lhs) || usesF64(a.rhs)) return true;
  for (ExprRef a : e.args)
    if (usesF64(a)) return true;
  return false;
}

}  // namespace

std::optional<SourceLoc> firstF64Use(const Program& p) {
  std::optional<SourceLoc> first;
  auto note = [&](SourceLoc l) {
    const bool earlier =
        !first || !first->valid() ||
        (l.valid() && (l.line < first->line || (l.line == first->line && l.col < first->col)));
    if (earlier) first = l;
  };
  for (const Variable& v : p.vars)
    if (holdsF64(v.type)) note(v.loc);
  for (const Edge& e : p.edges)
    if (edgeUsesF64(e)) note(e.loc);
  return first;
}

}  // namespace tandem::ir
