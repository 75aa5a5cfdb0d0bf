#include "report/symbolic_report.h"

#include <ostream>

#include "report/trace_steps.h"

namespace tandem::report {

void symbolicError(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                   const symbolic::PathEnd& end, bool classAnalysis, std::ostream* diag) {
  symbolic::Replay rp = symbolic::replayPath(ev, entry, end);
  // The inputs drive the concrete run into an error before the symbolic path's end (a call in an
  // expression the symbolic path treated as an uninterpreted function failed: found by difftest).
  // The reference evaluator's error is real, so it is the counterexample.
  // An error the concrete run met only after it left the path (ranOn) has no trace here: the
  // verdict stays unknown.
  if (!rp.followed && rp.error && !rp.ranOn) rp.followed = true;
  if (!rp.followed) {
    rep.verdict = Verdict::Unknown;
    if (end.exceedsLimits) {
      rep.reason =
          "the error path needs an array longer than the reference evaluator's limit, so its "
          "counterexample cannot be replayed (" +
          rp.problem + ")";
    } else if (end.usesUninterpreted) {
      rep.reason =
          "the error path depends on calls treated as uninterpreted functions and its inputs do "
          "not reach it concretely (" +
          rp.problem + ")";
    } else {
      if (diag)
        *diag << "tandem: INTERNAL ERROR: the symbolic counterexample did not replay in the "
                 "reference evaluator ("
              << rp.problem << "); please report this bug\n";
      rep.reason = "internal error: counterexample replay failed: " + rp.problem;
    }
    return;
  }
  rep.verdict = Verdict::Error;
  rep.error = replayError(p, entry, rp, end);
  if (!rep.symbolic) rep.symbolic.emplace();
  rep.symbolic->inputs = inputsJson(end);
  if (classAnalysis) rep.symbolic->calls = methodCalls(p, entry, end);
}

void symbolicOutcome(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                     const symbolic::ExploreResult& res, bool classAnalysis, std::ostream* diag) {
  switch (res.outcome) {
    case symbolic::Outcome::Complete:
      rep.verdict = Verdict::Verified;
      break;
    case symbolic::Outcome::Incomplete:
      rep.verdict = Verdict::Unknown;
      rep.reason = res.reason;
      break;
    case symbolic::Outcome::ErrorFound:
      symbolicError(rep, p, ev, entry, res.ends.back(), classAnalysis, diag);
      break;
  }
  rep.stats.states = res.states;
  rep.stats.paths = res.paths;
  rep.stats.depth = res.maxDepth;
  rep.stats.solver_queries = res.solverQueries;
  solvingStats(rep.stats, res);
  if (!classAnalysis) return;
  rep.stats.calls = res.maxCalls;
  rep.stats.completed_calls = res.completedCalls;
  rep.stats.call_bound_cuts = res.callCuts;
}

void solvingStats(Stats& stats, const symbolic::ExploreResult& r) {
  const symbolic::SolvingStats& s = r.solving;
  stats.solver_unknown = r.unknownAnswers;
  stats.undecided = s.undecided;
  stats.mixed_checks = s.mixedChecks;
  stats.mixed_tries = s.tries;
  stats.heuristic_successes = s.heuristicSuccesses;
  stats.mixed_exhausted = s.exhausted;
  stats.random_brackets = s.brackets;
  stats.concrete_refutations = s.concreteRefutations;
  stats.concretizations = s.concretizations;
  stats.dart_runs = s.runs;
  stats.dart_restarts = s.restarts;
  stats.dart_mispredictions = s.mispredictions;
}

void solvingKeys(SymbolicKeys& k, const symbolic::ExploreOptions& eo) {
  k.solving = symbolic::solvingName(eo.solving);
  if (eo.solving == symbolic::Solving::Mixed) {
    k.heuristic = symbolic::heuristicListName(eo.mixed.heuristics);
    k.maxTries = eo.mixed.maxTries;
  } else if (eo.solving == symbolic::Solving::Dart) {
    k.maxTries = eo.mixed.maxTries;
  }
}

}  // namespace tandem::report
