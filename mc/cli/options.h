// The command line, declared once as data (cvc5's options-as-data idea): every option has a
// name, a value type, a default, a help text, the commands it applies to and its validation.
// `tandem --help`, `tandem COMMAND --help` and `tandem --list-options` are generated from the
// table; a flag that does not apply to the command, a bound that is not positive or an unknown
// enumeration value is a usage error (exit 2) naming the flag.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "abstraction/unverified.h"
#include "cover/algorithms.h"
#include "fabricate/prover.h"
#include "mc/ir/cutpoints.h"
#include "mc/search/searcher.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/mixed_solver.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::cli {

enum class Command : uint8_t { Check, Prove, Testgen, Run, Ir, ExportChc, Cover, Replay };
const char* commandName(Command c);
std::optional<Command> parseCommand(const std::string& name);
const std::vector<Command>& allCommands();  // the implemented commands

// Every option's value after parsing (defaults where not given). `given` lists the options that
// were on the command line, by name.
struct Options {
  Command command = Command::Check;
  std::string file;
  std::string reportFile;  // replay FILE REPORT.json
  std::vector<std::string> given;
  bool wasGiven(const std::string& name) const;

  // Entry points.
  std::string entry, cls;
  std::optional<uint64_t> maxCalls;
  std::optional<uint64_t> threads;
  std::string store;                     // --store, when given
  std::optional<uint64_t> bitstateBits;  // --bitstate-bits
  std::vector<std::string> args;
  uint64_t steps = 1000;
  std::optional<bool> testsOnly;  // --inputs: tests (true) or symbolic (false)

  // Search and bounds.
  search::Strategy search = search::Strategy::Dfs;
  uint64_t seed = 0;
  std::optional<uint64_t> maxDepth, maxStates, memoryLimitMb;
  std::optional<double> timeout;
  bool distributed = false;  // check --distributed (over MPI)

  // Properties.
  std::vector<std::string> checkKinds;  // empty: all
  std::vector<std::string> invariants;
  bool deadlock = false;
  bool noDeadlock = false;
  bool por = false, noPor = false;

  // Output.
  bool json = false, trace = false, stats = false, quiet = false, progress = false;
  std::string traceFormat = "text";
  std::string dot, output;
  uint64_t dotMaxStates = 1000;

  // Solver.
  smt::Backend solver = smt::Backend::Z3;
  bool checkProof = false;
  uint64_t solverTimeoutMs = 10000;
  std::string smtLog;
  bool solverCrossCheck = false;

  // prove
  ir::CutpointMode cutpoints = ir::CutpointMode::Loops;
  bool autoPredicates = false, hybrid = false;
  std::optional<uint64_t> stall, executeBound;  // prove's defaults unless given
  uint64_t maxPredicates = 16;
  std::string predicatesFile;
  fabricate::ProveOptions::Engine engine = fabricate::ProveOptions::Engine::Fabricate;
  uint64_t triageMaxStates = 200000, triageMaxCalls = 4;
  std::optional<uint64_t> triageMaxDepth;  // none
  std::optional<double> triageTimeout;     // 30 s

  // Symbolic execution.
  std::optional<symbolic::Solving> solving;  // testgen: mixed unless given; check: classic
  std::string heuristic = "incremental";     // --heuristic: a comma-separated list (requests.cpp)
  bool paperDefaults = false;                // --paper-defaults
  uint64_t maxTries = 10;
  std::string testsOut;
  std::vector<std::string> natives;
  bool compositional = false;  // testgen: TACAS'08 with summaries
  bool dse = false;            // testgen: the same loop over whole-program paths
  std::string target;
  std::optional<uint64_t> maxExecutions;
  std::optional<abstraction::Guide> guide;  // testgen --guide
  std::optional<uint64_t> maxInterrupts;
  bool instrumented = false;  // ir --instrumented
  std::string annotate;       // prove --annotate OUT.tdm
  bool allErrors = false;     // testgen: every test that fails, not one per distinct error
  std::optional<uint64_t> maxTests;
  bool exitOnError = false;
  std::string testsFile;            // check --tests FILE
  std::string sarif, junit;         // --sarif FILE, --junit FILE
  std::vector<std::string> failOn;  // --fail-on unknown,potential-error

  // cover
  uint64_t unwind = 2;
  cover::Algo algo = cover::Algo::Statements;
  bool proveInfeasible = false;
  bool summaries = false;
  bool noGuided = false;
};

enum class ParseStatus { Ok, Help, Version, ListCommands, ListOptions, Error };

struct ParseResult {
  ParseStatus status = ParseStatus::Ok;
  Options options;
  std::string message;  // usage error, or help text
  std::string command;  // the command word, when there was one (for --json usage errors)
  std::string file;
};

ParseResult parseOptions(int argc, const char* const* argv);

// `--name cmd1,cmd2,...` per option, one per line (the conformance runner reads it).
std::string listOptions();

}  // namespace tandem::cli
