#include "mc/symbolic/complex_terms.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "mc/expr/expr_walk.h"
#include "mc/expr/float64.h"

namespace tandem::symbolic {

namespace {

// Mixed solving evaluates a complex term on values of its symbols, which are scalars: a term
// that reads an array symbol stays with the solver (found by the ICSE'16 benchmark: `a[0] * n`
// pinned the array to an integer, and both back ends refused the query).
// Whether some node of `e` satisfies `pred`; each shared subterm once (path conditions are DAGs
// whose trees grow exponentially).

bool readsArray(ExprRef e) {
  return anyNode(e, [](ExprRef n) {
    return n->op == Op::Symbol && n->type && n->type->kind == TypeKind::Array;
  });
}

}  // namespace

bool isNonLinear(ExprRef e) {
  if (e->op != Op::Mul && e->op != Op::Div && e->op != Op::Mod) return false;
  return e->kids.size() == 2 && !e->kid(0)->isConst() && !e->kid(1)->isConst() && !readsArray(e);
}

bool isComplexTerm(ExprRef e) { return e->op == Op::Call || isNonLinear(e); }

bool hasComplexTerm(ExprRef e) { return anyNode(e, isComplexTerm); }

namespace {

// Pre-order, left to right, each node once; `enter` says whether to visit a node's kids.
template <class Enter>
void preorder(ExprRef root, Enter enter) {
  forEachNode(
      root, [&](ExprRef n) { return static_cast<bool>(enter(n)); }, /*leftToRight=*/true);
}

void pushUnique(std::vector<ExprRef>& out, ExprRef e) {
  if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
}

}  // namespace

void collectComplexTerms(ExprRef e, std::vector<ExprRef>& out) {
  preorder(e, [&](ExprRef n) {
    if (!isComplexTerm(n)) return true;
    pushUnique(out, n);
    return false;
  });
}

void collectSymbols(ExprRef e, std::vector<ExprRef>& out) {
  preorder(e, [&](ExprRef n) {
    if (n->op == Op::Symbol) pushUnique(out, n);
    return true;
  });
}

void flattenConjuncts(ExprRef e, std::vector<ExprRef>& out) {
  if (e->isTrue()) return;
  if (e->op == Op::And) {
    for (ExprRef k : e->kids) flattenConjuncts(k, out);
    return;
  }
  out.push_back(e);
}

ExprRef substitute(ExprManager& em, ExprRef root, const std::map<ExprRef, ExprRef>& map,
                   const Rebuild& rebuild) {
  std::unordered_map<ExprRef, ExprRef> rebuilt;
  // What a node becomes: the map's replacement (the walk does not go below it), or itself rebuilt.
  auto result = [&](ExprRef e) {
    auto it = map.find(e);
    return it != map.end() ? it->second : rebuilt.at(e);
  };
  postOrder(
      root, [&](ExprRef e) { return rebuilt.count(e) > 0 || map.count(e) > 0; },
      [&](ExprRef e) {
        std::vector<ExprRef> kids;
        bool same = true;
        for (ExprRef k : e->kids) {
          kids.push_back(result(k));
          same = same && kids.back() == k;
        }
        ExprRef out = same      ? e
                      : rebuild ? rebuild(e, std::move(kids))
                                : em.mk(e->op, e->type, std::move(kids), e->payload, e->value);
        rebuilt.emplace(e, out);
      });
  return result(root);
}

ExprRef constantOf(ExprManager& em, const exec::Value& v, TypeRef t) {
  switch (v.kind()) {
    case exec::ValueKind::Int:
      return em.intConst(v.asInt(), t && t->isIntegral() ? t : em.types().intType());
    case exec::ValueKind::I32:
    case exec::ValueKind::I64:
      return em.intConst(BigInt(v.asBits()),
                         v.bitWidth() == 32 ? em.types().i32Type() : em.types().i64Type());
    case exec::ValueKind::Bool:
      return em.boolConst(v.asBool());
    case exec::ValueKind::Enum:
      return em.enumConst(v.enumType(), v.enumIndex());
    case exec::ValueKind::F64:
      return em.floatConst(v.asF64());
    default:
      return nullptr;
  }
}

std::optional<exec::Value> valueOf(ExprRef e) {
  switch (e->op) {
    case Op::IntConst:
      if (e->type && e->type->isBitVector())
        return exec::Value::bits(e->type->bitWidth(), e->value.wrapTo(e->type->bitWidth()));
      return exec::Value::integer(e->value);
    case Op::BoolConst:
      return exec::Value::boolean(e->isTrue());
    case Op::EnumConst:
      return exec::Value::enumMember(e->type, e->payload);
    case Op::FloatConst:
      return exec::Value::f64(f64::fromBits(static_cast<uint64_t>(e->value.wrapTo(64))));
    default:
      return std::nullopt;
  }
}

ExprRef constantFor(ExprManager& em, TypeRef t, const BigInt& v) {
  if (t->kind == TypeKind::Bool) return em.boolConst(v.sign() != 0);
  if (t->kind == TypeKind::Enum) return em.enumConst(t, static_cast<uint32_t>(v.small()));
  if (t->kind == TypeKind::F64)
    return em.floatConst(f64::fromBits(static_cast<uint64_t>(v.wrapTo(64))));
  return em.intConst(v, t);
}

std::optional<ExprRef> evalConcretely(const exec::Evaluator& concrete, ExprManager& em, ExprRef e,
                                      const SymbolValues& values) {
  std::vector<ExprRef> syms;
  collectSymbols(e, syms);
  std::map<ExprRef, ExprRef> map;
  for (ExprRef s : syms) {
    auto it = values.find(s);
    if (it == values.end()) return std::nullopt;
    map.emplace(s, constantFor(em, s->type, it->second));
  }
  const exec::State empty;
  // Each node is run once, bottom-up, as soon as its kids are constants: the evaluator walks
  // expressions as trees, and a path condition's terms are DAGs that share subterms (a loop's
  // `a := a * b + ...` doubles the tree per iteration), so running `closed` whole took time
  // exponential in the iterations. A node that fails stays as it is, for the final run to
  // decide (an untaken `?:` branch may fail without failing the whole).
  auto fold = [&](ExprRef node, std::vector<ExprRef> kids) -> ExprRef {
    ExprRef n = em.mk(node->op, node->type, std::move(kids), node->payload, node->value);
    for (ExprRef k : n->kids)
      if (!k->isConst()) return n;
    if (n->isConst()) return n;
    auto v = concrete.eval(n, empty, exec::kNoThread);
    if (!v) return n;
    ExprRef c = constantOf(em, v.value(), n->type);
    return c ? c : n;
  };
  ExprRef closed = substitute(em, e, map, fold);
  if (closed->isConst()) return closed;
  auto r = concrete.eval(closed, empty, exec::kNoThread);
  if (!r) return std::nullopt;
  ExprRef c = constantOf(em, r.value(), e->type);
  if (!c) return std::nullopt;
  return c;
}

SymbolValues fixedValues(std::span<const ExprRef> conjuncts) {
  SymbolValues out;
  for (ExprRef c : conjuncts) {
    if (c->op != Op::Eq) continue;
    ExprRef a = c->kid(0), b = c->kid(1);
    if (b->op == Op::Symbol) std::swap(a, b);
    if (a->op != Op::Symbol || !b->isConst() || b->op == Op::NullConst) continue;
    if (b->op == Op::EnumConst)
      out.emplace(a, BigInt(int64_t{b->payload}));
    else if (b->type && b->type->isBitVector())
      out.emplace(a, BigInt(b->value.wrapTo(b->type->bitWidth())));
    else
      out.emplace(a, b->value);
  }
  return out;
}

}  // namespace tandem::symbolic
