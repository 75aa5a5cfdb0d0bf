#include "fabricate/triage.h"

#include <memory>

#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"

namespace tandem::fabricate {

namespace {

// Inputs the explicit search cannot enumerate: the entry's parameters, input globals, and the
// arguments of method calls in the class analysis.
bool hasInputs(const ir::Program& p, const ProveOptions& po) {
  if (po.classIndex != ir::kNone) return true;
  if (po.entry != ir::kNone && !p.cfas[po.entry].params.empty()) return true;
  for (ir::VarId v : p.globals)
    if (!p.vars[v].init || p.vars[v].init->op == Op::Star) return true;
  return false;
}

// A budget for triage's caps inside the run's budget (when there is one).
std::unique_ptr<search::Budget> within(const search::Limits& caps, search::Budget* outer) {
  return outer ? std::make_unique<search::Budget>(caps, *outer)
               : std::make_unique<search::Budget>(caps);
}

search::Limits searchCaps(const TriageOptions& to) {
  search::Limits l;
  l.maxStates = to.maxStates;
  l.maxDepth = to.maxDepth;
  return l;
}

std::optional<TriageResult> explicitSearch(const ir::Program& p, exec::Evaluator& ev,
                                           const ProveOptions& po, const ProveResult& r,
                                           const std::array<bool, ir::kErrorKinds>& tracked,
                                           search::Budget& budget) {
  search::GenericOptions go = executionOptions(p, po);
  go.tracked = tracked;
  go.seeds = r.initialModels;
  go.initial = po.initial;
  search::GenericSystem sys(p, ev, go);
  search::ExploreOptions eo;
  eo.search = search::Strategy::Bfs;  // shortest traces first
  eo.budget = &budget;
  eo.deadlock = p.isClosed() && tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)];
  search::Explorer ex(sys, eo);
  search::ExploreResult res = ex.run();
  if (res.outcome == search::Outcome::Deadlock) {
    search::Trace tr = search::buildTrace(sys, ex.store(), res, sys, ev);
    if (!tr.replayed) return std::nullopt;
    return TriageResult{
        exec::ExecError{ir::ErrorKind::Deadlock, SourceLoc{}, "no process can move", false},
        std::move(tr),
        std::nullopt,
        {}};
  }
  if (res.outcome != search::Outcome::ErrorFound) return std::nullopt;
  search::Trace tr = search::buildTrace(sys, ex.store(), res, sys, ev);
  if (!tr.replayed) return std::nullopt;
  return TriageResult{exec::ExecError{res.error->kind, res.error->loc, res.error->message, false},
                      std::move(tr),
                      std::nullopt,
                      {}};
}

std::optional<TriageResult> symbolicSearch(const ir::Program& p, exec::Evaluator& ev,
                                           smt::Solver& solver, const ProveOptions& po,
                                           const TriageOptions& to,
                                           const std::array<bool, ir::kErrorKinds>& tracked,
                                           search::Budget& budget) {
  symbolic::ExploreOptions so;
  so.entry = po.entry;
  so.tracked = tracked;
  // Breadth-first: with no depth bound a depth-first search could follow one loop forever.
  so.search = search::Strategy::Bfs;
  so.budget = &budget;
  if (po.classIndex != ir::kNone) so.maxCalls = to.maxCalls;  // fewest calls first
  symbolic::ExploreResult res = symbolic::exploreSymbolic(p, ev, solver, so);
  for (symbolic::PathEnd& end : res.ends) {
    if (!end.error) continue;
    symbolic::Replay rp = symbolic::replayPath(ev, po.entry, end);
    if (!rp.followed || !rp.error) continue;
    exec::ExecError e = *end.error;
    return TriageResult{std::move(e), std::nullopt, std::move(end), std::move(rp)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<TriageResult> triage(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                   const ProveOptions& po, const TriageOptions& to,
                                   const ProveResult& r) {
  std::array<bool, ir::kErrorKinds> tracked{};
  for (const PotentialError& pe : r.potentialErrors)
    tracked[static_cast<size_t>(pe.found.error.kind)] = true;
  search::Limits whole;
  whole.timeoutSeconds = to.timeoutSeconds;
  auto budget = within(whole, po.budget);
  // The class analysis goes straight to symbolic search: its rounds give the fewest method calls.
  if (po.classIndex == ir::kNone) {
    auto caps = within(searchCaps(to), budget.get());
    if (auto found = explicitSearch(p, ev, po, r, tracked, *caps)) return found;
  }
  if (!hasInputs(p, po) || po.entry == ir::kNone || budget->pollNow()) return std::nullopt;
  auto caps = within(searchCaps(to), budget.get());
  return symbolicSearch(p, ev, solver, po, to, tracked, *caps);
}

TriageSummary triagePotentialErrors(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                    const ProveOptions& po, const TriageOptions& to,
                                    ProveResult& res) {
  using Outcome = ProveResult::Outcome;
  TriageSummary s;
  if (res.outcome == Outcome::PotentialError) {
    s.reproduced = triage(p, ev, solver, po, to, res);
    if (s.reproduced) {
      res.outcome = Outcome::Error;
      s.triage = "reproduced from an initial state";
      s.others = "not reproduced: triage ended at another error it reproduced";
    } else if (po.budget && po.budget->stopped()) {
      const std::string& why = po.budget->stopped()->reason;
      res.outcome = Outcome::Unknown;
      res.reason = why + " (while triaging the potential errors)";
      s.triage = s.others = "stopped: " + why;
    } else {
      s.triage = s.others = "not reproduced from an initial state within the bounds";
    }
  } else if (res.outcome == Outcome::Error) {
    s.others = "not triaged: execution reached an error from an initial state";
  } else {
    s.others = "not triaged: " + res.reason;
  }
  return s;
}

}  // namespace tandem::fabricate
