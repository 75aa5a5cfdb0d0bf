// The compiled engine's way out of int64: a step whose guard or effect left the 64-bit range is
// run by the reference evaluator instead (as GenericSystem::expand runs it, for this one edge and
// the rest of its atomic block), and its successors are stored as slots again when they fit.
#include "mc/search/compiled/compiled_system.h"

namespace tandem::search {

namespace {

// Eligible programs have no havoc: nothing is ever chosen.
class NoChoices final : public exec::Chooser {
 public:
  exec::Value choose(TypeRef type, SourceLoc) override { return exec::defaultValue(type); }
  bool chooseBool() override { return false; }
};

}  // namespace

bool CompiledSystem::refStep(const int64_t* s, uint32_t t, ir::EdgeId e, unsigned depth,
                             SuccessorSink& sink) {
  exec::State x = layout_.toExec(s);
  if (!ev_.enabled(x, t, e)) return false;
  refExpand(x, t, e, depth, sink);
  return true;
}

void CompiledSystem::refExpand(const exec::State& s, uint32_t t, ir::EdgeId e, unsigned depth,
                               SuccessorSink& sink) {
  exec::State n = s;
  NoChoices none;
  auto r = ev_.execute(n, t, e, none);
  move_.edges.push_back(e);
  switch (r.status()) {
    case exec::StepStatus::Blocked:
    case exec::StepStatus::Terminated:
      break;
    case exec::StepStatus::Error:
      reportStepError(sink, r.error(), move_, opts_.tracked);
      break;
    case exec::StepStatus::Ok: {
      bool inAtomic = p_.locs[n.threads[t].top().pc].atomic;
      std::vector<ir::EdgeId> next;
      if (inAtomic && depth < opts_.atomicDepth) next = ev_.enabledEdges(n, t);
      for (ir::EdgeId e2 : next) refExpand(n, t, e2, depth + 1, sink);
      if (!next.empty()) break;
      if (inAtomic && depth >= opts_.atomicDepth)
        sink.incomplete("an atomic block ran for more than " + std::to_string(opts_.atomicDepth) +
                        " steps");
      refEmit(n, sink);
      break;
    }
  }
  move_.edges.pop_back();
}

void CompiledSystem::refEmit(const exec::State& s, SuccessorSink& sink) {
  if (tracked(ir::ErrorKind::Invariant)) {
    auto st = ev_.checkInvariants(s);
    if (!st.ok()) return reportError(sink, st.error(), move_);
  }
  std::string why;
  if (!layout_.fromExec(s, scratch_.data(), why)) {
    sink.incomplete("a successor cannot be stored by the compiled engine: " + why);
    return;
  }
  emitBytes(scratch_.data(), sink);
}

bool CompiledSystem::refSync(const int64_t* s, uint32_t t, ir::EdgeId send, uint32_t u,
                             ir::EdgeId recv, SuccessorSink& sink) {
  exec::State n = layout_.toExec(s);
  NoChoices none;
  auto r = ev_.executeSync(n, t, send, u, recv, none);
  switch (r.status()) {
    case exec::StepStatus::Blocked:
    case exec::StepStatus::Terminated:
      return false;
    case exec::StepStatus::Error:
      reportStepError(sink, r.error(), move_, opts_.tracked);
      return true;
    case exec::StepStatus::Ok:
      refEmit(n, sink);
      return true;
  }
  return false;
}

std::optional<exec::ExecError> CompiledSystem::refInvariants(const int64_t* s) {
  auto st = ev_.checkInvariants(layout_.toExec(s));
  if (st.ok()) return std::nullopt;
  return st.error();
}

}  // namespace tandem::search
