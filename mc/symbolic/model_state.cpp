#include "mc/symbolic/model_state.h"

#include "mc/expr/float64.h"

namespace tandem::symbolic {

namespace {

BigInt intIn(const smt::Model& m, ExprRef e) { return m.evalInt(e).value_or(BigInt(0)); }

}  // namespace

exec::Value modelScalar(TypeRef type, const BigInt& x) {
  if (type->kind == TypeKind::Bool) return exec::Value::boolean(x.sign() != 0);
  if (type->kind == TypeKind::Enum)
    return exec::Value::enumMember(type, static_cast<uint32_t>(x.toInt64().value_or(0)));
  if (type->kind == TypeKind::F64)  // model values of f64 are bit patterns
    return exec::Value::f64(f64::fromBits(static_cast<uint64_t>(x.wrapTo(64))));
  return exec::integralValue(type, x);
}

exec::Value modelValue(const SymValue& v, TypeRef t, const smt::Model& m) {
  switch (v.kind) {
    case SymValue::Kind::Ref: {
      if (!v.addr) return exec::Value::null();
      const SymAddress& a = *v.addr;
      exec::Address out{a.base,  0,
                        a.frame, a.base == exec::AddressBase::Field ? a.object : exec::ObjectId{0},
                        a.slot,  {}};
      for (ExprRef i : a.path)
        out.path.push_back(static_cast<uint64_t>(intIn(m, i).toInt64().value_or(0)));
      return exec::Value::ref(std::move(out));
    }
    case SymValue::Kind::Object:
      return exec::Value::object(v.object);
    case SymValue::Kind::Array: {
      std::vector<exec::Value> xs;
      TypeRef elem = t ? t->elem : nullptr;
      if (v.elems) {
        for (const auto& x : *v.elems) xs.push_back(modelValue(x, elem, m));
        return exec::Value::array(std::move(xs));
      }
      // A symbolic array: its length and elements in the model (small lengths: fabricated states
      // are meant to be executed).
      const int64_t n = intIn(m, v.length).toInt64().value_or(0);
      if (n < 0 || n > (int64_t{1} << 16))
        throw NotImplemented("a fabricated array of length " + std::to_string(n));
      auto arr = m.evalArray(v.expr);
      for (int64_t i = 0; i < n; ++i)
        xs.push_back(modelScalar(elem, arr ? arr->at(BigInt(i)) : BigInt(0)));
      return exec::Value::array(std::move(xs));
    }
    case SymValue::Kind::Scalar:
      break;
  }
  return modelScalar(t ? t : v.expr->type, intIn(m, v.expr));
}

namespace {

std::vector<exec::Value> globalsIn(const ir::Program& p, const std::vector<SymValue>& globals,
                                   const smt::Model& m, std::vector<exec::Value> out) {
  for (ir::VarId id : p.globals) {
    const ir::Variable& v = p.vars[id];
    if (v.slot < globals.size() && v.slot < out.size())
      out[v.slot] = modelValue(globals[v.slot], v.type, m);
  }
  return out;
}

std::vector<exec::HeapObject> heapIn(const ir::Program& p, const std::vector<SymObject>& heap,
                                     const smt::Model& m) {
  std::vector<exec::HeapObject> out;
  for (const SymObject& o : heap) {
    exec::HeapObject obj{o.classIndex, {}};
    const ir::ClassInfo& cls = p.classes[o.classIndex];
    obj.fields.resize(o.fields.size());
    for (ir::VarId id : cls.fields) {
      const ir::Variable& v = p.vars[id];
      if (v.slot < o.fields.size()) obj.fields[v.slot] = modelValue(o.fields[v.slot], v.type, m);
    }
    out.push_back(std::move(obj));
  }
  return out;
}

}  // namespace

exec::State concretize(const ir::Program& p, const SymConfig& c, const smt::Model& m,
                       exec::State shape) {
  shape.globals = globalsIn(p, c.st.globals, m, std::move(shape.globals));
  shape.heap = heapIn(p, c.st.heap, m);
  if (p.isClosed()) {
    for (size_t t = 0; t < c.pcs.size() && t < shape.threads.size(); ++t) {
      exec::Thread& th = shape.threads[t];
      th.top().pc = c.pcs[t];
      if (t >= c.st.threads.size()) continue;
      for (ir::VarId id : p.cfas[th.cfa].processLocals) {
        const ir::Variable& v = p.vars[id];
        if (v.slot < th.processLocals.size() && v.slot < c.st.threads[t].locals.size())
          th.processLocals[v.slot] = modelValue(c.st.threads[t].locals[v.slot], v.type, m);
      }
    }
    return shape;
  }
  // Open system: the call stack of the one thread, bottom first.
  std::vector<exec::Frame>& frames = shape.threads[0].frames;
  frames.resize(1);
  if (!c.st.frames.empty()) shape.threads[0].cfa = c.st.frames[0].cfa;  // a method, in a class
  for (size_t d = 0; d < c.st.frames.size(); ++d) {
    const SymFrame& f = c.st.frames[d];
    if (d > 0) frames.emplace_back();
    exec::Frame& cf = frames.back();
    cf.cfa = f.cfa;
    cf.pc = f.pc;
    cf.self = f.self;
    cf.callEdge = d == 0 ? ir::kNone : f.callEdge;
    // old() reads the frame's snapshot: the shape's was taken of its default globals (found by
    // `prove --annotate` on Deposit: a state from the entry's model failed `balance >=
    // old(balance)` on a path that leaves balance alone).
    cf.old = nullptr;
    if (f.old)
      cf.old = std::make_shared<const exec::OldSnapshot>(exec::OldSnapshot{
          globalsIn(p, f.old->globals, m, shape.globals), heapIn(p, f.old->heap, m)});
    cf.locals.resize(f.locals.size());
    for (ir::VarId id : p.cfas[f.cfa].locals) {
      const ir::Variable& v = p.vars[id];
      if (v.slot < f.locals.size()) cf.locals[v.slot] = modelValue(f.locals[v.slot], v.type, m);
    }
  }
  return shape;
}

}  // namespace tandem::symbolic
