// Symbolic execution of one entry procedure in the style of Symbolic PathFinder: a backtracking
// search over symbolic states, forking on every branch whose both sides are feasible, with the
// implicit checks as branch conditions. Every ended path (terminated, blocked or failing) gets
// concrete inputs from a minimised model, so a concrete replay can follow it (replay.h).
//
// How path conditions are decided is the `--solving` mode (path_solver.h, docs/symbolic.md):
// classic, mixed (ISSTA'11 mixed concrete-symbolic solving), exe (EXE-style concretization) or
// dart (concolic runs, dart_explorer.h).
//
// Soundness of verdicts: a path dropped because the solver answered unknown, because mixed
// solving could not decide it, or because concretization fixed inputs, or cut by a bound, makes
// the outcome Incomplete; an unknown answer is never taken as unsat.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/mixed_solver.h"
#include "mc/symbolic/path_solver.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

class Concretizer;  // concretizer.h

enum class Solving : uint8_t { Classic, Mixed, Exe, Dart };
const char* solvingName(Solving s);
std::optional<Solving> parseSolving(std::string_view name);

struct ExploreOptions {
  ir::CfaId entry = ir::kNone;
  std::string search = "dfs";  // dfs | bfs | random | coverage
  uint64_t seed = 0;
  std::optional<uint64_t> maxDepth;   // steps along one path
  std::optional<uint64_t> maxStates;  // symbolic states expanded
  std::optional<double> timeoutSeconds;
  std::array<bool, ir::kErrorKinds> tracked{true, true, true, true, true, true};
  bool stopAtError = true;  // check: the first error ends the search; testgen: go on
  Solving solving = Solving::Classic;
  // mixed: heuristic, tries and seed; dart: maxTries bounds the restarts from random inputs and
  // seed seeds them.
  MixedOptions mixed;
};

// One ended path with its concrete inputs.
struct PathEnd {
  std::vector<ir::EdgeId> path;   // from the entry state; an error path ends with the failing edge
  std::vector<exec::Value> args;  // the entry's parameters
  std::vector<exec::Value> script;  // input globals (declaration order), then havocs in order
  std::vector<std::pair<std::string, exec::Value>> inputs;  // named, for reports
  std::optional<exec::ExecError> error;                     // the tracked error the path ends in
  bool usesUninterpreted = false;    // the path condition applies calls as uninterpreted functions
  std::vector<ExprRef> pathCond;     // the path's condition (for DART's next inputs)
  std::vector<uint32_t> pathCondAt;  // per conjunct: the number of path edges before it
};

enum class Outcome : uint8_t { Complete, ErrorFound, Incomplete };

struct ExploreResult {
  Outcome outcome = Outcome::Complete;
  std::string reason;  // Incomplete: why
  std::vector<PathEnd> ends;
  uint64_t states = 0, paths = 0, solverQueries = 0, unknownAnswers = 0, depthCuts = 0;
  uint64_t maxDepth = 0;
  double seconds = 0;
  SolvingStats solving;
};

// Runs the search in the mode of `options.solving`. Throws NotImplemented (sym_state.h) for
// constructs it does not handle.
ExploreResult exploreSymbolic(const ir::Program& program, const exec::Evaluator& concrete,
                              smt::Solver& solver, const ExploreOptions& options);

// Where the explorer's input symbols come from. By default every parameter, input global and
// havoc gets a fresh symbol; DART keeps the same ones across its runs.
class SymbolPool {
 public:
  enum class Input : uint8_t { Param, Global, Havoc };
  virtual ~SymbolPool() = default;
  // The symbol of the `index`-th input of its kind (havocs: in the order the path makes them).
  virtual ExprRef symbol(Input kind, size_t index, const std::string& name, TypeRef type) = 0;
};

// What a solving mode plugs into the explorer (not owned).
struct Strategy {
  PathSolver* pathSolver = nullptr;    // decides path conditions (required)
  Concretizer* concretizer = nullptr;  // exe, dart: replaces complex terms during evaluation
  SymbolPool* symbols = nullptr;       // null: fresh symbols
};

// The search itself, with the parts of one mode (exploreSymbolic and the DART driver use it).
ExploreResult runExplorer(const ir::Program& program, const exec::Evaluator& concrete,
                          smt::Solver& solver, const ExploreOptions& options, Strategy strategy);

}  // namespace tandem::symbolic
