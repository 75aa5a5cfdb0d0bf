// Calls inside expressions: natives through the registry, and pure or @concrete procedures by
// running their CFA to completion on a private copy of the state. Such a call is one atomic
// evaluation, so its code must be deterministic; anything else is reported as a limit.
#include <string>

#include "mc/exec/eval_context.h"

namespace tandem::exec {

namespace {

// The chooser of a call inside an expression: there is nobody to ask, so a havoc there stops
// the call (the value handed out is never used).
class NoChoice final : public Chooser {
 public:
  Value choose(TypeRef type, SourceLoc) override {
    used = true;
    return defaultValue(type);
  }
  bool chooseBool() override {
    used = true;
    return false;
  }
  bool used = false;
};

std::string argList(const std::vector<Value>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].toString();
  return s;
}

}  // namespace

Result<Value> Evaluator::evalCall(const Ctx& c, ExprRef e) const {
  if (e->payload >= program_.callees.size()) return internalError("call of an unknown callee");
  const ir::Callee& callee = program_.callees[e->payload];
  std::vector<Value> args;
  args.reserve(e->kids.size());
  for (ExprRef k : e->kids) {
    auto v = evalIn(c, k);
    if (!v) return v;
    args.push_back(std::move(v).value());
  }
  if (callee.native) return callNative(callee.index, std::move(args));
  return runProcedure(c, callee.index, std::move(args));
}

Result<Value> Evaluator::callNative(uint32_t index, std::vector<Value> args) const {
  if (index >= program_.natives.size()) return internalError("bad native index");
  const ir::Native& n = program_.natives[index];
  const NativeFunction* f = bound_[index];
  if (!f)
    return ExecError::limitReached(ir::ErrorKind::Assert,
                                   "native '" + n.name + "' has no implementation");
  // Integer implementations take `int`: pass i32/i64 arguments as their exact values.
  for (size_t i = 0; i < args.size() && i < f->signature.params.size(); ++i)
    if (f->signature.params[i] == TypeKind::Int && args[i].isIntegral())
      args[i] = Value::integer(args[i].toBigInt());
  std::optional<Value> r = f->impl(args);
  // Undefined (isqrt(-1)) or too large (ipow): no language error kind fits, and reporting a
  // counterexample the model's author cannot fix would be worse than an incomplete run.
  if (!r)
    return ExecError::limitReached(
        ir::ErrorKind::Assert, "native call " + n.name + "(" + argList(args) + ") is undefined");
  return coerceIntegral(*r, n.returnType);
}

Result<Value> Evaluator::runProcedure(const Ctx& c, ir::CfaId cfaId,
                                      std::vector<Value> args) const {
  if (cfaId >= program_.cfas.size()) return internalError("bad procedure index");
  const ir::Cfa& cfa = program_.cfas[cfaId];
  if (c.depth >= limits_.callDepth)
    return ExecError::limitReached(
        ir::ErrorKind::Assert, "calls inside expressions nested deeper than " +
                                   std::to_string(limits_.callDepth) + " (at " + cfa.name + ")");
  // A private copy: the call reads the caller's state (and refs into it stay valid) but cannot
  // change it. Inside old(), it sees the snapshot's globals and heap.
  State sub = c.state;
  if (&c.globals != &c.state.globals) sub.globals = c.globals;
  if (&c.heap != &c.state.heap) sub.heap = c.heap;
  ThreadId t = c.tid;
  if (t == kNoThread) {  // e.g. an invariant calling a pure function
    sub.threads.push_back(Thread{cfaId, 0, {}, {}});
    t = static_cast<ThreadId>(sub.threads.size() - 1);
  }
  ObjectId self = kNoObject;
  if (cfa.kind == ir::CfaKind::Method && c.hasFrame()) self = c.top().self;
  const unsigned depth = c.depth + 1;
  NoChoice chooser;
  const size_t base = sub.threads[t].frames.size();
  Status st = pushFrame(sub, t, cfaId, std::move(args), self, ir::kNone, chooser, depth);
  if (!st) return std::move(st).error();

  for (uint64_t steps = 0;; ++steps) {
    if (chooser.used)
      return ExecError::limitReached(
          ir::ErrorKind::Assert,
          "nondeterministic value in " + cfa.name + ", called inside an expression");
    const Thread& th = sub.threads[t];
    const Frame& top = th.top();
    if (th.frames.size() == base + 1 && top.pc == cfa.exit) {
      if (cfa.resultVar == ir::kNone) return Value::null();
      return top.locals[program_.vars[cfa.resultVar].slot];
    }
    if (steps >= limits_.callSteps)
      return ExecError::limitReached(
          ir::ErrorKind::Assert,
          cfa.name + " did not return within " + std::to_string(limits_.callSteps) + " steps");
    ir::EdgeId chosen = ir::kNone;
    for (ir::EdgeId id : program_.locs[top.pc].out) {
      // A guard that fails (an index out of bounds in a branch condition) is the call's error:
      // enabledAt counts it enabled on both branches, which is no choice (found by difftest).
      const ir::Edge& e = program_.edges[id];
      if (e.kind == ir::EdgeKind::Command && top.pc == e.from) {
        auto g = guardHolds(Ctx(sub, t, depth), e.guard);
        if (!g) return std::move(g).error();
        if (!g.value()) continue;
      } else if (!enabledAt(sub, t, id, depth)) {
        continue;
      }
      if (chosen != ir::kNone)
        return ExecError::limitReached(
            ir::ErrorKind::Assert,
            "nondeterministic choice in " + cfa.name + ", called inside an expression");
      chosen = id;
    }
    if (chosen == ir::kNone)
      return ExecError::limitReached(ir::ErrorKind::Assert,
                                     cfa.name + " blocked, called inside an expression");
    StepResult r = executeAt(sub, t, chosen, chooser, depth);
    if (r.status() == StepStatus::Error) return r.error();
    if (r.status() != StepStatus::Ok) return internalError("call inside an expression stalled");
  }
}

}  // namespace tandem::exec
