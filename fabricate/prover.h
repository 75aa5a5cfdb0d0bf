// `tandem prove`: abstraction fabrication (Yorsh, Ball, Sagiv, "Testing, Abstraction, Theorem
// Proving: Better Together!", ISSTA'06). Execute the program concretely and abstract the states
// it reaches at cutpoints; check with the SMT solver that the abstract states are closed under
// the strongest postcondition of the fragments between cutpoints; where they are not, the model
// is a new concrete (fabricated) state, and execution continues from it. At the fixpoint the
// abstract states are an invariant; the safety check then either proves the program or exhibits
// an error reached from a real initial state (an error) or only from a fabricated state (a
// potential error). A solver `unknown` never becomes `proved`.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abstraction/abstraction.h"
#include "mc/ir/cutpoints.h"
#include "mc/search/driver/budget.h"
#include "mc/search/driver/progress.h"
#include "mc/search/driver/searcher.h"
#include "mc/search/generic_system.h"
#include "mc/search/trace.h"
#include "mc/smt/solver.h"

namespace tandem::fabricate {

inline constexpr uint64_t kDefaultExecuteBound = 1000, kDefaultStall = 1000;

struct ProveOptions {
  ir::CfaId entry = ir::kNone;  // open systems: the entry procedure (class analysis: C's init)
  // Class analysis (Sect. 5.1): init, then any method on any state found at a method exit.
  // Execution draws integer arguments from `argPool`; the invariance checks take all values.
  uint32_t classIndex = ir::kNone;
  std::vector<int64_t> argPool;
  ir::CutpointMode cutpoints = ir::CutpointMode::Loops;
  // Concrete states per Execute (nullopt: no bound).
  std::optional<uint64_t> executeBound = kDefaultExecuteBound;
  // Sect. 5.3, hybrid: an Execute also ends once this many concrete states in a row found no new
  // abstract state, and the fabrication check takes over (nullopt: not hybrid).
  std::optional<uint64_t> stall;
  // Fabricate: the paper's method. The two baselines compute the same fixpoint without execution:
  // Models enumerates models of each invariance query (Reps, Sagiv, Yorsh's symbolic best
  // transformer), Eager asks the solver about every candidate abstract successor (the most
  // precise abstract post computed by theorem-prover calls, as in Graf and Saidi).
  enum class Engine { Fabricate, Models, Eager };
  Engine engine = Engine::Fabricate;
  search::Strategy search = search::Strategy::Bfs;  // the order of concrete execution
  uint64_t seed = 0;
  std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds();
  abstraction::ScopedPredicates extraPredicates;  // --predicates, --auto-predicates
  // Closed systems with unbounded inputs: their initial states (symbolic/initial_models.h), for
  // Execute and triage; null when explicit enumeration suffices or there are too many.
  std::shared_ptr<const std::vector<exec::State>> initial;
  // The run's budget (not owned); null: one of its own from `limits`. --max-states counts the
  // concrete states executed over the whole run; --max-depth bounds the depth of the abstract
  // state graph (abstract states that far from an initial one are not expanded, and the
  // verdict is then at best unknown).
  search::Budget* budget = nullptr;
  search::Limits limits;
  search::Progress* progress = nullptr;
  bool keepMemory = false;  // engine::Request::keepMemory: the prover's states are not freed
  // The run gives up (outcome Unknown, ProveResult::gaveUp) once it has more abstract states:
  // the default predicates' round before refinement (engine/prove.cpp); none: no cap.
  std::optional<uint64_t> maxAbstractStates;
};

// Class analysis: the integer arguments execution tries (ISSTA'06, Sect. 5.1: "a small concrete
// pool"): the constants of the class's `test` declarations (of its initialiser `init`) and -1, 0,
// 1. The invariance checks do not depend on it: they quantify over every argument value.
std::vector<int64_t> argumentPool(const ir::Program& p, ir::CfaId init);

// --engine: fabricate, models, eager.
const char* engineName(ProveOptions::Engine e);
std::optional<ProveOptions::Engine> parseEngine(std::string_view name);

// A concrete execution: from `initial` (fabricated or a real initial state) through `steps`; the
// last step raises `error`.
struct ProveTrace {
  exec::State initial;
  bool fabricated = false;
  std::vector<search::TraceStep> steps;
};

struct FoundProblem {
  exec::ExecError error;
  ProveTrace trace;
  bool fromFabricated = false;
};

// An abstract state as text: its locations and its formula.
struct AbstractText {
  std::string location, formula;
};

// An error execution reached only from fabricated states: the first such execution, and the
// abstract states the error was reached from.
struct PotentialError {
  FoundProblem found;
  std::vector<AbstractText> from;
  std::vector<uint32_t> fromNodes;  // the same abstract states, as indices of ProveResult::nodes
};

struct AbstractNode {
  abstraction::AbstractState state;
  bool fabricated = false;  // first reached by execution from a fabricated state
  bool error = false;       // a tracked error happens from a state of this abstract state
  uint32_t depth = 0;       // edges from an initial abstract state when first reached
};

struct AbstractEdge {
  uint32_t from, to;
  bool fabricated;  // the target was fabricated from the source's invariance check
  friend bool operator<(const AbstractEdge& a, const AbstractEdge& b) {
    return std::tie(a.from, a.to, a.fabricated) < std::tie(b.from, b.to, b.fabricated);
  }
};

struct ProveStats {
  uint64_t abstractStates = 0, fabricatedStates = 0, solverQueries = 0, executions = 0;
  uint64_t concreteStates = 0, transitions = 0, unknownAnswers = 0, invarianceChecks = 0;
  uint64_t stalledExecutions = 0;  // hybrid: Executes ended because coverage stalled
  double seconds = 0;
};

struct ProveResult {
  enum class Outcome { Proved, Error, PotentialError, Unknown };
  Outcome outcome = Outcome::Unknown;
  std::string reason;
  // Error: the real error; otherwise the first potential error, if any.
  std::optional<FoundProblem> problem;
  // Every potential error, one per (kind, source line and column), in the order found.
  std::vector<PotentialError> potentialErrors;
  // The real initial states that models of the initial condition gave (inputs), for triage.
  std::vector<exec::State> initialModels;
  std::vector<AbstractNode> nodes;
  std::vector<AbstractEdge> edges;
  // Per cutpoint (location text): the disjunction of its abstract states.
  std::vector<std::pair<std::string, std::string>> invariant;
  std::string classInvariant;  // class analysis: at the exits of init and the methods
  ProveStats stats;
  bool gaveUp = false;  // Unknown because of ProveOptions::maxAbstractStates
};

// How prove executes concretely: the transition system's options for `o`.
search::GenericOptions executionOptions(const ir::Program& p, const ProveOptions& o);

// Throws symbolic::NotImplemented for programs outside the fabrication (e.g. calls).
ProveResult prove(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                  const ProveOptions& o);

// --check-proof: re-checks, on `solver` (a fresh one, of the other back end), that the abstract
// states of `r` contain the initial states, are closed under every fragment and exclude every
// tracked error. Empty when they do; otherwise what failed.
std::string checkProof(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                       const ProveOptions& o, const ProveResult& r);

}  // namespace tandem::fabricate
