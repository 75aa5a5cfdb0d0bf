#include "engine/symbolic_run.h"

#include "engine/report_types.h"
#include "mc/smt/smt_error.h"

namespace tandem::engine {

std::unique_ptr<SymbolicRun> exploreSymbolic(const ir::Program& p, const Request& r,
                                             ir::CfaId entry, symbolic::Solving solving,
                                             const symbolic::MixedOptions& mixed,
                                             std::optional<uint64_t> maxCalls, bool stopAtError,
                                             const symbolic::Guidance* guidance, bool trustVerified,
                                             symbolic::EndFilter* endFilter) {
  if (p.isClosed())
    throw inputError(r.file, "symbolic execution of closed systems is not implemented yet");
  auto run = std::make_unique<SymbolicRun>(r);
  symbolic::ExploreOptions& eo = run->options;
  eo.entry = entry;
  eo.maxCalls = maxCalls;
  eo.solving = solving;
  eo.mixed = mixed;
  eo.mixed.seed = r.seed;
  eo.tracked = r.tracked;
  eo.search = searchOrder(r);
  eo.seed = r.seed;
  eo.budget = &run->rb.budget;
  eo.progress = &run->rb.progress;
  eo.stopAtError = stopAtError;
  eo.guidance = guidance;
  eo.trustVerified = trustVerified;
  eo.endFilter = endFilter;
  loadNatives(r, p, run->natives);
  run->solver = makeSolver(r, p, run->rb.budget);
  run->ev = std::make_unique<exec::Evaluator>(p, run->natives);
  try {
    run->result = symbolic::exploreSymbolic(p, *run->ev, *run->solver, eo);
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(r.file, e.what());
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, std::string("solver failure: ") + e.what());
  }
  return run;
}

void addSolvingStats(nlohmann::json& stats, const symbolic::ExploreResult& r) {
  const symbolic::SolvingStats& s = r.solving;
  stats["solver_unknown"] = r.unknownAnswers;
  stats["undecided"] = s.undecided;
  stats["mixed_checks"] = s.mixedChecks;
  stats["mixed_tries"] = s.tries;
  stats["heuristic_successes"] = s.heuristicSuccesses;
  stats["mixed_exhausted"] = s.exhausted;
  stats["random_brackets"] = s.brackets;
  stats["concrete_refutations"] = s.concreteRefutations;
  stats["concretizations"] = s.concretizations;
  stats["dart_runs"] = s.runs;
  stats["dart_restarts"] = s.restarts;
  stats["dart_mispredictions"] = s.mispredictions;
}

void addSolvingKeys(nlohmann::json& extra, const symbolic::ExploreOptions& eo) {
  extra["solving"] = symbolic::solvingName(eo.solving);
  if (eo.solving == symbolic::Solving::Mixed) {
    extra["heuristic"] = symbolic::heuristicListName(eo.mixed.heuristics);
    extra["max_tries"] = eo.mixed.maxTries;
  } else if (eo.solving == symbolic::Solving::Dart) {
    extra["max_tries"] = eo.mixed.maxTries;
  }
}

}  // namespace tandem::engine
