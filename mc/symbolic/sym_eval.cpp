#include "mc/symbolic/sym_eval.h"

#include <optional>

#include "mc/symbolic/complex_terms.h"

namespace tandem::symbolic {

struct SymEvaluator::Ctx {
  const SymState& s;
  ExprRef guard;  // the short-circuit context the expression is reached under
  std::vector<Obligation>& obls;
  bool old = false;  // inside old(): globals from the frame's entry snapshot
};

namespace {

std::optional<exec::Value> concreteValue(const SymValue& v) {
  switch (v.kind) {
    case SymValue::Kind::Scalar:
      return valueOf(v.expr);
    case SymValue::Kind::Ref:
      return v.addr ? exec::Value::ref(*v.addr) : exec::Value::null();
    case SymValue::Kind::Array: {
      std::vector<exec::Value> xs;
      for (const SymValue& x : *v.elems) {
        auto c = concreteValue(x);
        if (!c) return std::nullopt;
        xs.push_back(std::move(*c));
      }
      return exec::Value::array(std::move(xs));
    }
  }
  return std::nullopt;
}

bool foldable(Op op) {
  switch (op) {
    case Op::Var:
    case Op::Symbol:
    case Op::Star:
    case Op::Call:
    case Op::Old:
    case Op::Pid:
    case Op::AtLoc:
    case Op::ProcLocal:
    case Op::Field:
    case Op::Deref:
    case Op::AddrOf:
      return false;
    default:
      return true;
  }
}

}  // namespace

SymEvaluator::SymEvaluator(const ir::Program& program, const exec::Evaluator& concrete)
    : program_(program), concrete_(concrete) {}

ExprRef SymEvaluator::mk(Op op, TypeRef type, std::vector<ExprRef> kids, uint32_t payload,
                         BigInt value) const {
  ExprManager& em = exprs();
  if (op == Op::Not && kids.size() == 1) return em.mkNot(kids[0]);
  if (op == Op::And && kids.size() == 2) return em.mkAnd(kids[0], kids[1]);
  if (op == Op::Or && kids.size() == 2) return em.mkOr(kids[0], kids[1]);
  bool allConst = foldable(op);
  for (ExprRef k : kids) allConst = allConst && k->isConst();
  ExprRef node = em.mk(op, type, std::move(kids), payload, std::move(value));
  if (!allConst || node->isConst()) return node;
  const exec::State empty;
  auto r = concrete_.eval(node, empty, exec::kNoThread);
  if (!r) return node;  // e.g. a division by zero: its obligation already fails this path
  ExprRef c = constantOf(em, r.value(), type);
  return c ? c : node;
}

SymValue SymEvaluator::fromValue(const exec::Value& v, TypeRef t) const {
  switch (v.kind()) {
    case exec::ValueKind::Null:
      return SymValue::nullRef();
    case exec::ValueKind::Ref:
      return SymValue::ref(v.asRef());
    case exec::ValueKind::Array: {
      std::vector<SymValue> xs;
      for (const exec::Value& x : v.elements()) xs.push_back(fromValue(x, t ? t->elem : nullptr));
      return SymValue::array(std::move(xs));
    }
    case exec::ValueKind::Object:
      throw NotImplemented("objects");
    default:
      return SymValue::scalar(constantOf(exprs(), v, t));
  }
}

SymValue SymEvaluator::coerce(SymValue v, TypeRef t) const {
  if (v.kind != SymValue::Kind::Scalar || !t || !t->isIntegral()) return v;
  TypeRef from = v.expr->type;
  if (!from || !from->isIntegral() || from == t) return v;
  return SymValue::scalar(mk(Op::Cast, t, {v.expr}));
}

ExprRef SymEvaluator::scalarOf(const SymValue& v, ExprRef where) const {
  if (v.kind != SymValue::Kind::Scalar)
    throw NotImplemented(std::string("a reference or array operand of ") + opName(where->op));
  return v.expr;
}

void SymEvaluator::oblige(const Ctx& c, ExprRef cond, ir::ErrorKind kind,
                          std::string message) const {
  ExprRef ok = exprs().mkOr(exprs().mkNot(c.guard), cond);
  if (ok->isTrue()) return;
  c.obls.push_back(Obligation{ok, kind, std::move(message)});
}

void SymEvaluator::checkIndex(const Ctx& c, ExprRef index, size_t len) const {
  TypeRef bt = exprs().types().boolType();
  ExprRef lo = mk(Op::Le, bt, {exprs().intConst(BigInt(0), index->type), index});
  ExprRef hi = mk(Op::Lt, bt, {index, exprs().intConst(BigInt(uint64_t{len}), index->type)});
  oblige(c, exprs().mkAnd(lo, hi), ir::ErrorKind::IndexOutOfBounds, "index out of bounds");
}

SymValue SymEvaluator::eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const {
  Ctx c{s, exprs().trueExpr(), obls, false};
  return evalIn(c, e);
}

SymLvalue SymEvaluator::lvalue(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const {
  Ctx c{s, exprs().trueExpr(), obls, false};
  return lvalueIn(c, e);
}

SymValue SymEvaluator::evalIn(const Ctx& c, ExprRef e) const {
  ExprManager& em = exprs();
  switch (e->op) {
    case Op::IntConst:
    case Op::BoolConst:
    case Op::EnumConst:
    case Op::Symbol:
      return SymValue::scalar(e);
    case Op::NullConst:
      return SymValue::nullRef();
    case Op::Var:
    case Op::Deref:
    case Op::Select: {
      if (e->op == Op::Select) return evalSelect(c, e);
      SymLvalue lv = lvalueIn(c, e);
      if (lv.slot == ir::kNone) return fromValue(exec::defaultValue(e->type), e->type);
      return load(c, lv);
    }
    case Op::And:
    case Op::Or:
    case Op::Implies: {
      ExprRef a = scalarOf(evalIn(c, e->kid(0)), e);
      ExprRef cond = e->op == Op::Or ? em.mkNot(a) : a;  // when the right operand is evaluated
      if (cond->isFalse()) return SymValue::scalar(e->op == Op::And ? a : em.trueExpr());
      Ctx inner{c.s, em.mkAnd(c.guard, cond), c.obls, c.old};
      ExprRef b = scalarOf(evalIn(inner, e->kid(1)), e);
      if (e->op == Op::And) return SymValue::scalar(em.mkAnd(a, b));
      if (e->op == Op::Or) return SymValue::scalar(em.mkOr(a, b));
      return SymValue::scalar(em.mkOr(em.mkNot(a), b));
    }
    case Op::Ite: {
      ExprRef cond = scalarOf(evalIn(c, e->kid(0)), e);
      if (cond->isTrue()) return evalIn(c, e->kid(1));
      if (cond->isFalse()) return evalIn(c, e->kid(2));
      SymValue a = evalIn(Ctx{c.s, em.mkAnd(c.guard, cond), c.obls, c.old}, e->kid(1));
      SymValue b = evalIn(Ctx{c.s, em.mkAnd(c.guard, em.mkNot(cond)), c.obls, c.old}, e->kid(2));
      if (a.kind != SymValue::Kind::Scalar || b.kind != SymValue::Kind::Scalar)
        throw NotImplemented("a conditional choosing between references or arrays");
      return SymValue::scalar(mk(Op::Ite, e->type, {cond, a.expr, b.expr}));
    }
    case Op::Div:
    case Op::Mod: {
      ExprRef a = scalarOf(evalIn(c, e->kid(0)), e);
      ExprRef b = scalarOf(evalIn(c, e->kid(1)), e);
      oblige(c, mk(Op::Ne, em.types().boolType(), {b, em.intConst(BigInt(0), b->type)}),
             ir::ErrorKind::DivByZero, "division by zero");
      std::vector<ExprRef> kids{a, b};
      concretizeOperands(c, kids);
      return SymValue::scalar(mk(e->op, e->type, std::move(kids)));
    }
    case Op::Len: {
      SymValue a = evalIn(c, e->kid(0));
      if (a.kind != SymValue::Kind::Array) throw NotImplemented("len of a non-array");
      return SymValue::scalar(em.intConst(BigInt(uint64_t{a.elems->size()}), e->type));
    }
    case Op::ArrayLit: {
      std::vector<SymValue> xs;
      for (ExprRef k : e->kids) xs.push_back(coerce(evalIn(c, k), e->type->elem));
      return SymValue::array(std::move(xs));
    }
    case Op::NewArray: {
      ExprRef n = scalarOf(evalIn(c, e->kid(0)), e);
      auto len = valueOf(n);
      if (!len) throw NotImplemented("`new` with a symbolic length");
      BigInt size = len->toBigInt();
      if (size.sign() < 0) {
        oblige(c, em.falseExpr(), ir::ErrorKind::NegativeSize, "negative array size");
        return SymValue::array({});
      }
      auto small = size.toInt64();
      if (!small || *small > (int64_t{1} << 16)) throw NotImplemented("arrays this large");
      std::vector<SymValue> xs(static_cast<size_t>(*small),
                               fromValue(exec::defaultValue(e->type->elem), e->type->elem));
      return SymValue::array(std::move(xs));
    }
    case Op::AddrOf: {
      SymLvalue lv = lvalueIn(c, e->kid(0));
      if (lv.slot == ir::kNone) return SymValue::nullRef();
      exec::Address a{lv.base, 0, lv.frame, 0, lv.slot, {}};
      for (ExprRef i : lv.path) {
        auto v = valueOf(i);
        if (!v) throw NotImplemented("a reference to an array element at a symbolic index");
        a.path.push_back(static_cast<uint64_t>(*v->toBigInt().toInt64()));
      }
      return SymValue::ref(std::move(a));
    }
    case Op::Eq:
    case Op::Ne: {
      SymValue a = evalIn(c, e->kid(0)), b = evalIn(c, e->kid(1));
      if (a.kind == SymValue::Kind::Ref && b.kind == SymValue::Kind::Ref)
        return SymValue::scalar(em.boolConst((a.addr == b.addr) == (e->op == Op::Eq)));
      return SymValue::scalar(mk(e->op, e->type, {scalarOf(a, e), scalarOf(b, e)}));
    }
    case Op::Call:
      return evalCall(c, e);
    case Op::Old: {
      if (c.s.frames.empty() || !c.s.top().oldGlobals) throw NotImplemented("old() here");
      return evalIn(Ctx{c.s, c.guard, c.obls, true}, e->kid(0));
    }
    case Op::Star:
      throw NotImplemented("a nondeterministic value inside an expression");
    case Op::Field:
    case Op::Pid:
    case Op::AtLoc:
    case Op::ProcLocal:
      throw NotImplemented(std::string("the operator ") + opName(e->op));
    default: {
      std::vector<ExprRef> kids;
      for (ExprRef k : e->kids) kids.push_back(scalarOf(evalIn(c, k), e));
      if (e->op == Op::Mul) concretizeOperands(c, kids);
      return SymValue::scalar(mk(e->op, e->type, std::move(kids), e->payload, e->value));
    }
  }
}

SymValue SymEvaluator::evalCall(const Ctx& c, ExprRef e) const {
  std::vector<ExprRef> args;
  bool allConst = true;
  for (ExprRef k : e->kids) {
    SymValue v = evalIn(c, k);
    if (v.kind != SymValue::Kind::Scalar)
      throw NotImplemented("calls with reference or array arguments");
    args.push_back(v.expr);
    allConst = allConst && v.expr->isConst();
  }
  if (!allConst && policy_) {
    if (auto cs = policy_->concretize(args, c.guard, c.s)) {
      args = std::move(*cs);
      allConst = true;
    }
  }
  ExprRef call = exprs().mk(Op::Call, e->type, args, e->payload);
  if (!allConst) return SymValue::scalar(call);  // an uninterpreted function (classic, mixed)
  // Constant arguments: run the code concretely, on the globals if they are all concrete.
  exec::State st;
  const auto& globals = c.old ? *c.s.top().oldGlobals : c.s.globals;
  for (const SymValue& g : globals) {
    auto v = concreteValue(g);
    if (!v) return SymValue::scalar(call);
    st.globals.push_back(std::move(*v));
  }
  auto r = concrete_.eval(call, st, exec::kNoThread);
  if (!r) {
    if (r.error().limit) throw NotImplemented("a call it cannot run: " + r.error().message);
    oblige(c, exprs().falseExpr(), r.error().kind, r.error().message);
    return fromValue(exec::defaultValue(e->type), e->type);
  }
  return fromValue(r.value(), e->type);
}

void SymEvaluator::concretizeOperands(const Ctx& c, std::vector<ExprRef>& kids) const {
  if (!policy_ || kids.size() != 2 || kids[0]->isConst() || kids[1]->isConst()) return;
  if (auto cs = policy_->concretize(kids, c.guard, c.s)) kids = std::move(*cs);
}

SymValue selectElement(const SymEvaluator& ev, const SymValue& array, ExprRef index) {
  const auto& xs = *array.elems;
  if (auto v = index->isConst() ? std::optional<BigInt>(index->value) : std::nullopt) {
    auto i = v->toInt64();
    if (i && *i >= 0 && static_cast<size_t>(*i) < xs.size()) return xs[static_cast<size_t>(*i)];
    return xs.empty() ? SymValue{} : xs[0];  // out of range: the path fails before using it
  }
  if (xs.empty()) return SymValue{};
  ExprRef acc = nullptr;
  for (size_t k = xs.size(); k-- > 0;) {
    if (xs[k].kind != SymValue::Kind::Scalar)
      throw NotImplemented("a symbolic index into an array of references or arrays");
    if (!acc) {
      acc = xs[k].expr;
      continue;
    }
    ExprRef eq = ev.mk(Op::Eq, ev.exprs().types().boolType(),
                       {index, ev.exprs().intConst(BigInt(uint64_t{k}), index->type)});
    acc = ev.mk(Op::Ite, xs[k].expr->type, {eq, xs[k].expr, acc});
  }
  return SymValue::scalar(acc);
}

SymValue SymEvaluator::evalSelect(const Ctx& c, ExprRef e) const {
  SymValue a = evalIn(c, e->kid(0));
  ExprRef i = scalarOf(evalIn(c, e->kid(1)), e);
  if (a.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
  checkIndex(c, i, a.elems->size());
  SymValue v = selectElement(*this, a, i);
  if (!v.expr && v.kind == SymValue::Kind::Scalar)
    return fromValue(exec::defaultValue(e->type), e->type);
  return v;
}

SymLvalue SymEvaluator::lvalueIn(const Ctx& c, ExprRef e) const {
  switch (e->op) {
    case Op::Var: {
      const ir::Variable& v = program_.vars[e->payload];
      if (v.scope == ir::VarScope::Global)
        return SymLvalue{exec::AddressBase::Global, 0, v.slot, {}};
      if (v.scope == ir::VarScope::Local)
        return SymLvalue{
            exec::AddressBase::Local, static_cast<uint32_t>(c.s.frames.size() - 1), v.slot, {}};
      throw NotImplemented("fields and process variables");
    }
    case Op::Deref: {
      SymValue p = evalIn(c, e->kid(0));
      if (p.kind != SymValue::Kind::Ref) throw NotImplemented("dereferencing a non-reference");
      if (!p.addr) {
        oblige(c, exprs().falseExpr(), ir::ErrorKind::NullDeref, "null dereference");
        return SymLvalue{exec::AddressBase::Global, 0, ir::kNone, {}};  // no place: path fails
      }
      const exec::Address& a = *p.addr;
      if (a.base != exec::AddressBase::Global && a.base != exec::AddressBase::Local)
        throw NotImplemented("references to fields and process variables");
      if (a.base == exec::AddressBase::Local && a.frame >= c.s.frames.size())
        throw NotImplemented("dangling references");
      SymLvalue lv{a.base, a.frame, a.slot, {}};
      for (uint64_t i : a.path) lv.path.push_back(exprs().intConst(BigInt(i)));
      return lv;
    }
    case Op::Select: {
      SymLvalue lv = lvalueIn(c, e->kid(0));
      ExprRef i = scalarOf(evalIn(c, e->kid(1)), e);
      if (lv.slot == ir::kNone) return lv;
      SymValue a = load(c, lv);
      if (a.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
      checkIndex(c, i, a.elems->size());
      lv.path.push_back(i);
      return lv;
    }
    default:
      throw NotImplemented(std::string("the lvalue ") + opName(e->op));
  }
}

SymValue SymEvaluator::load(const Ctx& c, const SymLvalue& lv) const {
  const SymValue* root;
  if (lv.base == exec::AddressBase::Global)
    root = c.old ? &(*c.s.top().oldGlobals)[lv.slot] : &c.s.globals[lv.slot];
  else
    root = &c.s.frames[lv.frame].locals[lv.slot];
  SymValue v = *root;
  for (ExprRef i : lv.path) {
    if (v.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
    v = selectElement(*this, v, i);
  }
  return v;
}

namespace {

SymValue storeAt(const SymEvaluator& ev, const SymValue& into, std::span<const ExprRef> path,
                 const SymValue& v) {
  if (path.empty()) return v;
  if (into.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
  std::vector<SymValue> xs = *into.elems;
  ExprRef i = path[0];
  if (i->isConst()) {
    auto k = i->value.toInt64();
    if (k && *k >= 0 && static_cast<size_t>(*k) < xs.size())
      xs[static_cast<size_t>(*k)] = storeAt(ev, xs[static_cast<size_t>(*k)], path.subspan(1), v);
    return SymValue::array(std::move(xs));
  }
  for (size_t k = 0; k < xs.size(); ++k) {
    SymValue updated = storeAt(ev, xs[k], path.subspan(1), v);
    if (updated.kind != SymValue::Kind::Scalar || xs[k].kind != SymValue::Kind::Scalar)
      throw NotImplemented("a store at a symbolic index into an array of references or arrays");
    ExprRef eq = ev.mk(Op::Eq, ev.exprs().types().boolType(),
                       {i, ev.exprs().intConst(BigInt(uint64_t{k}), i->type)});
    xs[k] = SymValue::scalar(ev.mk(Op::Ite, xs[k].expr->type, {eq, updated.expr, xs[k].expr}));
  }
  return SymValue::array(std::move(xs));
}

}  // namespace

void SymEvaluator::store(SymState& s, const SymLvalue& lv, SymValue v) const {
  if (lv.slot == ir::kNone) return;  // a failed lvalue: the path is infeasible from here
  SymValue& root = lv.base == exec::AddressBase::Global ? s.globals[lv.slot]
                                                        : s.frames[lv.frame].locals[lv.slot];
  root = storeAt(*this, root, lv.path, v);
}

}  // namespace tandem::symbolic
