// What a command is asked to do: one request type per command, sharing the common part (the
// entry, the search, the bounds, the tracked errors, the solver, the natives). The CLI fills
// them from its option table; tests fill them directly.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "abstraction/unverified.h"
#include "cover/algorithms.h"
#include "fabricate/prover.h"
#include "fabricate/triage.h"
#include "mc/ir/cutpoints.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"
#include "mc/search/driver/searcher.h"
#include "mc/search/explore/transport.h"
#include "mc/search/stores/visited_set.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/mixed_solver.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "refine/refine_loop.h"

namespace tandem::engine {

struct SolverRequest {
  smt::Backend backend = smt::Backend::Z3;
  unsigned timeoutMs = 10000;  // per query; the run's deadline caps it too
  std::string smtLog;          // log every query (SMT-LIB2) to this file
  bool crossCheck = false;     // every query on both back ends
};

struct Request {
  std::string file;   // as the user named it (reports)
  std::string entry;  // open systems: the entry procedure
  std::string cls;    // the class under analysis
  // --search; unset: the command's own order (searchOrder below).
  std::optional<search::Strategy> search;
  uint64_t seed = 0;
  search::Limits limits;
  // Set by SIGINT/SIGTERM (not owned; may be null): the run stops at its next step and reports.
  const std::atomic<bool>* interrupt = nullptr;
  std::ostream* progress = nullptr;  // the progress line; null: none
  std::ostream* diag = nullptr;      // warnings and notes (stderr); null: none
  bool quiet = false;                // no notes (warnings still go to `diag`)
  // The error kinds reported (--check); deadlocks only in closed systems, where --deadlock and
  // --no-deadlock (`deadlock`, set when given: a usage error for open systems) override --check.
  std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds();
  std::vector<ir::ErrorKind> checks;  // --check as given (empty: the defaults); for the report
  std::optional<bool> deadlock;
  std::vector<std::string> invariants;  // --invariant: extra properties, loaded with the model
  SolverRequest solver;
  std::vector<std::string> natives;  // plugin libraries, loaded in order
  // The process ends right after the report: what the run built (the solver's term caches, the
  // abstract and concrete states) is left to the OS instead of freed one piece at a time, which
  // takes seconds after a long run (clang's -disable-free does the same).
  bool keepMemory = false;
};

// The search order a command uses: the one given, or its own default.
inline search::Strategy searchOrder(const Request& r,
                                    search::Strategy fallback = search::Strategy::Dfs) {
  return r.search.value_or(fallback);
}

// --heuristic, --max-tries and --paper-defaults, as given; mixedOptions() (request_rules.h)
// turns them into the solver's settings for the solving mode in use.
struct MixedTuning {
  std::optional<std::vector<symbolic::Heuristic>> heuristics;
  std::optional<uint64_t> maxTries;
  bool paperDefaults = false;
};

enum class Inputs : uint8_t { Symbolic, Tests };

// The defaults of options whose request field is unset unless given.
inline constexpr size_t kDefaultDotMaxStates = 1000;
inline constexpr uint64_t kDefaultMaxExecutions = 20000;
inline constexpr uint32_t kDefaultMaxInterrupts = 4;
inline constexpr size_t kDefaultMaxPredicates = 16;

struct CheckRequest : Request {
  std::optional<Inputs> inputs;  // check --entry: symbolic (default) or `test` inputs only
  std::string testsFile;  // --tests FILE: `test` declarations to add to the model's (implies Tests)
  std::optional<uint64_t> maxCalls;          // check --class
  std::optional<uint64_t> threads;           // --threads; unset: the cores, where it applies
  std::optional<search::StoreKind> store;    // --store, when given
  std::optional<unsigned> bitstateBits;      // --bitstate-bits (log2 of the array's bits)
  std::optional<symbolic::Solving> solving;  // symbolic: classic unless given
  MixedTuning mixed;
  std::string dot;                     // write the explored state graph (closed systems)
  std::optional<size_t> dotMaxStates;  // --dot draws at most this many states (and the error path)
  // --distributed: the explicit search spread over ranks (closed systems, dfs or bfs). `ranks`
  // carries their messages (not owned; the CLI opens MPI under mpirun); null: one rank here.
  bool distributed = false;
  search::Transport* ranks = nullptr;
  // --por / --no-por (set when given: closed systems only): partial-order reduction; off unless
  // asked for.
  std::optional<bool> por;
};

struct ProveRequest : Request {
  ir::CutpointMode cutpoints = ir::CutpointMode::Loops;
  bool autoPredicates = false, hybrid = false;
  // Hybrid: --stall (fabricate::kDefaultStall unless given). --execute-bound: the concrete states
  // per Execute (unless given: fabricate::kDefaultExecuteBound, none in hybrid mode).
  std::optional<uint64_t> stall, executeBound;
  std::optional<size_t> maxPredicates;  // default predicates per scope
  std::string predicatesFile;
  fabricate::ProveOptions::Engine engine = fabricate::ProveOptions::Engine::Fabricate;
  bool checkProof = false;
  std::string dot;  // write the abstract state graph
  fabricate::TriageOptions triage;
  std::string annotate;  // --annotate OUT.tdm (engine/prove_annotate.h)
  // --refine / --no-refine (set when given): predicates found from the spurious abstract paths
  // (refine/refine_loop.h), at most --max-refinements rounds (refine::kDefaultMaxRefinements
  // unless given). Unless given: on for models that declare no predicates (engine/prove.cpp).
  std::optional<bool> refine;
  std::optional<uint32_t> maxRefinements;
  std::string certificate;  // --certificate FILE (engine/prove_certificate.h)
};

// testgen: the symbolic executor in a --solving mode, or the dynamic symbolic execution loop
// of TACAS'08 (testgen/dse.h) over whole-program paths or compositionally.
enum class Dse : uint8_t { Off, WholeProgram, Compositional };

struct TestgenRequest : Request {
  std::optional<symbolic::Solving> solving;  // mixed unless given
  MixedTuning mixed;
  // Write the tests: FILE.json as JSON, any other name as `test f(...)` declarations.
  std::string testsOut;
  // KLEE's habits: one test per distinct error (kind and statement) unless allErrors; stop after
  // maxTests tests, or at the first failing one (exitOnError).
  bool allErrors = false;
  std::optional<uint64_t> maxTests;
  bool exitOnError = false;
  Dse dse = Dse::Off;
  std::string target;                     // --target LABEL (dse)
  std::optional<uint64_t> maxExecutions;  // --max-executions (dse)
  // --guide (ICSE'16; docs/guided.md): unset, annotations are ignored and not counted.
  std::optional<abstraction::Guide> guide;
  std::optional<uint32_t> maxInterrupts;  // --max-interrupts: executions `tryfirst` sets aside
};

struct CoverRequest : Request {
  uint32_t unwind = 2;  // iterations of each loop, nested recursive calls
  cover::Algo algo = cover::Algo::Statements;
  bool guided = true;    // statements: a guided query before each enabling one (--no-guided: not)
  std::string testsOut;  // write the tests as `test f(...)` declarations
  bool proveInfeasible = false;  // hand each infeasible location to `prove`
  bool summaries = false;  // calls of summarisable procedures by their tests (cover/modular.h)
};

struct RunRequest : Request {
  std::vector<std::string> args;  // the entry's arguments, as text
  uint64_t steps = 1000;          // a closed system walks this many steps
};

// `tandem replay FILE REPORT.json`: the saved report (of check, prove or testgen) whose
// counterexample is re-executed; the replay reads it within its bounds. `entry`/`cls` come from
// the report unless given.
struct ReplayRequest : Request {
  std::string reportFile;
};

struct IrRequest : Request {
  bool instrumented = false;  // show the inferred may/must-unverified conditions
};

struct ExportChcRequest : Request {
  ir::CutpointMode cutpoints = ir::CutpointMode::Loops;
  std::string output;  // the clauses go to this file; empty: into the report
};

}  // namespace tandem::engine
