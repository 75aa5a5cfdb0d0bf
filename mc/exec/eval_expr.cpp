// Expressions: one case per Op (expr.h). The short-circuit operators and `?:` evaluate only
// what they need, so `p != null && *p > 0` never dereferences null.
#include <string>

#include "mc/exec/arith.h"
#include "mc/exec/eval_context.h"
#include "mc/expr/float64.h"

namespace tandem::exec {

namespace {

std::string fieldName(ExprRef objectExpr, uint32_t index) {
  TypeRef t = objectExpr->type;
  if (t && index < t->fields.size()) return t->fields[index].first;
  return "#" + std::to_string(index);
}

ExecError outOfBounds(const BigInt& index, size_t length) {
  return ExecError{ir::ErrorKind::IndexOutOfBounds, SourceLoc{},
                   indexMessage(index.toString(), std::to_string(length)), false};
}

// Where index i falls in array a (`what` names the operation), or the error of going there.
Result<size_t> positionIn(const Value& a, const Value& i, const char* what) {
  if (a.kind() != ValueKind::Array || !i.isIntegral())
    return internalError(std::string(what) + " a non-array or with a non-integer index");
  const BigInt idx = i.toBigInt();
  const size_t n = a.length();
  if (idx.sign() < 0 || idx >= BigInt(static_cast<uint64_t>(n))) return outOfBounds(idx, n);
  return static_cast<size_t>(idx.small());
}

}  // namespace

Result<bool> Evaluator::evalBool(const Ctx& c, ExprRef e) const {
  auto v = evalIn(c, e);
  if (!v) return std::move(v).error();
  if (v.value().kind() != ValueKind::Bool)
    return internalError(std::string("a condition evaluated to ") +
                         valueKindName(v.value().kind()));
  return v.value().asBool();
}

Result<bool> Evaluator::guardHolds(const Ctx& c, ExprRef guard) const {
  if (!guard) return true;
  // `if (*)`: both branches are enabled; which one runs is the scheduler's choice of edge.
  if (guard->op == Op::Star || (guard->op == Op::Not && guard->kid(0)->op == Op::Star)) return true;
  return evalBool(c, guard);
}

Result<Value> Evaluator::evalIn(const Ctx& c, ExprRef e) const {
  switch (e->op) {
    case Op::IntConst:
      return integralValue(e->type, e->value);
    case Op::BoolConst:
      return Value::boolean(e->value.sign() != 0);
    case Op::EnumConst:
      return Value::enumMember(e->type, e->payload);
    case Op::NullConst:
      return Value::null();
    case Op::FloatConst:
      return Value::f64(f64::fromBits(static_cast<uint64_t>(e->value.small())));
    case Op::Var:
      return evalVar(c, e);
    case Op::Pid:
      if (c.tid == kNoThread) return internalError("pid outside a process");
      return integralValue(e->type, BigInt(static_cast<int64_t>(c.state.threads[c.tid].instance)));
    case Op::Star:
      return ExecError::limitReached(ir::ErrorKind::Assert,
                                     "a nondeterministic value (*) inside an expression");
    case Op::Symbol:  // symbolic values are the symbolic executor's, never concrete states'
      return ExecError::limitReached(ir::ErrorKind::Assert,
                                     "a symbolic value in concrete evaluation");

    case Op::Not:
    case Op::Neg:
    case Op::Abs:
    case Op::Cast: {
      auto a = evalIn(c, e->kid(0));
      if (!a) return a;
      if (program_.checkOverflow)
        if (auto o = overflowOf(e->op, a.value(), nullptr)) return *o;
      return applyUnary(e->op, a.value(), e->type);
    }
    case Op::And:
    case Op::Or:
    case Op::Implies: {
      auto a = evalBool(c, e->kid(0));
      if (!a) return std::move(a).error();
      // && stops at false; || and ==> stop when the left side decides.
      if (e->op == Op::And && !a.value()) return Value::boolean(false);
      if (e->op == Op::Or && a.value()) return Value::boolean(true);
      if (e->op == Op::Implies && !a.value()) return Value::boolean(true);
      auto b = evalBool(c, e->kid(1));
      if (!b) return std::move(b).error();
      return Value::boolean(b.value());
    }
    case Op::Ite: {
      auto cond = evalBool(c, e->kid(0));
      if (!cond) return std::move(cond).error();
      return evalIn(c, e->kid(cond.value() ? 1 : 2));
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Min:
    case Op::Max:
    case Op::NoOverflowAdd:
    case Op::NoOverflowMul: {
      auto a = evalIn(c, e->kid(0));
      if (!a) return a;
      auto b = evalIn(c, e->kid(1));
      if (!b) return b;
      if (program_.checkOverflow)
        if (auto o = overflowOf(e->op, a.value(), &b.value())) return *o;
      return applyBinary(e->op, a.value(), b.value(), e->type);
    }

    case Op::Select:
    case Op::Len:
    case Op::ArrayLit:
    case Op::NewArray:
    case Op::Store:
      return evalArrayOp(c, e);

    case Op::Field: {
      auto o = evalIn(c, e->kid(0));
      if (!o) return o;
      if (o.value().isNull())
        return ExecError{
            ir::ErrorKind::NullDeref, SourceLoc{},
            "null dereference: field '" + fieldName(e->kid(0), e->payload) + "' of null", false};
      if (o.value().kind() != ValueKind::Object) return internalError("field of a non-object");
      return loadIn(c, Address::field(o.value().asObject(), e->payload));
    }
    case Op::Deref: {
      auto p = evalIn(c, e->kid(0));
      if (!p) return p;
      if (p.value().isNull())
        return ExecError{ir::ErrorKind::NullDeref, SourceLoc{}, "null dereference", false};
      if (p.value().kind() != ValueKind::Ref) return internalError("dereference of a non-ref");
      return loadIn(c, p.value().asRef());
    }
    case Op::AddrOf: {
      auto a = lvalueIn(c, e->kid(0));
      if (!a) return std::move(a).error();
      return Value::ref(std::move(a).value());
    }

    case Op::Call:
      return evalCall(c, e);
    case Op::Old: {
      if (!c.hasFrame() || !c.top().old) return evalIn(c, e->kid(0));  // no snapshot: as now
      const OldSnapshot& old = *c.top().old;
      return evalIn(Ctx(c.state, c.tid, old.globals, old.heap, c.depth), e->kid(0));
    }
    case Op::AtLoc:
    case Op::ProcLocal:
      return evalProcessOp(c, e);
    case Op::Received:
      if (!c.message || e->payload >= c.message->size())
        return internalError("a received field outside a rendezvous");
      return (*c.message)[e->payload];
  }
  return internalError(std::string("operator ") + opName(e->op));
}

Result<Value> Evaluator::evalVar(const Ctx& c, ExprRef e) const {
  if (e->payload >= program_.vars.size()) return internalError("unknown variable");
  const ir::Variable& v = program_.vars[e->payload];
  switch (v.scope) {
    case ir::VarScope::Global:
      if (v.slot >= c.globals.size()) return internalError("global '" + v.name + "' has no slot");
      return c.globals[v.slot];
    case ir::VarScope::ProcessLocal: {
      if (c.tid == kNoThread) return internalError("'" + v.name + "' read outside its process");
      const auto& locals = c.state.threads[c.tid].processLocals;
      if (v.slot >= locals.size()) return internalError("'" + v.name + "' has no slot");
      return locals[v.slot];
    }
    case ir::VarScope::Local: {
      if (!c.hasFrame() || c.top().cfa != v.owner || v.slot >= c.top().locals.size())
        return internalError("local '" + v.name + "' read outside its procedure");
      return c.top().locals[v.slot];
    }
    case ir::VarScope::Field:
      if (!c.hasFrame() || c.top().self == kNoObject)
        return internalError("field '" + v.name + "' read without `this`");
      return loadIn(c, Address::field(c.top().self, v.slot));
  }
  return internalError("variable scope");
}

Result<Value> Evaluator::evalArrayOp(const Ctx& c, ExprRef e) const {
  switch (e->op) {
    case Op::Select: {
      auto a = evalIn(c, e->kid(0));
      if (!a) return a;
      auto i = evalIn(c, e->kid(1));
      if (!i) return i;
      auto at = positionIn(a.value(), i.value(), "select on");
      if (!at) return std::move(at).error();
      return a.value().at(at.value());
    }
    case Op::Len: {
      auto a = evalIn(c, e->kid(0));
      if (!a) return a;
      if (a.value().kind() != ValueKind::Array) return internalError("len of a non-array");
      return integralValue(e->type, BigInt(static_cast<uint64_t>(a.value().length())));
    }
    case Op::ArrayLit: {
      std::vector<Value> elems;
      elems.reserve(e->kids.size());
      for (ExprRef k : e->kids) {
        auto v = evalIn(c, k);
        if (!v) return v;
        elems.push_back(coerceIntegral(v.value(), e->type ? e->type->elem : nullptr));
      }
      return Value::array(std::move(elems));
    }
    case Op::NewArray: {
      auto n = evalIn(c, e->kid(0));
      if (!n) return n;
      if (!n.value().isIntegral()) return internalError("array size is not an integer");
      const BigInt len = n.value().toBigInt();
      if (len.sign() < 0)
        return ExecError{ir::ErrorKind::NegativeSize, SourceLoc{},
                         "negative array size " + len.toString(), false};
      if (len > BigInt(limits_.maxArrayLength))
        return ExecError::limitReached(ir::ErrorKind::NegativeSize,
                                       "array size " + len.toString() + " exceeds the limit of " +
                                           std::to_string(limits_.maxArrayLength) + " elements");
      TypeRef elem = e->type && e->type->kind == TypeKind::Array ? e->type->elem : e->type;
      return Value::array(std::vector<Value>(static_cast<size_t>(len.small()), defaultValue(elem)));
    }
    case Op::Store: {  // made by symbolic execution only; a functional update
      auto a = evalIn(c, e->kid(0));
      if (!a) return a;
      auto i = evalIn(c, e->kid(1));
      if (!i) return i;
      auto v = evalIn(c, e->kid(2));
      if (!v) return v;
      auto at = positionIn(a.value(), i.value(), "store into");
      if (!at) return std::move(at).error();
      Value out = a.value();
      TypeRef elem = e->type && e->type->kind == TypeKind::Array ? e->type->elem : nullptr;
      out.mutableAt(at.value()) = coerceIntegral(v.value(), elem);
      return out;
    }
    default:
      return internalError(std::string("array operator ") + opName(e->op));
  }
}

Result<Evaluator::ProcessRef> Evaluator::processRef(const Ctx& c, ExprRef e) const {
  const auto id = e->value.toInt64();
  if (!id || *id < 0) return internalError("bad location or variable id");
  ProcessRef r;
  r.id = static_cast<uint32_t>(*id);
  // The process is the CFA of the location (AtLoc) or the owner of the variable (ProcLocal), so
  // the payload's process numbering is not needed.
  if (e->op == Op::AtLoc) {
    if (r.id >= program_.locs.size()) return internalError("bad location");
    r.cfa = program_.locs[r.id].cfa;
  } else {
    if (r.id >= program_.vars.size()) return internalError("bad variable");
    r.cfa = program_.vars[r.id].owner;
  }
  BigInt instance(0);
  if (!e->kids.empty()) {
    auto i = evalIn(c, e->kid(0));
    if (!i) return std::move(i).error();
    if (!i.value().isIntegral()) return internalError("process instance is not an integer");
    instance = i.value().toBigInt();
  }
  if (r.cfa >= threadBase_.size() || threadBase_[r.cfa] == kNoThread)
    return internalError("not a process of this closed system");
  const uint32_t n = program_.cfas[r.cfa].instances;
  if (instance.sign() < 0 || instance >= BigInt(static_cast<int64_t>(n)))
    return ExecError{ir::ErrorKind::IndexOutOfBounds, SourceLoc{},
                     "process instance " + instance.toString() + " of " +
                         program_.cfas[r.cfa].name + " out of bounds for " + std::to_string(n) +
                         " instances",
                     false};
  r.thread = threadBase_[r.cfa] + static_cast<uint32_t>(instance.small());
  if (r.thread >= c.state.threads.size()) return internalError("state has too few threads");
  return r;
}

Result<Value> Evaluator::evalProcessOp(const Ctx& c, ExprRef e) const {
  auto r = processRef(c, e);
  if (!r) return std::move(r).error();
  const ProcessRef& p = r.value();
  const Thread& th = c.state.threads[p.thread];
  if (e->op == Op::ProcLocal) {
    const uint32_t slot = program_.vars[p.id].slot;
    if (slot >= th.processLocals.size()) return internalError("process local has no slot");
    return th.processLocals[slot];
  }
  // P@L looks at the innermost frame running P's code: while P is inside a call, it is at the
  // call site.
  for (auto f = th.frames.rbegin(); f != th.frames.rend(); ++f)
    if (f->cfa == p.cfa) return Value::boolean(f->pc == p.id);
  return Value::boolean(false);
}

}  // namespace tandem::exec
