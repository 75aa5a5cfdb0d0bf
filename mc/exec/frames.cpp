// Call frames: making one, running its entry declarations, and the frames that start a class
// initialiser (which allocates the object) or a method.
#include <string>

#include "mc/exec/eval_context.h"

namespace tandem::exec {

Result<Frame> Evaluator::makeFrame(const State& s, ir::CfaId cfaId, std::vector<Value> args,
                                   ObjectId self, ir::EdgeId callEdge) const {
  const ir::Cfa& cfa = program_.cfas[cfaId];
  if (args.size() != cfa.params.size())
    return internalError(cfa.name + " called with " + std::to_string(args.size()) +
                         " arguments instead of " + std::to_string(cfa.params.size()));
  Frame f;
  f.cfa = cfaId;
  f.pc = cfa.entry;
  f.self = self;
  f.callEdge = callEdge;
  for (ir::VarId v : cfa.locals) {
    const ir::Variable& var = program_.vars[v];
    if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
    f.locals[var.slot] = defaultValue(var.type);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::Variable& var = program_.vars[cfa.params[i]];
    if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
    f.locals[var.slot] = coerceIntegral(args[i], var.type);
  }
  if (cfa.usesOld) f.old = std::make_shared<const OldSnapshot>(OldSnapshot{s.globals, s.heap});
  return f;
}

Status Evaluator::runEntryInits(State& s, ThreadId t, Chooser& chooser, unsigned depth) const {
  const ir::Cfa& cfa = program_.cfas[s.threads[t].top().cfa];
  for (const ir::Assignment& a : cfa.entryInits) {
    std::optional<Address> target;
    std::optional<Value> value;
    // A failure is reported at its declaration (entry declarations take no step).
    auto atDecl = [&](ExecError e) {
      if (!e.loc.valid() && a.lhs->op == Op::Var) e.loc = program_.vars[a.lhs->payload].loc;
      return e;
    };
    {
      const Ctx c(s, t, depth);
      auto addr = lvalueIn(c, a.lhs);
      if (!addr) return atDecl(std::move(addr).error());
      target = std::move(addr).value();
      if (a.rhs && a.rhs->op != Op::Star) {
        auto v = evalIn(c, a.rhs);
        if (!v) return atDecl(std::move(v).error());
        value = coerceIntegral(v.value(), a.lhs->type);
      }
    }
    if (!value) value = chooser.choose(a.lhs->type, program_.locs[cfa.entry].loc);
    Status st = store(s, *target, std::move(*value));
    if (!st) return st;
  }
  return Status::success();
}

Status Evaluator::pushFrame(State& s, ThreadId t, ir::CfaId cfa, std::vector<Value> args,
                            ObjectId self, ir::EdgeId callEdge, Chooser& chooser,
                            unsigned depth) const {
  auto f = makeFrame(s, cfa, std::move(args), self, callEdge);
  if (!f) return std::move(f).error();
  s.threads[t].frames.push_back(std::move(f).value());
  return runEntryInits(s, t, chooser, depth);
}

Status Evaluator::pushInitFrame(State& s, ThreadId t, uint32_t classIndex, std::vector<Value> args,
                                ir::EdgeId callEdge, Chooser& chooser, unsigned depth) const {
  const ir::ClassInfo& cls = program_.classes[classIndex];
  if (cls.init == ir::kNone) return internalError("class " + cls.name + " has no init CFA");
  // Objects are numbered in allocation order, so a deterministic run numbers them the same way.
  HeapObject obj{classIndex, {}};
  for (ir::VarId id : cls.fields) {
    const ir::Variable& v = program_.vars[id];
    if (v.slot >= obj.fields.size()) obj.fields.resize(v.slot + 1);
    obj.fields[v.slot] = defaultValue(v.type);
  }
  const ObjectId self = static_cast<ObjectId>(s.heap.size());
  s.heap.push_back(std::move(obj));
  auto frame = makeFrame(s, cls.init, std::move(args), self, callEdge);
  if (!frame) return std::move(frame).error();
  s.threads[t].frames.push_back(std::move(frame).value());
  // Field initialisers run before the body, with `this` (and earlier fields) in scope.
  for (ir::VarId id : cls.fields) {
    const ir::Variable& v = program_.vars[id];
    if (!v.init) continue;
    auto r = evalIn(Ctx(s, t, depth), v.init);
    if (!r) {
      ExecError e = std::move(r).error();
      if (!e.loc.valid()) e.loc = v.loc;
      return e;
    }
    s.heap[self].fields[v.slot] = coerceIntegral(r.value(), v.type);
  }
  if (program_.cfas[cls.init].usesOld)  // old() in init sees the initialised fields
    s.threads[t].top().old = std::make_shared<const OldSnapshot>(OldSnapshot{s.globals, s.heap});
  return runEntryInits(s, t, chooser, depth);
}

Status Evaluator::startMethod(State& s, ThreadId t, ir::CfaId method, std::vector<Value> args,
                              ObjectId self, Chooser& chooser) const {
  if (t >= s.threads.size()) return internalError("startMethod: bad thread");
  if (self >= s.heap.size()) return internalError("startMethod: no such object");
  s.threads[t].frames.clear();
  s.threads[t].cfa = method;
  return pushFrame(s, t, method, std::move(args), self, ir::kNone, chooser, 0);
}

}  // namespace tandem::exec
