// `tandem prove --refine`: abstraction fabrication, and while it ends with potential errors,
// refinement of its predicates from the abstract paths to them (path_refiner.h), round after
// round, until `proved`, an error whose path is feasible (triage then finds its trace), or the
// budget. Each round runs fabrication again from the start with the predicates found so far: the
// abstraction changed, so the abstract states of the last round are not reused (ISSTA'06 Thm
// 3.3 holds within each round; the rounds are bounded by --max-refinements and the budget).
#pragma once

#include <string>
#include <vector>

#include "fabricate/triage.h"

namespace tandem::refine {

inline constexpr uint32_t kDefaultMaxRefinements = 50;

// What one round removed: the potential error whose abstract path was spurious, the length of
// that path, and the predicates (as "SCOPE: PREDICATE") its weakest preconditions gave.
struct RefinementStep {
  uint32_t round = 0;
  std::string error;
  size_t length = 0;
  std::vector<std::string> predicates;
};

struct RefineRun {
  fabricate::ProveResult result;  // of the last round
  fabricate::TriageSummary triage;
  fabricate::ProveOptions options;  // of the last round: the predicates found added
  std::vector<RefinementStep> steps;
  uint32_t rounds = 1;
  std::string stopped;  // why refinement ended with potential errors (empty otherwise)
};

// `po` with its predicates is the first round; `maxRounds` bounds the refinements.
RefineRun proveRefining(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                        fabricate::ProveOptions po, const fabricate::TriageOptions& to,
                        uint32_t maxRounds);

}  // namespace tandem::refine
