#include "refine/refine_loop.h"

#include <algorithm>

#include "mc/ir/ir_printer.h"
#include "refine/path_refiner.h"

namespace tandem::refine {

namespace {

void join(std::vector<ExprRef>& to, const std::vector<ExprRef>& more) {
  for (ExprRef e : more)
    if (std::find(to.begin(), to.end(), e) == to.end()) to.push_back(e);
}

std::string errorText(const fabricate::PotentialError& pe) {
  const exec::ExecError& e = pe.found.error;
  std::string s = std::string(ir::errorKindName(e.kind));
  if (e.loc.line) s += " at line " + std::to_string(e.loc.line);
  return s;
}

}  // namespace

RefineRun proveRefining(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                        fabricate::ProveOptions po, const fabricate::TriageOptions& to,
                        uint32_t maxRounds) {
  RefineRun run;
  const double start = po.budget ? po.budget->elapsed() : 0;
  for (;; ++run.rounds) {
    run.result = fabricate::prove(p, ev, solver, po);
    if (run.result.outcome != fabricate::ProveResult::Outcome::PotentialError) break;
    if (run.rounds > maxRounds) {
      run.stopped = "--max-refinements " + std::to_string(maxRounds) + " reached";
      break;
    }
    bool refined = false, feasible = false;
    std::string why;
    for (size_t i = 0; i < run.result.potentialErrors.size(); ++i) {
      if (po.budget && po.budget->pollNow()) break;
      PathRefinement pr = refinePath(p, ev, solver, po, run.result, i);
      const std::string err = errorText(run.result.potentialErrors[i]);
      switch (pr.kind) {
        case PathRefinement::Kind::NewPredicates:
          join(po.extraPredicates.global, pr.added.global);
          for (const auto& [cfa, es] : pr.added.ofCfa) join(po.extraPredicates.ofCfa[cfa], es);
          po.extraPredicates.keepWhereDead.insert(pr.added.keepWhereDead.begin(),
                                                  pr.added.keepWhereDead.end());
          run.steps.push_back({run.rounds, err, pr.length, std::move(pr.texts)});
          refined = true;
          break;
        case PathRefinement::Kind::Feasible:
          feasible = true;
          why += (why.empty() ? "" : "; ") + err + ": its abstract path is feasible";
          break;
        case PathRefinement::Kind::Stuck:
        case PathRefinement::Kind::Unsupported:
        case PathRefinement::Kind::Unknown:
          why += (why.empty() ? "" : "; ") + err + ": " + pr.why;
          break;
      }
    }
    // A feasible path is a real error: triage finds its trace. Without new predicates the next
    // round would be this one again.
    if (feasible || !refined) {
      run.stopped = why.empty() ? "stopped by the run's budget" : why;
      break;
    }
    if (po.budget && po.budget->pollNow()) break;
  }
  if (run.result.outcome != fabricate::ProveResult::Outcome::PotentialError) run.stopped.clear();
  // The report's time is the whole run's: every round and every path decided.
  if (po.budget) run.result.stats.seconds = po.budget->elapsed() - start;
  run.triage = fabricate::triagePotentialErrors(p, ev, solver, po, to, run.result);
  run.options = std::move(po);
  return run;
}

}  // namespace tandem::refine
