#include "abstraction/auto_predicates.h"

#include <algorithm>
#include <map>

namespace tandem::abstraction {

namespace {

bool isComparison(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt ||
         op == Op::Ge;
}

// Whether `e` reads an integer or reference variable (atoms over bool/enum variables and
// locations only are exact already).
bool readsData(ExprRef e) {
  if (e->op == Op::Var && e->type &&
      (e->type->isIntegral() || e->type->kind == TypeKind::Ref || e->type->kind == TypeKind::Array))
    return true;
  for (ExprRef k : e->kids)
    if (readsData(k)) return true;
  return false;
}

bool hasUnsupported(ExprRef e) {
  if (e->op == Op::Star || e->op == Op::Call || e->op == Op::Old) return true;
  for (ExprRef k : e->kids)
    if (hasUnsupported(k)) return true;
  return false;
}

void atoms(ExprRef e, std::vector<ExprRef>& out) {
  if (!e) return;
  if (e->op == Op::And || e->op == Op::Or || e->op == Op::Implies || e->op == Op::Not) {
    for (ExprRef k : e->kids) atoms(k, out);
    return;
  }
  if (isComparison(e->op) && readsData(e) && !hasUnsupported(e)) out.push_back(e);
}

// Implicit checks of an expression: x != null under *x, 0 <= i < len(a) under a[i], d != 0.
void implicitChecks(ExprManager& em, ExprRef e, std::vector<ExprRef>& out) {
  TypeRef b = em.types().boolType();
  for (ExprRef k : e->kids) implicitChecks(em, k, out);
  if (e->op == Op::Deref && e->kid(0)->op == Op::Var)
    out.push_back(em.mk(Op::Eq, b, {e->kid(0), em.nullConst(e->kid(0)->type)}));
  if ((e->op == Op::Div || e->op == Op::Mod) && readsData(e->kid(1)))
    out.push_back(em.mk(Op::Eq, b, {e->kid(1), em.intConst(BigInt(0), e->kid(1)->type)}));
  if (e->op == Op::Select && e->kid(1)->type && e->kid(1)->type->isIntegral() &&
      readsData(e->kid(1))) {
    ExprRef i = e->kid(1);
    out.push_back(em.mk(Op::Le, b, {em.intConst(BigInt(0), i->type), i}));
    if (e->kid(0)->type && e->kid(0)->type->isDynamicArray())
      out.push_back(em.mk(Op::Lt, b, {i, em.mk(Op::Len, i->type, {e->kid(0)})}));
  }
}

ExprRef substitute(ExprManager& em, ExprRef e, const std::map<uint32_t, ExprRef>& by) {
  if (e->op == Op::Var) {
    auto it = by.find(e->payload);
    return it == by.end() ? e : it->second;
  }
  bool changed = false;
  std::vector<ExprRef> kids;
  for (ExprRef k : e->kids) {
    kids.push_back(substitute(em, k, by));
    changed = changed || kids.back() != k;
  }
  return changed ? em.mk(e->op, e->type, std::move(kids), e->payload, e->value) : e;
}

}  // namespace

std::vector<ExprRef> defaultPredicates(const ir::Program& p, const std::vector<ir::CfaId>& cfas,
                                       size_t limit) {
  ExprManager& em = *p.exprs;
  std::vector<ExprRef> found;
  auto add = [&](ExprRef e) {
    if (!e->isConst() && std::find(found.begin(), found.end(), e) == found.end())
      found.push_back(e);
  };
  for (const ir::Property& inv : p.invariants) {
    std::vector<ExprRef> xs;
    atoms(inv.expr, xs);
    for (ExprRef x : xs) add(x);
  }
  for (ir::CfaId c : cfas)
    for (ir::LocId l : p.cfas[c].locs)
      for (ir::EdgeId id : p.locs[l].out) {
        const ir::Edge& e = p.edges[id];
        std::vector<ExprRef> xs;
        atoms(e.guard, xs);
        atoms(e.cond, xs);
        for (ExprRef x : {e.guard, e.cond})
          if (x) implicitChecks(em, x, xs);
        for (const auto& a : e.assigns) {
          implicitChecks(em, a.lhs, xs);
          if (a.rhs) implicitChecks(em, a.rhs, xs);
        }
        for (ExprRef x : xs) add(x);
      }
  // One step backwards: the weakest precondition of each atom through every assignment edge.
  const size_t direct = found.size();
  for (ir::CfaId c : cfas)
    for (ir::LocId l : p.cfas[c].locs)
      for (ir::EdgeId id : p.locs[l].out) {
        const ir::Edge& e = p.edges[id];
        std::map<uint32_t, ExprRef> by;
        for (const auto& a : e.assigns)
          if (a.lhs->op == Op::Var && a.rhs && a.rhs->op != Op::Star && !hasUnsupported(a.rhs))
            by[a.lhs->payload] = a.rhs;
        if (by.empty()) continue;
        for (size_t i = 0; i < direct; ++i) add(substitute(em, found[i], by));
      }
  if (found.size() > limit) found.resize(limit);
  return found;
}

}  // namespace tandem::abstraction
