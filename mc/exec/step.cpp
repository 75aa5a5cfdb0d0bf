// The step function: one IR edge of one thread. A command evaluates its guard, then every
// right-hand side and every target address in the pre-state, and only then stores (parallel
// assignment). Calls push a frame and leave the caller at the call site until the Return edge
// pops it and moves the caller to the call's target.
#include <optional>
#include <string>

#include "mc/exec/eval_context.h"
#include "mc/exec/system.h"

namespace tandem::exec {

bool Evaluator::enabled(const State& s, ThreadId t, ir::EdgeId e) const {
  return enabledAt(s, t, e, 0);
}

bool Evaluator::enabledAt(const State& s, ThreadId t, ir::EdgeId id, unsigned depth) const {
  const ir::Edge& e = program_.edges[id];
  const Thread& th = s.threads[t];
  if (th.frames.empty() || th.top().pc != e.from) return false;
  switch (e.kind) {
    case ir::EdgeKind::Command: {
      auto g = guardHolds(Ctx(s, t, depth), e.guard);
      return !g || g.value();  // an erroneous guard is enabled so that executing it reports
    }
    case ir::EdgeKind::Return:
      return th.frames.size() > 1;
    case ir::EdgeKind::Sync:
      return false;  // only with a partner (System::forEachRendezvous, executeSync)
    case ir::EdgeKind::Assert:
    case ir::EdgeKind::Assumed:
    case ir::EdgeKind::Call:
      return true;
  }
  return false;
}

std::vector<ir::EdgeId> Evaluator::enabledEdges(const State& s, ThreadId t) const {
  std::vector<ir::EdgeId> out;
  for (ir::EdgeId id : program_.locs[s.threads[t].top().pc].out)
    if (enabled(s, t, id)) out.push_back(id);
  return out;
}

bool Evaluator::terminated(const State& s, ThreadId t) const {
  const Thread& th = s.threads[t];
  return th.frames.size() == 1 && terminatedAt(program_, th.top().pc);
}

StepResult Evaluator::execute(State& s, ThreadId t, ir::EdgeId e, Chooser& chooser) const {
  return executeAt(s, t, e, chooser, 0);
}

StepResult Evaluator::executeAt(State& s, ThreadId t, ir::EdgeId id, Chooser& chooser,
                                unsigned depth) const {
  const ir::Edge& edge = program_.edges[id];
  if (t >= s.threads.size() || s.threads[t].frames.empty() || s.threads[t].top().pc != edge.from)
    return StepResult::failedAt(
        internalError("edge " + std::to_string(id) + " does not leave the thread's pc"), edge.loc);
  switch (edge.kind) {
    case ir::EdgeKind::Command:
      return executeCommand(s, t, edge, chooser, depth);
    case ir::EdgeKind::Assert: {
      auto b = evalBool(Ctx(s, t, depth), edge.cond);
      if (!b) return StepResult::failedAt(std::move(b).error(), edge.loc);
      if (!b.value()) {
        std::string what = edge.text.empty() ? "assertion" : "'" + edge.text + "'";
        return StepResult::failed(ExecError{edge.errorKind, edge.loc, what + " failed", false});
      }
      s.threads[t].top().pc = edge.to;
      return StepResult::executed();
    }
    case ir::EdgeKind::Assumed:  // records whether the assumed fact held (its hidden boolean)
      return executeCommand(s, t, edge, chooser, depth);
    case ir::EdgeKind::Call:
      return executeCall(s, t, edge, id, chooser, depth);
    case ir::EdgeKind::Return:
      if (s.threads[t].frames.size() == 1) return StepResult::terminated();
      return executeReturn(s, t, depth);
    case ir::EdgeKind::Sync:
      return StepResult::blocked();  // never a step alone
  }
  return StepResult::failedAt(internalError("edge kind"), edge.loc);
}

StepResult Evaluator::executeCommand(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                                     unsigned depth) const {
  auto g = guardHolds(Ctx(s, t, depth), edge.guard);
  if (!g) return StepResult::failedAt(std::move(g).error(), edge.loc);
  if (!g.value()) return StepResult::blocked();
  StepResult r = runAssignments(s, t, edge, chooser, depth);
  if (!r.ok()) return r;
  s.threads[t].top().pc = edge.to;
  return StepResult::executed();
}

StepResult Evaluator::runAssignments(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                                     unsigned depth, const std::vector<Value>* message) const {
  if (edge.sequential) return runSequential(s, t, edge, chooser, depth, message);
  struct Pending {
    Address target;
    std::optional<Value> value;  // none: havoc
    TypeRef type;
  };
  std::vector<Pending> pending;
  {
    Ctx c(s, t, depth);
    c.message = message;
    pending.reserve(edge.assigns.size());
    for (const ir::Assignment& a : edge.assigns) {
      auto target = lvalueIn(c, a.lhs);
      if (!target) return StepResult::failedAt(std::move(target).error(), edge.loc);
      std::optional<Value> value;
      if (a.rhs && a.rhs->op != Op::Star) {
        auto v = evalIn(c, a.rhs);
        if (!v) return StepResult::failedAt(std::move(v).error(), edge.loc);
        value = coerceIntegral(v.value(), a.lhs->type);
      }
      pending.push_back(Pending{std::move(target).value(), std::move(value), a.lhs->type});
    }
  }
  // Havoc choices come last, so a step that fails consumes none.
  for (Pending& p : pending)
    if (!p.value) p.value = chooser.choose(p.type, edge.loc);
  for (Pending& p : pending) {
    Status st = store(s, p.target, std::move(*p.value));
    if (!st) return StepResult::failedAt(std::move(st).error(), edge.loc);
  }
  return StepResult::executed();
}

// DVE effects: each assignment sees the ones before it (left to right).
StepResult Evaluator::runSequential(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                                    unsigned depth, const std::vector<Value>* message) const {
  for (const ir::Assignment& a : edge.assigns) {
    Address target;
    Value value;
    {
      Ctx c(s, t, depth);
      c.message = message;
      auto tg = lvalueIn(c, a.lhs);
      if (!tg) return StepResult::failedAt(std::move(tg).error(), edge.loc);
      target = std::move(tg).value();
      if (a.rhs && a.rhs->op != Op::Star) {
        auto v = evalIn(c, a.rhs);
        if (!v) return StepResult::failedAt(std::move(v).error(), edge.loc);
        value = coerceIntegral(v.value(), a.lhs->type);
      } else {
        value = chooser.choose(a.lhs->type, edge.loc);
      }
    }
    Status st = store(s, target, std::move(value));
    if (!st) return StepResult::failedAt(std::move(st).error(), edge.loc);
  }
  return StepResult::executed();
}

StepResult Evaluator::executeCall(State& s, ThreadId t, const ir::Edge& edge, ir::EdgeId id,
                                  Chooser& chooser, unsigned depth) const {
  if (edge.callee >= program_.cfas.size())
    return StepResult::failedAt(internalError("bad callee"), edge.loc);
  const ir::Cfa& callee = program_.cfas[edge.callee];
  std::vector<Value> args;
  args.reserve(edge.args.size());
  {
    const Ctx c(s, t, depth);
    for (ExprRef a : edge.args) {
      auto v = evalIn(c, a);
      if (!v) return StepResult::failedAt(std::move(v).error(), edge.loc);
      args.push_back(std::move(v).value());
    }
  }
  if (callee.kind == ir::CfaKind::ClassInit) {  // `x := new C(args)`
    Status st = pushInitFrame(s, t, callee.classIndex, std::move(args), id, chooser, depth);
    if (!st) return StepResult::failedAt(std::move(st).error(), edge.loc);
    return StepResult::executed();
  }
  // A method called from a method of its class runs on the same object.
  ObjectId self = kNoObject;
  const Frame& caller = s.threads[t].top();
  if (callee.kind == ir::CfaKind::Method && caller.self != kNoObject &&
      program_.cfas[caller.cfa].classIndex == callee.classIndex)
    self = caller.self;
  Status st = pushFrame(s, t, edge.callee, std::move(args), self, id, chooser, depth);
  if (!st) return StepResult::failedAt(std::move(st).error(), edge.loc);
  return StepResult::executed();
}

StepResult Evaluator::executeReturn(State& s, ThreadId t, unsigned depth) const {
  Thread& th = s.threads[t];
  const Frame& f = th.top();
  const ir::Cfa& cfa = program_.cfas[f.cfa];
  std::optional<Value> result;
  if (cfa.kind == ir::CfaKind::ClassInit)
    result = Value::object(f.self);  // `new C(...)` yields the object
  else if (cfa.resultVar != ir::kNone)
    result = f.locals[program_.vars[cfa.resultVar].slot];
  const ir::EdgeId callId = f.callEdge;
  if (callId == ir::kNone)
    return StepResult::failed(internalError("return from a frame without a caller"));
  th.frames.pop_back();
  const ir::Edge& call = program_.edges[callId];
  if (call.result) {
    if (!result)
      return StepResult::failedAt(internalError("the callee returns no value"), call.loc);
    auto target = lvalueIn(Ctx(s, t, depth), call.result);
    if (!target) return StepResult::failedAt(std::move(target).error(), call.loc);
    Status st = store(s, target.value(), coerceIntegral(*result, call.result->type));
    if (!st) return StepResult::failedAt(std::move(st).error(), call.loc);
  }
  s.threads[t].top().pc = call.to;
  return StepResult::executed();
}

}  // namespace tandem::exec
