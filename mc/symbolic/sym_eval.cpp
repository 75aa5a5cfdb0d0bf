#include "mc/symbolic/sym_eval.h"

#include <optional>
#include <stdexcept>

#include "mc/exec/arith.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/sym_eval_ctx.h"

namespace tandem::symbolic {

namespace {

std::optional<exec::Address> concreteAddress(const SymAddress& a) {
  exec::Address out{a.base, 0, a.frame, a.base == exec::AddressBase::Field ? a.object : 0,
                    a.slot, {}};
  if (a.base != exec::AddressBase::Local) out.frame = 0;
  for (ExprRef i : a.path) {
    auto v = valueOf(i);
    if (!v || !v->isIntegral() || v->toBigInt().sign() < 0) return std::nullopt;
    auto k = v->toBigInt().toInt64();
    if (!k) return std::nullopt;
    out.path.push_back(static_cast<uint64_t>(*k));
  }
  return out;
}

std::optional<exec::Value> concreteValue(const SymValue& v) {
  switch (v.kind) {
    case SymValue::Kind::Scalar:
      return valueOf(v.expr);
    case SymValue::Kind::Ref: {
      if (!v.addr) return exec::Value::null();
      auto a = concreteAddress(*v.addr);
      if (!a) return std::nullopt;
      return exec::Value::ref(std::move(*a));
    }
    case SymValue::Kind::Object:
      return exec::Value::object(v.object);
    case SymValue::Kind::Array: {
      if (!v.elems) return std::nullopt;
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
    case Op::ArrayLit:  // arrays have no constant form (and `new` may be long)
    case Op::NewArray:
    case Op::Store:
    case Op::Received:
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
    case exec::ValueKind::Ref: {
      const exec::Address& a = v.asRef();
      SymAddress out{a.base,
                     a.base == exec::AddressBase::Local ? a.frame : 0,
                     a.base == exec::AddressBase::Field ? a.object : exec::kNoObject,
                     a.slot,
                     {}};
      for (uint64_t i : a.path) out.path.push_back(exprs().intConst(BigInt(i)));
      return SymValue::ref(std::move(out));
    }
    case exec::ValueKind::Array: {
      std::vector<SymValue> xs;
      for (const exec::Value& x : v.elements()) xs.push_back(fromValue(x, t ? t->elem : nullptr));
      return SymValue::array(std::move(xs));
    }
    case exec::ValueKind::Object:
      return SymValue::objectRef(v.asObject());
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

SymValue SymEvaluator::freshInput(TypeRef t, const std::string& name, ExprRef& symbol) const {
  if (isScalarType(t)) {
    symbol = exprs().freshSymbol(name, t);
    return SymValue::scalar(symbol);
  }
  if (t && t->kind == TypeKind::Array && isScalarType(t->elem)) {
    symbol = exprs().freshSymbol(name, t);
    ExprRef len = t->isFixedArray() ? exprs().intConst(BigInt(t->length))
                                    : mk(Op::Len, exprs().types().intType(), {symbol});
    return SymValue::symbolicArray(symbol, len);
  }
  throw NotImplemented("symbolic values of type " + (t ? typeToString(t) : std::string("?")));
}

ExprRef SymEvaluator::scalarOf(const SymValue& v, ExprRef where) const {
  if (v.kind != SymValue::Kind::Scalar)
    throw NotImplemented(std::string("a reference or array operand of ") + opName(where->op));
  return v.expr;
}

ExprRef SymEvaluator::asInt(ExprRef index) const {
  TypeRef it = exprs().types().intType();
  if (!index->type || !index->type->isBitVector()) return index;
  return mk(Op::Cast, it, {index});
}

void SymEvaluator::oblige(const Ctx& c, ExprRef cond, ir::ErrorKind kind, std::string message,
                          bool limit) const {
  ExprRef ok = exprs().mkOr(exprs().mkNot(c.guard), cond);
  if (ok->isTrue()) return;
  c.obls.push_back(Obligation{ok, kind, std::move(message), limit});
}

void SymEvaluator::checkOverflow(const Ctx& c, ExprRef e, const std::vector<ExprRef>& kids) const {
  if (!program_.checkOverflow || !e->type || !e->type->isBitVector()) return;
  ExprManager& em = exprs();
  const TypeRef t = e->type, bt = em.types().boolType();
  const unsigned w = t->bitWidth();
  const int64_t top = w >= 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
  const ExprRef min = em.intConst(BigInt(-top - 1), t), max = em.intConst(BigInt(top), t);
  ExprRef ok = nullptr;
  switch (e->op) {
    case Op::Add:
    case Op::Mul:
      ok = mk(e->op == Op::Add ? Op::NoOverflowAdd : Op::NoOverflowMul, bt, kids);
      break;
    case Op::Sub: {  // a - b fits iff b >= 0 ? a >= MIN + b : a <= MAX + b (neither sum wraps)
      const ExprRef a = kids[0], b = kids[1];
      const ExprRef nonNeg = mk(Op::Ge, bt, {b, em.intConst(BigInt(0), t)});
      ok = em.mkOr(em.mkAnd(nonNeg, mk(Op::Ge, bt, {a, mk(Op::Add, t, {min, b})})),
                   em.mkAnd(em.mkNot(nonNeg), mk(Op::Le, bt, {a, mk(Op::Add, t, {max, b})})));
      break;
    }
    case Op::Neg:
    case Op::Abs:
      ok = mk(Op::Ne, bt, {kids[0], min});
      break;
    case Op::Div:
    case Op::Mod:
      ok = em.mkOr(mk(Op::Ne, bt, {kids[0], min}),
                   mk(Op::Ne, bt, {kids[1], em.intConst(BigInt(-1), t)}));
      break;
    default:
      return;
  }
  oblige(c, ok, ir::ErrorKind::Overflow, exec::overflowMessage(e->op, w));
}

// int(x), i32(x), i64(x) of an f64: defined on [-2^63, 2^63), which no NaN or infinity is in
// (the concrete evaluator's f64::toInteger; IEEE comparisons with NaN are false).
void SymEvaluator::checkFloatConversion(const Ctx& c, ExprRef cast, ExprRef x) const {
  if (!x->type || x->type->kind != TypeKind::F64 || !cast->type || !cast->type->isIntegral())
    return;
  ExprManager& em = exprs();
  const TypeRef bt = em.types().boolType();
  const double bound = 9223372036854775808.0;  // 2^63
  ExprRef ok = em.mkAnd(mk(Op::Ge, bt, {x, em.floatConst(-bound)}),
                        mk(Op::Lt, bt, {x, em.floatConst(bound)}));
  oblige(c, ok, ir::ErrorKind::FloatConversion, "f64 value has no integer conversion");
}

void SymEvaluator::checkIndex(const Ctx& c, ExprRef index, ExprRef len) const {
  TypeRef bt = exprs().types().boolType();
  ExprRef i = index;
  if (index->type && index->type->isBitVector() &&
      !(len->isConst() && len->value.fitsIn(index->type->bitWidth())))
    i = asInt(index);  // compared as integers only when the length needs it
  ExprRef lo = mk(Op::Le, bt, {exprs().intConst(BigInt(0), i->type), i});
  ExprRef hi = mk(Op::Lt, bt,
                  {i, i == index && len->isConst() ? exprs().intConst(len->value, i->type) : len});
  oblige(c, exprs().mkAnd(lo, hi), ir::ErrorKind::IndexOutOfBounds, exec::indexMessage());
}

void SymEvaluator::checkPath(const Ctx& c, const SymLvalue& lv) const {
  SymValue v = rootOf(c, lv);
  for (ExprRef i : lv.path) {
    if (v.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
    checkIndex(c, i, lengthOf(v));
    v = element(v, i, nullptr);
  }
}

SymValue SymEvaluator::eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const {
  return eval(e, s, obls, s.thread);
}

SymValue SymEvaluator::eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls,
                            exec::ThreadId thread) const {
  Ctx c{s, exprs().trueExpr(), obls, false, thread};
  return evalIn(c, e);
}

SymLvalue SymEvaluator::lvalue(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const {
  Ctx c{s, exprs().trueExpr(), obls, false, s.thread};
  return lvalueIn(c, e);
}

SymValue SymEvaluator::evalIn(const Ctx& c, ExprRef e) const {
  ExprManager& em = exprs();
  switch (e->op) {
    case Op::IntConst:
    case Op::BoolConst:
    case Op::EnumConst:
    case Op::FloatConst:
    case Op::Symbol:
      return SymValue::scalar(e);
    case Op::NullConst:
      return SymValue::nullRef();
    case Op::Select:
      return evalSelect(c, e);
    case Op::Var:
    case Op::Deref:
    case Op::Field: {
      SymLvalue lv = lvalueIn(c, e);
      if (!lv.valid()) return defaultOf(e->type);
      return load(c, lv, e->type);
    }
    case Op::And:
    case Op::Or:
    case Op::Implies: {
      ExprRef a = scalarOf(evalIn(c, e->kid(0)), e);
      ExprRef cond = e->op == Op::Or ? em.mkNot(a) : a;  // when the right operand is evaluated
      if (cond->isFalse()) return SymValue::scalar(e->op == Op::And ? a : em.trueExpr());
      Ctx inner{c.s, em.mkAnd(c.guard, cond), c.obls, c.old, c.thread};
      ExprRef b = scalarOf(evalIn(inner, e->kid(1)), e);
      if (e->op == Op::And) return SymValue::scalar(em.mkAnd(a, b));
      if (e->op == Op::Or) return SymValue::scalar(em.mkOr(a, b));
      return SymValue::scalar(em.mkOr(em.mkNot(a), b));
    }
    case Op::Ite:
      return evalIte(c, e);
    case Op::Div:
    case Op::Mod: {
      ExprRef a = scalarOf(evalIn(c, e->kid(0)), e);
      ExprRef b = scalarOf(evalIn(c, e->kid(1)), e);
      if (e->type && e->type->kind == TypeKind::F64)  // IEEE: x / 0 is an infinity or NaN
        return SymValue::scalar(mk(e->op, e->type, {a, b}));
      oblige(c, mk(Op::Ne, em.types().boolType(), {b, em.intConst(BigInt(0), b->type)}),
             ir::ErrorKind::DivByZero, "division by zero");
      checkOverflow(c, e, {a, b});
      std::vector<ExprRef> kids{a, b};
      concretizeOperands(c, kids);
      return SymValue::scalar(mk(e->op, e->type, std::move(kids)));
    }
    case Op::Len: {
      SymValue a = evalIn(c, e->kid(0));
      if (a.kind != SymValue::Kind::Array) throw NotImplemented("len of a non-array");
      return coerce(SymValue::scalar(lengthOf(a)), e->type);
    }
    case Op::ArrayLit: {
      std::vector<SymValue> xs;
      for (ExprRef k : e->kids) xs.push_back(coerce(evalIn(c, k), e->type->elem));
      return SymValue::array(std::move(xs));
    }
    case Op::NewArray:
      return evalNewArray(c, e);
    case Op::AddrOf: {
      SymLvalue lv = lvalueIn(c, e->kid(0));
      if (!lv.valid()) return SymValue::nullRef();
      return SymValue::ref(std::move(lv));
    }
    case Op::Eq:
    case Op::Ne:
      return evalEquality(c, e);
    case Op::Call:
      return evalCall(c, e);
    case Op::Old: {
      if (c.s.frames.empty() || !c.s.top().old) throw NotImplemented("old() here");
      return evalIn(Ctx{c.s, c.guard, c.obls, true, c.thread}, e->kid(0));
    }
    case Op::Star:
      throw NotImplemented("a nondeterministic value inside an expression");
    case Op::Pid: {
      const SymThread* th = currentThread(c);
      if (!th) throw NotImplemented("pid outside a process");
      return SymValue::scalar(em.intConst(BigInt(static_cast<int64_t>(th->instance)), e->type));
    }
    case Op::ProcLocal:
      return evalProcessLocal(c, e);
    case Op::AtLoc:
      return atLocationResidue(c, e);
    case Op::Received:
      if (e->payload >= c.s.message.size())
        throw NotImplemented("a received field outside a rendezvous");
      return c.s.message[e->payload];
    default: {
      std::vector<ExprRef> kids;
      for (ExprRef k : e->kids) kids.push_back(scalarOf(evalIn(c, k), e));
      if (e->op == Op::Mul) concretizeOperands(c, kids);
      checkOverflow(c, e, kids);
      if (e->op == Op::Cast) checkFloatConversion(c, e, kids[0]);
      return SymValue::scalar(mk(e->op, e->type, std::move(kids), e->payload, e->value));
    }
  }
}

SymValue SymEvaluator::evalIte(const Ctx& c, ExprRef e) const {
  ExprManager& em = exprs();
  ExprRef cond = scalarOf(evalIn(c, e->kid(0)), e);
  if (cond->isTrue()) return evalIn(c, e->kid(1));
  if (cond->isFalse()) return evalIn(c, e->kid(2));
  SymValue a = evalIn(Ctx{c.s, em.mkAnd(c.guard, cond), c.obls, c.old, c.thread}, e->kid(1));
  SymValue b =
      evalIn(Ctx{c.s, em.mkAnd(c.guard, em.mkNot(cond)), c.obls, c.old, c.thread}, e->kid(2));
  if (a.kind == SymValue::Kind::Scalar && b.kind == SymValue::Kind::Scalar)
    return SymValue::scalar(mk(Op::Ite, e->type, {cond, a.expr, b.expr}));
  if (a.kind == SymValue::Kind::Array && b.kind == SymValue::Kind::Array &&
      isScalarType(e->type->elem)) {
    TypeRef t = exprs().types().arrayOf(e->type->elem, -1);
    return SymValue::symbolicArray(
        mk(Op::Ite, t, {cond, arrayTerm(a, t), arrayTerm(b, t)}),
        mk(Op::Ite, em.types().intType(), {cond, lengthOf(a), lengthOf(b)}));
  }
  throw NotImplemented("a conditional choosing between references, objects or nested arrays");
}

SymValue SymEvaluator::evalNewArray(const Ctx& c, ExprRef e) const {
  ExprManager& em = exprs();
  TypeRef bt = em.types().boolType();
  ExprRef n = asInt(scalarOf(evalIn(c, e->kid(0)), e));
  ExprRef zero = em.intConst(BigInt(0));
  ExprRef nonNegative = mk(Op::Le, bt, {zero, n});
  oblige(c, nonNegative, ir::ErrorKind::NegativeSize, "negative array size");
  if (nonNegative->isFalse()) return SymValue::array({});
  const BigInt limit(concrete_.limits().maxArrayLength);
  oblige(c, mk(Op::Le, bt, {n, em.intConst(limit)}), ir::ErrorKind::NegativeSize,
         "an array longer than the evaluator's limit of " + limit.toString() + " elements",
         /*limit=*/true);
  if (!n->isConst() && !isScalarType(e->type->elem))
    throw NotImplemented(
        "`new` of an array of references, objects or arrays with a symbolic length");
  return newArray(e->type, n);
}

ExprRef SymEvaluator::sameReference(const SymValue& a, const SymValue& b) const {
  ExprManager& em = exprs();
  if (a.isNull() || b.isNull()) return em.boolConst(a.isNull() && b.isNull());
  if (a.kind == SymValue::Kind::Object || b.kind == SymValue::Kind::Object)
    return em.boolConst(a.kind == b.kind && a.object == b.object);
  const SymAddress& x = *a.addr;
  const SymAddress& y = *b.addr;
  if (x.base != y.base || x.frame != y.frame || x.object != y.object || x.slot != y.slot ||
      x.path.size() != y.path.size())
    return em.falseExpr();
  ExprRef all = em.trueExpr();
  for (size_t i = 0; i < x.path.size(); ++i)
    all = em.mkAnd(all, mk(Op::Eq, em.types().boolType(), {asInt(x.path[i]), asInt(y.path[i])}));
  return all;
}

SymValue SymEvaluator::evalEquality(const Ctx& c, ExprRef e) const {
  ExprManager& em = exprs();
  SymValue a = evalIn(c, e->kid(0)), b = evalIn(c, e->kid(1));
  ExprRef eq;
  auto isReference = [](const SymValue& v) {
    return v.kind == SymValue::Kind::Ref || v.kind == SymValue::Kind::Object;
  };
  if (isReference(a) && isReference(b)) {
    eq = sameReference(a, b);
  } else if (a.kind == SymValue::Kind::Array && b.kind == SymValue::Kind::Array) {
    TypeRef elem = e->kid(0)->type ? e->kid(0)->type->elem : nullptr;
    if (!isScalarType(elem)) throw NotImplemented("comparing arrays of non-scalars");
    TypeRef t = em.types().arrayOf(elem, -1);
    eq = mk(Op::Eq, em.types().boolType(), {arrayTerm(a, t), arrayTerm(b, t)});
  } else {
    return SymValue::scalar(mk(e->op, e->type, {scalarOf(a, e), scalarOf(b, e)}));
  }
  return SymValue::scalar(e->op == Op::Eq ? eq : em.mkNot(eq));
}

SymValue SymEvaluator::evalCall(const Ctx& c, ExprRef e) const {
  std::vector<ExprRef> args;
  bool allConst = true;
  for (ExprRef k : e->kids) {
    SymValue v = evalIn(c, k);
    if (v.kind != SymValue::Kind::Scalar)
      // Call statements (`var r: T = f(a)`) take them: the callee runs in a frame of its own.
      throw NotImplemented(
          "calls inside expressions with reference or array arguments (write the call as a "
          "statement, `var r: T = f(...);`)");
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
  if (!allConst) return SymValue::scalar(opaque(call));  // an uninterpreted function
  // Constant arguments: run the code concretely, on the globals and heap if they are concrete.
  exec::State st;
  const auto& globals = c.old ? c.s.top().old->globals : c.s.globals;
  const auto& heap = c.old ? c.s.top().old->heap : c.s.heap;
  for (const SymValue& g : globals) {
    auto v = concreteValue(g);
    if (!v) return SymValue::scalar(opaque(call));
    st.globals.push_back(std::move(*v));
  }
  for (const SymObject& o : heap) {
    exec::HeapObject obj{o.classIndex, {}};
    for (const SymValue& f : o.fields) {
      auto v = concreteValue(f);
      if (!v) return SymValue::scalar(opaque(call));
      obj.fields.push_back(std::move(*v));
    }
    st.heap.push_back(std::move(obj));
  }
  auto r = concrete_.eval(call, st, exec::kNoThread);
  if (!r) {
    if (r.error().limit) throw NotImplemented("a call it cannot run: " + r.error().message);
    oblige(c, exprs().falseExpr(), r.error().kind, r.error().message);
    return defaultOf(e->type);
  }
  return fromValue(r.value(), e->type);
}

ExprRef SymEvaluator::opaque(ExprRef call) const {
  if (!program_.callees[call->payload].native) ++uncheckedCalls_;
  return call;
}

void SymEvaluator::concretizeOperands(const Ctx& c, std::vector<ExprRef>& kids) const {
  if (!policy_ || kids.size() != 2 || kids[0]->isConst() || kids[1]->isConst()) return;
  if (auto cs = policy_->concretize(kids, c.guard, c.s)) kids = std::move(*cs);
}

SymValue SymEvaluator::evalSelect(const Ctx& c, ExprRef e) const {
  SymValue a = evalIn(c, e->kid(0));
  ExprRef i = scalarOf(evalIn(c, e->kid(1)), e);
  if (a.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
  checkIndex(c, i, lengthOf(a));
  return element(a, i, e->type);
}

SymLvalue SymEvaluator::lvalueIn(const Ctx& c, ExprRef e) const {
  switch (e->op) {
    case Op::Var: {
      const ir::Variable& v = program_.vars[e->payload];
      switch (v.scope) {
        case ir::VarScope::Global:
          return SymLvalue{exec::AddressBase::Global, 0, exec::kNoObject, v.slot, {}};
        case ir::VarScope::Local:
          // As in the concrete evaluator: a local is read in its own procedure's frame only (a
          // predicate read in another frame would make gamma disagree with alpha).
          if (c.s.frames.empty() || (v.owner != ir::kNone && c.s.top().cfa != v.owner))
            throw std::logic_error("local '" + v.name + "' read outside its procedure");
          return SymLvalue{exec::AddressBase::Local,
                           static_cast<uint32_t>(c.s.frames.size() - 1),
                           exec::kNoObject,
                           v.slot,
                           {}};
        case ir::VarScope::Field:
          if (c.s.frames.empty() || c.s.top().self == exec::kNoObject)
            throw NotImplemented("a field outside its class");
          return SymLvalue{exec::AddressBase::Field, 0, c.s.top().self, v.slot, {}};
        case ir::VarScope::ProcessLocal: {
          const SymThread* th = currentThread(c);
          if (!th || th->cfa != v.owner)
            throw NotImplemented("a process variable outside its process");
          SymLvalue lv{exec::AddressBase::ProcessLocal, 0, exec::kNoObject, v.slot, {}};
          lv.thread = c.thread;
          return lv;
        }
      }
      throw NotImplemented("a variable scope");
    }
    case Op::ProcLocal:
      return processLocalLvalue(c, e);
    case Op::Field: {
      SymValue o = evalIn(c, e->kid(0));
      if (o.isNull()) {
        oblige(c, exprs().falseExpr(), ir::ErrorKind::NullDeref, "null dereference: field of null");
        return SymLvalue::none();
      }
      if (o.kind != SymValue::Kind::Object) throw NotImplemented("a field of a non-object");
      if (o.object >= heapOf(c).size()) {  // inside old(): made after the frame's entry
        oblige(c, exprs().falseExpr(), ir::ErrorKind::NullDeref, "dangling reference");
        return SymLvalue::none();
      }
      return SymLvalue{exec::AddressBase::Field, 0, o.object, e->payload, {}};
    }
    case Op::Deref: {
      SymValue p = evalIn(c, e->kid(0));
      if (p.kind != SymValue::Kind::Ref) throw NotImplemented("dereferencing a non-reference");
      if (!p.addr) {
        oblige(c, exprs().falseExpr(), ir::ErrorKind::NullDeref, "null dereference");
        return SymLvalue::none();
      }
      const SymAddress& a = *p.addr;
      if (a.base != exec::AddressBase::Global && a.base != exec::AddressBase::Local &&
          a.base != exec::AddressBase::Field)
        throw NotImplemented("references to process variables");
      const bool dangling = (a.base == exec::AddressBase::Local && a.frame >= c.s.frames.size()) ||
                            (a.base == exec::AddressBase::Field && a.object >= heapOf(c).size());
      if (dangling) {
        oblige(c, exprs().falseExpr(), ir::ErrorKind::NullDeref, "dangling reference");
        return SymLvalue::none();
      }
      checkPath(c, a);  // the arrays on the way may have shrunk since `&` was taken
      return a;
    }
    case Op::Select: {
      SymLvalue lv = lvalueIn(c, e->kid(0));
      ExprRef i = scalarOf(evalIn(c, e->kid(1)), e);
      if (!lv.valid()) return lv;
      SymValue a = load(c, lv, e->kid(0)->type);
      if (a.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
      checkIndex(c, i, lengthOf(a));
      lv.path.push_back(i);
      return lv;
    }
    default:
      throw NotImplemented(std::string("the lvalue ") + opName(e->op));
  }
}

const std::vector<SymObject>& SymEvaluator::heapOf(const Ctx& c) const {
  return c.old ? c.s.top().old->heap : c.s.heap;
}

const SymValue& SymEvaluator::rootOf(const Ctx& c, const SymLvalue& lv) const {
  switch (lv.base) {
    case exec::AddressBase::Global:
      return c.old ? c.s.top().old->globals[lv.slot] : c.s.globals[lv.slot];
    case exec::AddressBase::Field:
      return heapOf(c)[lv.object].fields[lv.slot];
    case exec::AddressBase::Local:
      return c.s.frames[lv.frame].locals[lv.slot];
    case exec::AddressBase::ProcessLocal:
      return c.s.threads[lv.thread].locals[lv.slot];
  }
  throw NotImplemented("an address base");
}

SymValue SymEvaluator::load(const Ctx& c, const SymLvalue& lv, TypeRef type) const {
  SymValue v = rootOf(c, lv);
  for (size_t k = 0; k < lv.path.size(); ++k) {
    if (v.kind != SymValue::Kind::Array) throw NotImplemented("indexing a non-array");
    v = element(v, lv.path[k], k + 1 == lv.path.size() ? type : nullptr);
  }
  return v;
}

void SymEvaluator::store(SymState& s, const SymLvalue& lv, SymValue v) const {
  if (!lv.valid()) return;  // a failed lvalue: the path is infeasible from here
  SymValue* root = nullptr;
  switch (lv.base) {
    case exec::AddressBase::Global:
      root = &s.globals[lv.slot];
      break;
    case exec::AddressBase::Field:
      root = &s.heap[lv.object].fields[lv.slot];
      break;
    case exec::AddressBase::Local:
      root = &s.frames[lv.frame].locals[lv.slot];
      break;
    case exec::AddressBase::ProcessLocal:
      root = &s.threads[lv.thread].locals[lv.slot];
      break;
  }
  *root = withElement(*root, lv.path, v);
}

}  // namespace tandem::symbolic
