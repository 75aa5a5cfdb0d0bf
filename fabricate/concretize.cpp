#include "fabricate/concretize.h"

namespace tandem::fabricate {

exec::Value modelValue(const symbolic::SymValue& v, TypeRef t, const smt::Model& m) {
  switch (v.kind) {
    case symbolic::SymValue::Kind::Ref:
      return v.addr ? exec::Value::ref(*v.addr) : exec::Value::null();
    case symbolic::SymValue::Kind::Array: {
      std::vector<exec::Value> xs;
      for (const auto& x : *v.elems) xs.push_back(modelValue(x, t ? t->elem : nullptr, m));
      return exec::Value::array(std::move(xs));
    }
    case symbolic::SymValue::Kind::Scalar:
      break;
  }
  TypeRef type = t ? t : v.expr->type;
  BigInt x = m.evalInt(v.expr).value_or(BigInt(0));
  if (type->kind == TypeKind::Bool) return exec::Value::boolean(x.sign() != 0);
  if (type->kind == TypeKind::Enum)
    return exec::Value::enumMember(type, static_cast<uint32_t>(x.toInt64().value_or(0)));
  return exec::integralValue(type, x);
}

exec::State concretize(const ir::Program& p, const abstraction::SymConfig& c, const smt::Model& m,
                       exec::State shape) {
  for (ir::VarId id : p.globals) {
    const ir::Variable& v = p.vars[id];
    shape.globals[v.slot] = modelValue(c.st.globals[v.slot], v.type, m);
  }
  if (p.isClosed()) {
    for (size_t t = 0; t < c.pcs.size() && t < shape.threads.size(); ++t)
      shape.threads[t].top().pc = c.pcs[t];
    return shape;
  }
  // Open system: the call stack of the one thread, bottom first.
  std::vector<exec::Frame>& frames = shape.threads[0].frames;
  frames.resize(1);
  for (size_t d = 0; d < c.st.frames.size(); ++d) {
    const symbolic::SymFrame& f = c.st.frames[d];
    if (d > 0) frames.emplace_back();
    exec::Frame& cf = frames.back();
    cf.cfa = f.cfa;
    cf.pc = f.pc;
    cf.callEdge = d == 0 ? ir::kNone : f.callEdge;
    cf.locals.resize(f.locals.size());
    for (ir::VarId id : p.cfas[f.cfa].locals) {
      const ir::Variable& v = p.vars[id];
      if (v.slot < f.locals.size()) cf.locals[v.slot] = modelValue(f.locals[v.slot], v.type, m);
    }
  }
  return shape;
}

}  // namespace tandem::fabricate
