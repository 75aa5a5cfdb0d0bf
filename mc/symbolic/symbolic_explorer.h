// Symbolic execution of one entry procedure in the style of Symbolic PathFinder: a backtracking
// search over symbolic states, forking on every branch whose both sides are feasible, with the
// implicit checks as branch conditions. Every ended path (terminated, blocked or failing) gets
// concrete inputs from a minimised model, so a concrete replay can follow it (replay.h).
//
// Soundness of verdicts: a path dropped because the solver answered unknown, or cut by a bound,
// makes the outcome Incomplete; an unknown answer is never taken as unsat.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/smt/solver.h"

namespace tandem::symbolic {

struct ExploreOptions {
  ir::CfaId entry = ir::kNone;
  std::string search = "dfs";  // dfs | bfs | random | coverage
  uint64_t seed = 0;
  std::optional<uint64_t> maxDepth;   // steps along one path
  std::optional<uint64_t> maxStates;  // symbolic states expanded
  std::optional<double> timeoutSeconds;
  std::array<bool, ir::kErrorKinds> tracked{true, true, true, true, true, true};
  bool stopAtError = true;  // check: the first error ends the search; testgen: go on
};

// One ended path with its concrete inputs.
struct PathEnd {
  std::vector<ir::EdgeId> path;   // from the entry state; an error path ends with the failing edge
  std::vector<exec::Value> args;  // the entry's parameters
  std::vector<exec::Value> script;  // input globals (declaration order), then havocs in order
  std::vector<std::pair<std::string, exec::Value>> inputs;  // named, for reports
  std::optional<exec::ExecError> error;                     // the tracked error the path ends in
  bool usesUninterpreted = false;  // the path condition applies calls as uninterpreted functions
};

enum class Outcome : uint8_t { Complete, ErrorFound, Incomplete };

struct ExploreResult {
  Outcome outcome = Outcome::Complete;
  std::string reason;  // Incomplete: why
  std::vector<PathEnd> ends;
  uint64_t states = 0, paths = 0, solverQueries = 0, unknownAnswers = 0, depthCuts = 0;
  uint64_t maxDepth = 0;
  double seconds = 0;
};

// Runs the search. Throws NotImplemented (sym_state.h) for constructs it does not handle.
ExploreResult exploreSymbolic(const ir::Program& program, const exec::Evaluator& concrete,
                              smt::Solver& solver, const ExploreOptions& options);

}  // namespace tandem::symbolic
