// Dynamic symbolic execution (Anand, Godefroid, Tillmann, TACAS'08, Algorithm 1), compositional
// or not: run the entry on concrete inputs, recording execution trees (testgen/execution.h);
// choose a dangling node as the target; find inputs that reach it (FindTestInput, Algorithm 2:
// a lazy query over explored paths first, then a relevant one that may pass dangling nodes of
// callees; testgen/path_query.h); run them; repeat until no dangling node is left, the target
// label is covered, or a bound is hit.
//
// Compositional: summarised procedures (symbolic/summarisable.h with fixed-length array
// parameters) have trees of their own, and queries combine their paths through summaries. Not
// compositional (the baseline): every call is inlined, and the entry's tree holds whole-program
// paths, so both modes run the same loop on the same programs with the same bounds.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/search/driver/searcher.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "testgen/execution.h"
#include "testgen/path_query.h"

namespace tandem::testgen {

struct DseOptions {
  // --target: the locations of the label to reach (empty: none, cover every branch).
  std::vector<ir::LocId> target;
  uint64_t maxExecutions = 20000;
  // The order dangling nodes are chosen in (after the distance to the target): dfs deepest
  // first, bfs shallowest first, coverage Pex's fair choice (the branch chosen least often, then
  // the shallowest), random (seeded), interleaved (coverage and random in turn).
  search::Strategy order = search::Strategy::Coverage;
  uint64_t seed = 0;
  // testgen's --max-tests, --exit-on-error and one test per distinct error (not owned; null:
  // every execution is a test).
  symbolic::EndFilter* endFilter = nullptr;
};

struct DseTest {
  ExecutionResult run;
  bool mispredicted = false;  // it did not reach the node its query promised
  bool kept = true;           // a test (not a repeated error the end filter dropped)
};

struct UnreachableBranch {
  ir::CfaId cfa = ir::kNone;
  ir::EdgeId edge = ir::kNone;
};

struct DseResult {
  std::vector<DseTest> tests;  // one per execution, in order
  bool complete = false;       // every dangling node was explored or proved unreachable
  bool targetReached = false;
  bool targetUnreachable = false;  // --target: every way to it was proved unreachable
  std::string reason;              // why the loop stopped early (a bound, unknown answers)
  std::vector<UnreachableBranch> unreachable;
  uint64_t lazyQueries = 0, relevantQueries = 0, lazySat = 0, relevantSat = 0;
  uint64_t unknownAnswers = 0, mispredictions = 0, concretizations = 0;
  uint64_t treeNodes = 0, danglingLeft = 0;
};

DseResult runDse(Forest& forest, smt::Solver& solver, const DseOptions& options);

}  // namespace tandem::testgen
