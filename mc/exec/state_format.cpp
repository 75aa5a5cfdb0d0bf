#include "mc/exec/state_format.h"

namespace tandem::exec {

namespace {

// The variable with `slot` among `vars`, or null.
const ir::Variable* bySlot(const ir::Program& p, const std::vector<ir::VarId>& vars,
                           uint32_t slot) {
  for (ir::VarId v : vars)
    if (p.vars[v].slot == slot) return &p.vars[v];
  return nullptr;
}

std::string threadName(const ir::Program& p, const Thread& t) {
  const ir::Cfa& cfa = p.cfas[t.cfa];
  if (cfa.kind == ir::CfaKind::Process && cfa.instances > 1)
    return cfa.name + "[" + std::to_string(t.instance) + "]";
  return cfa.name;
}

std::string objectName(ObjectId id) { return "obj" + std::to_string(id); }

std::string nameOr(const ir::Variable* v, const std::string& raw) { return v ? v->name : raw; }

}  // namespace

std::string addressName(const ir::Program& p, const State& s, const Address& a) {
  Address raw = a;
  raw.path.clear();
  const std::string fallback = raw.rawName();
  switch (a.base) {
    case AddressBase::Global:
      return nameOr(bySlot(p, p.globals, a.slot), fallback);
    case AddressBase::ProcessLocal: {
      if (a.thread >= s.threads.size()) return fallback;
      const Thread& t = s.threads[a.thread];
      return threadName(p, t) + "." +
             nameOr(bySlot(p, p.cfas[t.cfa].processLocals, a.slot), fallback);
    }
    case AddressBase::Local: {
      if (a.thread >= s.threads.size() || a.frame >= s.threads[a.thread].frames.size())
        return fallback;
      const Frame& f = s.threads[a.thread].frames[a.frame];
      return nameOr(bySlot(p, p.cfas[f.cfa].locals, a.slot), fallback);
    }
    case AddressBase::Field: {
      if (a.object >= s.heap.size()) return fallback;
      const uint32_t cls = s.heap[a.object].classIndex;
      const ir::Variable* v =
          cls < p.classes.size() ? bySlot(p, p.classes[cls].fields, a.slot) : nullptr;
      return objectName(a.object) + "." + nameOr(v, "f" + std::to_string(a.slot));
    }
  }
  return fallback;
}

ValueNames valueNames(const ir::Program& p, const State& s) {
  ValueNames n;
  n.address = [&p, &s](const Address& a) { return addressName(p, s, a); };
  n.object = [](ObjectId id) { return objectName(id); };
  return n;
}

std::string formatState(const ir::Program& p, const State& s) {
  const ValueNames names = valueNames(p, s);
  std::string out;
  for (size_t i = 0; i < s.globals.size(); ++i)
    out += addressName(p, s, Address::global(static_cast<uint32_t>(i))) + " = " +
           s.globals[i].toString(&names) + "\n";
  for (size_t t = 0; t < s.threads.size(); ++t) {
    const Thread& th = s.threads[t];
    out += "thread " + std::to_string(t) + " (" + threadName(p, th) + ")";
    for (size_t i = 0; i < th.processLocals.size(); ++i)
      out += " " + nameOr(bySlot(p, p.cfas[th.cfa].processLocals, static_cast<uint32_t>(i)), "?") +
             "=" + th.processLocals[i].toString(&names);
    out += "\n";
    for (const Frame& f : th.frames) {
      out += "  " + p.cfas[f.cfa].name + " at " + p.locName(f.pc);
      if (f.self != kNoObject) out += " this=" + objectName(f.self);
      for (size_t i = 0; i < f.locals.size(); ++i)
        out += " " + nameOr(bySlot(p, p.cfas[f.cfa].locals, static_cast<uint32_t>(i)), "?") + "=" +
               f.locals[i].toString(&names);
      out += "\n";
    }
  }
  for (size_t o = 0; o < s.heap.size(); ++o) {
    const HeapObject& h = s.heap[o];
    out += objectName(static_cast<ObjectId>(o)) + ":";
    if (h.classIndex < p.classes.size()) out += " " + p.classes[h.classIndex].name;
    for (size_t i = 0; i < h.fields.size(); ++i) {
      const ir::Variable* v =
          h.classIndex < p.classes.size()
              ? bySlot(p, p.classes[h.classIndex].fields, static_cast<uint32_t>(i))
              : nullptr;
      out += " " + nameOr(v, "f" + std::to_string(i)) + "=" + h.fields[i].toString(&names);
    }
    out += "\n";
  }
  return out;
}

}  // namespace tandem::exec
