// `tandem cover` of one entry, with or without procedure summaries (Christ, Hoenicke, Schaef,
// Sect. 6). With summaries, the procedures the entry calls that can be summarised are covered
// first, bottom-up, each from its own entry; their tests become input/output pairs
// (cover/summary.h) that stand for their calls in their callers' verification conditions. Every
// test found so is a real execution. When the enumeration with summaries ends and leaves
// something open — a location not covered that the callee's own analysis did not prove
// infeasible for all arguments, an error not covered, or an unwound location no pair leads to —
// the pairs may just be the wrong ones for this calling context: the entry is covered again with
// its calls inlined, asking only about what is open (the paper's on-demand refinement). So
// "infeasible" is said only where inlining says it too.
#pragma once

#include <functional>
#include <memory>

#include "cover/algorithms.h"
#include "cover/summary.h"
#include "mc/symbolic/summarisable.h"

namespace tandem::cover {

struct CoverSetup {
  const ir::Program& p;
  const symbolic::SymEvaluator& sev;
  const exec::Evaluator& ev;
  std::array<bool, ir::kErrorKinds> tracked;
  uint32_t unwind = 0;
  bool guided = true;
  search::Budget& budget;
  std::function<std::unique_ptr<smt::Solver>()> newSolver;
  // Throws for a verification condition the analysis cannot answer truthfully.
  std::function<void(const ReachVc&)> admit;
};

struct CoverRun {
  CoverResult result;                 // of the entry; queries and paths of every enumeration
  std::vector<ir::CfaId> procedures;  // the procedures reached, the entry first
  // The entry's first unwinding and verification condition.
  uint64_t unwound = 0, copies = 0, arcs = 0;
  uint64_t cuts = 0;  // arcs every unwinding's bound removed
  uint64_t summarised = 0, pairs = 0, refinements = 0;
  double solverSeconds = 0;
};

CoverRun coverEntry(const CoverSetup& s, ir::CfaId entry, Algo algo, bool summaries);

}  // namespace tandem::cover
