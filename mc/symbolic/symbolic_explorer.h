// Symbolic execution in the style of Symbolic PathFinder: a backtracking search over symbolic
// states, forking on every branch whose both sides are feasible, with the implicit checks as
// branch conditions. Every ended path (terminated, blocked or failing) gets concrete inputs from a
// minimised model, so a concrete replay can follow it (replay.h).
//
// Two kinds of runs:
// - an entry procedure, run on symbolic arguments and symbolic input globals;
// - the class analysis (the entry is a class's initialiser): `init` on symbolic arguments, then
//   at every method boundary (a state where the bottom frame has returned) each method of the
//   class with fresh symbolic arguments, for at most `maxCalls` calls. The search goes by rounds:
//   every state with k calls is expanded (in the searcher's order) before any state with k + 1,
//   so the first error found has the fewest calls.
//
// How path conditions are decided is the `--solving` mode (path_solver.h, docs/symbolic.md):
// classic, mixed (ISSTA'11 mixed concrete-symbolic solving), exe (EXE-style concretization) or
// dart (concolic runs, dart_explorer.h).
//
// Soundness of verdicts: a path dropped because the solver answered unknown, because mixed
// solving could not decide it, or because concretization fixed inputs, or cut by a bound
// (including --max-calls), makes the outcome Incomplete; an unknown answer is never taken as
// unsat.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/search/driver/budget.h"
#include "mc/search/driver/progress.h"
#include "mc/search/driver/searcher.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/guidance.h"
#include "mc/symbolic/mixed_solver.h"
#include "mc/symbolic/path_solver.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

class Concretizer;  // concretizer.h

enum class Solving : uint8_t { Classic, Mixed, Exe, Dart };
const char* solvingName(Solving s);
std::optional<Solving> parseSolving(std::string_view name);

struct PathEnd;

// testgen: which ended paths become tests and when there are enough (KLEE's one test per distinct
// error, --max-tests, --exit-on-error). Asked once per ended path, in the order they end.
class EndFilter {
 public:
  virtual ~EndFilter() = default;
  virtual bool keep(const PathEnd& end) = 0;
  // Non-empty: why the search stops now (the report's reason).
  virtual std::string enough() const = 0;
};

struct ExploreOptions {
  // An entry procedure, or the ClassInit CFA of the class under analysis.
  ir::CfaId entry = ir::kNone;
  search::Strategy search = search::Strategy::Dfs;
  uint64_t seed = 0;
  // The run's budget (not owned); null: one of its own from `limits`. --max-states counts the
  // symbolic states expanded, --max-depth the steps along one path.
  search::Budget* budget = nullptr;
  search::Limits limits;
  search::Progress* progress = nullptr;  // null: no progress line
  std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds();
  bool stopAtError = true;  // check: the first error ends the search; testgen: go on
  // Class analysis: method calls after init along one path (nullopt: unbounded).
  std::optional<uint64_t> maxCalls;
  Solving solving = Solving::Classic;
  // mixed: heuristic, tries and seed; dart: maxTries bounds the restarts from random inputs and
  // seed seeds them.
  MixedOptions mixed;
  // testgen --guide (ICSE'16): the entry's `assume May` / `tryfirst Must` (not owned; null: none),
  // and whether assertions `verified true` are trusted (not checked) as the paper's PV.
  const Guidance* guidance = nullptr;
  bool trustVerified = false;
  EndFilter* endFilter = nullptr;  // not owned; null: every ended path is kept
};

// A method call of the class analysis with concrete arguments.
struct CallInputs {
  ir::CfaId method = ir::kNone;
  std::vector<exec::Value> args;
  size_t pathStart = 0;  // index in PathEnd::path of the method's first edge
};

// One ended path with its concrete inputs.
struct PathEnd {
  std::vector<ir::EdgeId> path;   // from the entry state; an error path ends with the failing edge
  std::vector<exec::Value> args;  // the entry's (or the class initialiser's) parameters
  std::vector<exec::Value> script;  // input globals (declaration order), then havocs in order
  std::vector<std::pair<std::string, exec::Value>> inputs;  // named, for reports
  std::vector<CallInputs> calls;         // class analysis: the method calls after init, in order
  std::optional<exec::ExecError> error;  // the tracked error the path ends in
  // The error is raised on entry of the last frame started (the entry procedure, the class
  // initialiser or the last method call), by its entry declarations or field initialisers: no
  // edge of `path` raises it.
  bool errorAtEntry = false;
  bool usesUninterpreted = false;  // the path condition applies calls as uninterpreted functions
  // No model keeps the path within the reference evaluator's limits (it needs an array longer
  // than EvalLimits::maxArrayLength): its replay stops at the limit.
  bool exceedsLimits = false;
  // No edge could be taken (a failed `assume`): the condition that failed is not in pathCond, so
  // DART cannot negate it (dart_explorer.cpp).
  bool blocked = false;
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
  uint64_t callCuts = 0;  // paths cut by --max-calls
  // Class analysis: the most method calls on an explored path, and the number n such that every
  // sequence of at most n calls was explored to its end (both 0 otherwise).
  uint64_t maxCalls = 0, completedCalls = 0;
  double seconds = 0;
  SolvingStats solving;
  GuidanceStats guidance;
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
