// One run of the symbolic executor (mc/symbolic) with everything it needs — natives with
// plugins, the evaluator, the solver chain, the budget — shared by `check --entry/--class` and
// `testgen`. The report code replays its paths on `ev` afterwards.
#pragma once

#include <memory>

#include "engine/request.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::engine {

struct SymbolicRun {
  SymbolicRun(const ir::Program& p, const Request& r) : ctx(p, r) {}
  RunContext ctx;
  symbolic::ExploreOptions options;
  std::unique_ptr<smt::Solver> solver;
  symbolic::ExploreResult result;
};

// `entry` is the entry procedure or the class initialiser; `solving` the mode.
std::unique_ptr<SymbolicRun> exploreSymbolic(const ir::Program& p, const Request& r,
                                             ir::CfaId entry, symbolic::Solving solving,
                                             const symbolic::MixedOptions& mixed,
                                             std::optional<uint64_t> maxCalls, bool stopAtError,
                                             const symbolic::Guidance* guidance = nullptr,
                                             bool trustVerified = false,
                                             symbolic::EndFilter* endFilter = nullptr);

}  // namespace tandem::engine
