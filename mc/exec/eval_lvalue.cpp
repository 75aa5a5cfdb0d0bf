// Addresses of lvalues, and reading and writing through them. Arrays inside variables are
// updated copy-on-write, so a state copied before a store keeps its old arrays.
#include <string>
#include <type_traits>

#include "mc/exec/arith.h"
#include "mc/exec/eval_context.h"

namespace tandem::exec {

namespace {

ExecError outOfBounds(uint64_t index, size_t length) {
  return ExecError{ir::ErrorKind::IndexOutOfBounds, SourceLoc{},
                   indexMessage(std::to_string(index), std::to_string(length)), false};
}

ExecError dangling(const std::string& what) {
  return ExecError{ir::ErrorKind::NullDeref, SourceLoc{}, "dangling reference: " + what, false};
}

// The variable an address starts from. `S` is State or const State; the globals and heap are
// passed apart because old() reads them from a snapshot.
template <typename S, typename G, typename H>
auto baseOf(S& state, G& globals, H& heap, const Address& a)
    -> Result<std::conditional_t<std::is_const_v<S>, const Value*, Value*>> {
  switch (a.base) {
    case AddressBase::Global:
      if (a.slot >= globals.size()) return internalError("global slot out of range");
      return &globals[a.slot];
    case AddressBase::ProcessLocal:
      if (a.thread >= state.threads.size() ||
          a.slot >= state.threads[a.thread].processLocals.size())
        return internalError("process-local address out of range");
      return &state.threads[a.thread].processLocals[a.slot];
    case AddressBase::Local: {
      if (a.thread >= state.threads.size()) return internalError("thread out of range");
      auto& frames = state.threads[a.thread].frames;
      // A ref that outlived its frame (a callee's local address kept by the caller).
      if (a.frame >= frames.size()) return dangling("the procedure of this local has returned");
      if (a.slot >= frames[a.frame].locals.size()) return internalError("local slot out of range");
      return &frames[a.frame].locals[a.slot];
    }
    case AddressBase::Field:
      if (a.object >= heap.size()) return dangling("no object " + std::to_string(a.object));
      if (a.slot >= heap[a.object].fields.size()) return internalError("field out of range");
      return &heap[a.object].fields[a.slot];
  }
  return internalError("address base");
}

}  // namespace

Result<Address> Evaluator::lvalueIn(const Ctx& c, ExprRef e) const {
  switch (e->op) {
    case Op::Var: {
      if (e->payload >= program_.vars.size()) return internalError("unknown variable");
      const ir::Variable& v = program_.vars[e->payload];
      switch (v.scope) {
        case ir::VarScope::Global:
          return Address::global(v.slot);
        case ir::VarScope::ProcessLocal:
          if (c.tid == kNoThread) return internalError("'" + v.name + "' outside its process");
          return Address::processLocal(c.tid, v.slot);
        case ir::VarScope::Local:
          if (!c.hasFrame() || c.top().cfa != v.owner)
            return internalError("local '" + v.name + "' outside its procedure");
          return Address::local(
              c.tid, static_cast<uint32_t>(c.state.threads[c.tid].frames.size() - 1), v.slot);
        case ir::VarScope::Field:
          if (!c.hasFrame() || c.top().self == kNoObject)
            return internalError("field '" + v.name + "' without `this`");
          return Address::field(c.top().self, v.slot);
      }
      return internalError("variable scope");
    }
    case Op::Select: {
      auto base = lvalueIn(c, e->kid(0));
      if (!base) return base;
      auto i = evalIn(c, e->kid(1));
      if (!i) return std::move(i).error();
      auto arr = loadIn(c, base.value());
      if (!arr) return std::move(arr).error();
      if (arr.value().kind() != ValueKind::Array || !i.value().isIntegral())
        return internalError("select on a non-array or with a non-integer index");
      const BigInt idx = i.value().toBigInt();
      const size_t n = arr.value().length();
      if (idx.sign() < 0 || idx >= BigInt(static_cast<uint64_t>(n)))
        return ExecError{ir::ErrorKind::IndexOutOfBounds, SourceLoc{},
                         indexMessage(idx.toString(), std::to_string(n)), false};
      Address a = std::move(base).value();
      a.path.push_back(static_cast<uint64_t>(idx.small()));
      return a;
    }
    case Op::Field: {
      auto o = evalIn(c, e->kid(0));
      if (!o) return std::move(o).error();
      if (o.value().isNull())
        return ExecError{ir::ErrorKind::NullDeref, SourceLoc{}, "null dereference: field of null",
                         false};
      if (o.value().kind() != ValueKind::Object) return internalError("field of a non-object");
      return Address::field(o.value().asObject(), e->payload);
    }
    case Op::Deref: {
      auto p = evalIn(c, e->kid(0));
      if (!p) return std::move(p).error();
      if (p.value().isNull())
        return ExecError{ir::ErrorKind::NullDeref, SourceLoc{}, "null dereference", false};
      if (p.value().kind() != ValueKind::Ref) return internalError("dereference of a non-ref");
      return p.value().asRef();
    }
    case Op::ProcLocal: {
      auto p = processRef(c, e);
      if (!p) return std::move(p).error();
      return Address::processLocal(p.value().thread, program_.vars[p.value().id].slot);
    }
    default:
      return internalError(std::string("not an lvalue: ") + opName(e->op));
  }
}

Result<Value> Evaluator::loadIn(const Ctx& c, const Address& a) const {
  auto base = baseOf(c.state, c.globals, c.heap, a);
  if (!base) return std::move(base).error();
  const Value* v = base.value();
  for (uint64_t i : a.path) {
    if (v->kind() != ValueKind::Array) return internalError("index into a non-array");
    // The array may have shrunk since the address was taken (a dynamic array reassigned).
    if (i >= v->length()) return outOfBounds(i, v->length());
    v = &v->at(static_cast<size_t>(i));
  }
  return *v;
}

Status Evaluator::store(State& s, const Address& a, Value v) const {
  auto base = baseOf(s, s.globals, s.heap, a);
  if (!base) return std::move(base).error();
  Value* cur = base.value();
  for (uint64_t i : a.path) {
    if (cur->kind() != ValueKind::Array) return internalError("index into a non-array");
    if (i >= cur->length()) return outOfBounds(i, cur->length());
    cur = &cur->mutableAt(static_cast<size_t>(i));
  }
  *cur = std::move(v);
  return Status::success();
}

}  // namespace tandem::exec
