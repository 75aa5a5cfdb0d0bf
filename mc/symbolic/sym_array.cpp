// Arrays of the symbolic executor in their two forms (sym_state.h). The element form keeps one
// value per element: reads and writes at constant indices stay exact, and a symbolic index becomes
// an ite chain over the elements. The symbolic form is one SMT array term with a length term, read
// with select and written with store, so its length may be symbolic.
#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

namespace {

// Longer arrays of constant length take the symbolic form (an element per value would be large).
constexpr int64_t kMaxElementForm = int64_t{1} << 16;

}  // namespace

ExprRef SymEvaluator::lengthOf(const SymValue& a) const {
  if (a.elems) return exprs().intConst(BigInt(uint64_t{a.elems->size()}));
  return a.length;
}

SymValue SymEvaluator::element(const SymValue& a, ExprRef index, TypeRef elemType) const {
  if (!a.elems) {
    // Reads through stores at other constant indices, from `new`'s zero fill and from literals.
    ExprRef i = asInt(index);
    ExprRef arr = a.expr;
    for (;;) {
      if (arr->op == Op::Store) {
        ExprRef j = arr->kid(1);
        if (j == i) return SymValue::scalar(arr->kid(2));
        if (!j->isConst() || !i->isConst()) break;
        arr = arr->kid(0);
        continue;
      }
      if (arr->op == Op::NewArray) return defaultOf(arr->type->elem);
      if (arr->op == Op::ArrayLit && i->isConst()) {
        auto k = i->value.toInt64();
        if (k && *k >= 0 && static_cast<size_t>(*k) < arr->kids.size())
          return SymValue::scalar(arr->kid(static_cast<size_t>(*k)));
      }
      break;
    }
    return SymValue::scalar(mk(Op::Select, arr->type->elem, {arr, i}));
  }
  const auto& xs = *a.elems;
  auto fallback = [&] {
    if (elemType) return defaultOf(elemType);
    return xs.empty() ? SymValue::array({}) : xs[0];
  };
  if (index->isConst()) {
    auto i = index->value.toInt64();
    if (i && *i >= 0 && static_cast<size_t>(*i) < xs.size()) return xs[static_cast<size_t>(*i)];
    return fallback();  // out of range: the path fails before it uses the value
  }
  if (xs.empty()) return fallback();
  ExprRef acc = nullptr;
  for (size_t k = xs.size(); k-- > 0;) {
    if (xs[k].kind != SymValue::Kind::Scalar)
      throw NotImplemented("a symbolic index into an array of references, objects or arrays");
    if (!acc) {
      acc = xs[k].expr;
      continue;
    }
    ExprRef eq = mk(Op::Eq, exprs().types().boolType(),
                    {index, exprs().intConst(BigInt(uint64_t{k}), index->type)});
    acc = mk(Op::Ite, xs[k].expr->type, {eq, xs[k].expr, acc});
  }
  return SymValue::scalar(acc);
}

SymValue SymEvaluator::withElement(const SymValue& a, std::span<const ExprRef> path,
                                   const SymValue& v) const {
  if (path.empty()) return v;
  if (a.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
  ExprRef i = path[0];
  if (!a.elems) {
    if (path.size() != 1 || v.kind != SymValue::Kind::Scalar)
      throw NotImplemented("a store into a symbolic array of arrays");
    ExprRef idx = asInt(i);
    ExprRef base = a.expr;
    if (base->op == Op::Store && base->kid(1) == idx) base = base->kid(0);  // overwritten
    ExprRef value = coerce(v, a.expr->type->elem).expr;
    return SymValue::symbolicArray(mk(Op::Store, a.expr->type, {base, idx, value}), a.length);
  }
  std::vector<SymValue> xs = *a.elems;
  if (i->isConst()) {
    auto k = i->value.toInt64();
    if (k && *k >= 0 && static_cast<size_t>(*k) < xs.size())
      xs[static_cast<size_t>(*k)] = withElement(xs[static_cast<size_t>(*k)], path.subspan(1), v);
    return SymValue::array(std::move(xs));
  }
  for (size_t k = 0; k < xs.size(); ++k) {
    SymValue updated = withElement(xs[k], path.subspan(1), v);
    if (updated.kind != SymValue::Kind::Scalar || xs[k].kind != SymValue::Kind::Scalar)
      throw NotImplemented(
          "a store at a symbolic index into an array of references, objects or arrays");
    ExprRef eq =
        mk(Op::Eq, exprs().types().boolType(), {i, exprs().intConst(BigInt(uint64_t{k}), i->type)});
    xs[k] = SymValue::scalar(mk(Op::Ite, xs[k].expr->type, {eq, updated.expr, xs[k].expr}));
  }
  return SymValue::array(std::move(xs));
}

ExprRef SymEvaluator::arrayTerm(const SymValue& a, TypeRef t) const {
  if (!a.elems) return a.expr;
  std::vector<ExprRef> kids;
  for (const SymValue& x : *a.elems) {
    if (x.kind != SymValue::Kind::Scalar)
      throw NotImplemented("an array of references, objects or arrays as one term");
    kids.push_back(coerce(x, t->elem).expr);
  }
  TypeRef lit = exprs().types().arrayOf(t->elem, static_cast<int64_t>(kids.size()));
  return mk(Op::ArrayLit, lit, std::move(kids));
}

SymValue SymEvaluator::newArray(TypeRef arrayType, ExprRef length) const {
  TypeRef elem = arrayType->elem;
  if (length->isConst()) {
    auto n = length->value.toInt64();
    if (n && *n >= 0 && *n <= kMaxElementForm)
      return SymValue::array(std::vector<SymValue>(static_cast<size_t>(*n), defaultOf(elem)));
  }
  if (!isScalarType(elem))
    throw NotImplemented("a long or symbolic-length array of references, objects or arrays");
  TypeRef t = exprs().types().arrayOf(elem, -1);
  return SymValue::symbolicArray(mk(Op::NewArray, t, {length}), length);
}

}  // namespace tandem::symbolic
