#include "fabricate/triage.h"

#include <algorithm>

#include "mc/search/explorer.h"
#include "mc/search/generic_system.h"

namespace tandem::fabricate {

namespace {

bool hasInputs(const ir::Program& p, ir::CfaId entry) {
  if (entry != ir::kNone && !p.cfas[entry].params.empty()) return true;
  for (ir::VarId v : p.globals)
    if (!p.vars[v].init || p.vars[v].init->op == Op::Star) return true;
  return false;
}

// Triage's own bounds, within what is left of the run's budget.
search::Limits triageLimits(const TriageOptions& to, const search::Budget* run, bool depth) {
  search::Limits l;
  l.maxStates = to.maxStates;
  if (depth) l.maxDepth = to.maxDepth;
  l.timeoutSeconds = to.timeoutSeconds;
  if (run) {
    if (run->limits().timeoutSeconds)
      l.timeoutSeconds = std::max(
          0.001, std::min(to.timeoutSeconds, *run->limits().timeoutSeconds - run->elapsed()));
    l.memoryLimitMb = run->limits().memoryLimitMb;
  }
  return l;
}

}  // namespace

std::optional<TriageResult> triage(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                   const ProveOptions& po, const TriageOptions& to,
                                   const exec::ExecError& target) {
  std::array<bool, ir::kErrorKinds> tracked{};
  tracked[static_cast<size_t>(target.kind)] = true;
  const std::atomic<bool>* interrupt = po.budget ? po.budget->interruptFlag() : nullptr;
  if (!hasInputs(p, po.entry) || po.initial) {
    search::GenericOptions go;
    go.tracked = tracked;
    go.entry = po.entry;
    go.entryHasNoInputs = po.entry != ir::kNone;
    go.initial = po.initial;
    search::GenericSystem sys(p, ev, go);
    search::Budget budget(triageLimits(to, po.budget, false), interrupt);
    search::ExploreOptions eo;
    eo.search = search::Strategy::Bfs;
    eo.budget = &budget;
    search::Explorer ex(sys, eo);
    search::ExploreResult r = ex.run();
    if (r.outcome != search::Outcome::ErrorFound || r.error->kind != target.kind ||
        r.error->loc.line != target.loc.line)
      return std::nullopt;
    search::Trace tr = search::buildTrace(sys, ex.store(), r, sys, ev);
    if (!tr.replayed) return std::nullopt;
    return TriageResult{exec::ExecError{r.error->kind, r.error->loc, r.error->message, false},
                        std::move(tr),
                        std::nullopt,
                        {}};
  }
  if (po.entry == ir::kNone) return std::nullopt;  // closed systems with symbolic inputs
  search::Budget budget(triageLimits(to, po.budget, true), interrupt);
  symbolic::ExploreOptions so;
  so.entry = po.entry;
  so.tracked = tracked;
  so.search = search::Strategy::Dfs;
  so.budget = &budget;
  if (po.classIndex != ir::kNone) so.maxCalls = to.maxCalls;  // fewest calls first
  symbolic::ExploreResult r = symbolic::exploreSymbolic(p, ev, solver, so);
  for (symbolic::PathEnd& end : r.ends) {
    if (!end.error || end.error->kind != target.kind || end.error->loc.line != target.loc.line)
      continue;
    symbolic::Replay rp = symbolic::replayPath(ev, po.entry, end);
    if (!rp.followed || !rp.error) continue;
    exec::ExecError e = *end.error;
    return TriageResult{std::move(e), std::nullopt, std::move(end), std::move(rp)};
  }
  return std::nullopt;
}

}  // namespace tandem::fabricate
