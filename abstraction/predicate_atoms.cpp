#include "abstraction/predicate_atoms.h"

#include <algorithm>
#include <map>
#include <optional>

#include "abstraction/linear_atom.h"
#include "mc/expr/expr_walk.h"

namespace tandem::abstraction {

namespace {

bool readsData(ExprRef e) {
  if (e->op == Op::Var && e->type &&
      (e->type->isIntegral() || e->type->kind == TypeKind::Ref || e->type->kind == TypeKind::Array))
    return true;
  for (ExprRef k : e->kids)
    if (readsData(k)) return true;
  return false;
}

// Nondeterminism, calls and old() have no value a predicate could name; array values (`new`,
// literals) have no SMT counterpart a predicate could compare.
bool unnameable(ExprRef e) {
  for (Op op : {Op::Star, Op::Call, Op::NewArray, Op::ArrayLit, Op::Store})
    if (mentionsOp(e, op)) return true;
  return false;
}

struct Bound {
  ExprRef lo, hi;
  bool strict;  // lo < hi, else lo <= hi
};

std::optional<Bound> boundOf(ExprRef e) {
  const bool negated = e->op == Op::Not;
  if (negated) e = e->kid(0);
  if (e->op != Op::Lt && e->op != Op::Le && e->op != Op::Gt && e->op != Op::Ge) return {};
  ExprRef a = e->kid(0), b = e->kid(1);
  Bound out{a, b, e->op == Op::Lt};
  if (e->op == Op::Gt || e->op == Op::Ge) out = Bound{b, a, e->op == Op::Gt};
  if (negated) out = Bound{out.hi, out.lo, !out.strict};  // !(lo < hi) is hi <= lo
  return out;
}

ExprRef nonConstant(ExprManager& em, ExprRef e) {
  e = simplify(em, e);
  return e->op == Op::BoolConst ? nullptr : e;
}

}  // namespace

void conditionAtoms(ExprManager& em, ExprRef cond, std::vector<ExprRef>& out) {
  if (!cond) return;
  if (cond->op == Op::And || cond->op == Op::Or || cond->op == Op::Implies || cond->op == Op::Not) {
    for (ExprRef k : cond->kids) conditionAtoms(em, k, out);
    return;
  }
  if (!isComparison(cond->op) || !readsData(cond) || unnameable(cond)) return;
  if (cond->op == Op::Ne) cond = em.mk(Op::Eq, cond->type, cond->kids);
  out.push_back(cond);
}

void implicitChecks(ExprManager& em, ExprRef e, std::vector<ExprRef>& out) {
  TypeRef b = em.types().boolType();
  for (ExprRef k : e->kids) implicitChecks(em, k, out);
  if (unnameable(e)) return;
  if ((e->op == Op::Deref || e->op == Op::Field) && e->kid(0)->op == Op::Var)
    out.push_back(em.mk(Op::Eq, b, {e->kid(0), em.nullConst(e->kid(0)->type)}));
  if ((e->op == Op::Div || e->op == Op::Mod) && readsData(e->kid(1)))
    out.push_back(em.mk(Op::Eq, b, {e->kid(1), em.intConst(BigInt(0), e->kid(1)->type)}));
  if (e->op == Op::Select && e->kid(1)->type && e->kid(1)->type->isIntegral() &&
      readsData(e->kid(1))) {
    ExprRef i = e->kid(1);
    TypeRef arr = e->kid(0)->type;
    out.push_back(em.mk(Op::Le, b, {em.intConst(BigInt(0), i->type), i}));
    if (arr && arr->isDynamicArray())
      out.push_back(em.mk(Op::Lt, b, {i, em.mk(Op::Len, i->type, {e->kid(0)})}));
    else if (arr && arr->isFixedArray())
      out.push_back(em.mk(Op::Lt, b, {i, em.intConst(BigInt(arr->length), i->type)}));
  }
}

ExprRef substituteVars(ExprManager& em, ExprRef e, const std::vector<ir::Assignment>& by) {
  std::map<uint32_t, ExprRef> to;
  std::vector<uint32_t> havocked;
  for (const ir::Assignment& a : by) {
    if (a.lhs->op != Op::Var) continue;
    if (!a.rhs || unnameable(a.rhs))
      havocked.push_back(a.lhs->payload);
    else
      to[a.lhs->payload] = a.rhs;
  }
  const std::vector<uint32_t> reads = freeVars(e);
  for (uint32_t v : havocked)
    if (std::binary_search(reads.begin(), reads.end(), v)) return nullptr;
  struct Walk {
    ExprManager& em;
    const std::map<uint32_t, ExprRef>& to;
    std::map<ExprRef, ExprRef> memo;
    // `lvalue`: x names a place (under &), whose variables are not read.
    ExprRef operator()(ExprRef x, bool lvalue = false) {
      if (x->op == Op::Var) {
        auto it = to.find(x->payload);
        return lvalue || it == to.end() ? x : it->second;
      }
      // old(e) reads the globals the frame had on entry, which no assignment changes.
      if (x->op == Op::Old) return x;
      if (!lvalue)
        if (auto m = memo.find(x); m != memo.end()) return m->second;
      std::vector<ExprRef> kids;
      bool changed = false;
      for (size_t i = 0; i < x->kids.size(); ++i) {
        // &v names v; &a[i] names a's element i (i is read); &*p and &o.f read p and o.
        const bool place = x->op == Op::AddrOf || (lvalue && x->op == Op::Select && i == 0);
        kids.push_back((*this)(x->kid(i), place));
        changed = changed || kids.back() != x->kid(i);
      }
      ExprRef r = changed ? em.mk(x->op, x->type, std::move(kids), x->payload, x->value) : x;
      if (!lvalue) memo.emplace(x, r);
      return r;
    }
  } walk{em, to, {}};
  ExprRef r = simplify(em, walk(e));
  return unnameable(r) ? nullptr : r;
}

ExprRef weakestPrecondition(ExprManager& em, ExprRef pred, const ir::Edge& e) {
  if (!e.sequential) return substituteVars(em, pred, e.assigns);
  // One assignment after another (DVE effects): the last one first.
  for (auto it = e.assigns.rbegin(); it != e.assigns.rend() && pred; ++it)
    pred = substituteVars(em, pred, {*it});
  return pred;
}

ExprRef boundRelation(ExprManager& em, ExprRef guardAtom, ExprRef check) {
  auto g = boundOf(guardAtom), c = boundOf(check);
  if (!g || !c) return nullptr;
  TypeRef b = em.types().boolType();
  // Only checks against a fixed bound (`i < len(a)`, `i < 10`, `0 <= i`) of a varying term.
  auto fixed = [](ExprRef x) { return x->op == Op::Len || x->op == Op::IntConst; };
  if (fixed(g->lo) || fixed(g->hi)) return nullptr;
  if (g->lo == c->lo && fixed(c->hi) && g->hi != c->hi && g->hi->type == c->hi->type) {
    // i < u (or <=) implies i < b (or <=) for every i.
    if (g->strict && !c->strict) return nullptr;  // u <= b + 1: not worth a predicate
    const bool strict = !g->strict && c->strict;
    return nonConstant(em, em.mk(strict ? Op::Lt : Op::Le, b, {g->hi, c->hi}));
  }
  if (g->hi == c->hi && fixed(c->lo) && g->lo != c->lo && g->lo->type == c->lo->type) {
    // l < i (or <=) implies a < i (or <=) for every i.
    if (g->strict && !c->strict) return nullptr;
    const bool strict = !g->strict && c->strict;
    return nonConstant(em, em.mk(strict ? Op::Lt : Op::Le, b, {c->lo, g->lo}));
  }
  return nullptr;
}

}  // namespace tandem::abstraction
