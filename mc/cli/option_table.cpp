#include "mc/cli/option_table.h"

#include <string_view>

namespace tandem::cli {

namespace {

constexpr CommandMask kCheck = bit(Command::Check), kProve = bit(Command::Prove),
                      kTestgen = bit(Command::Testgen), kRun = bit(Command::Run),
                      kIr = bit(Command::Ir), kExport = bit(Command::ExportChc),
                      kCover = bit(Command::Cover), kReplay = bit(Command::Replay);
constexpr CommandMask kAnalyses = kCheck | kProve | kTestgen | kRun | kExport | kCover;
constexpr CommandMask kAll = kAnalyses | kIr;
constexpr CommandMask kSolvers =
    kCheck | kProve | kTestgen | kCover;  // the commands that query a solver

using Apply = std::function<void(Options&, const std::string&)>;

// How a value reaches its field: parsed for its type (the table validated it already).
Apply to(std::string Options::*m) {
  return [m](Options& o, const std::string& v) { o.*m = v; };
}
Apply to(std::vector<std::string> Options::*m) {
  return [m](Options& o, const std::string& v) { (o.*m).push_back(v); };
}
Apply to(bool Options::*m) {
  return [m](Options& o, const std::string&) { o.*m = true; };
}
Apply to(uint64_t Options::*m) {
  return [m](Options& o, const std::string& v) { o.*m = std::stoull(v); };
}
Apply to(std::optional<uint64_t> Options::*m) {
  return [m](Options& o, const std::string& v) { o.*m = std::stoull(v); };
}
Apply to(std::optional<double> Options::*m) {
  return [m](Options& o, const std::string& v) { o.*m = std::stod(v); };
}
template <typename Field, typename Parse>
Apply parsed(Field Options::*m, Parse parse) {
  return [m, parse](Options& o, const std::string& v) { o.*m = *parse(v); };
}
template <typename Enum>
std::vector<std::string> names(std::initializer_list<Enum> all, const char* (*name)(Enum)) {
  std::vector<std::string> out;
  for (Enum e : all) out.emplace_back(name(e));
  return out;
}

using symbolic::Solving;
using Engine = fabricate::ProveOptions::Engine;

std::optional<Engine> parseEngine(std::string_view v) {
  return v == "eager" ? Engine::Eager : v == "models" ? Engine::Models : Engine::Fabricate;
}
std::optional<bool> parseInputs(std::string_view v) { return v == "tests"; }
std::optional<abstraction::Guide> parseGuide(std::string_view v) {
  return abstraction::parseGuide(v);
}
std::optional<search::Strategy> parseSearch(std::string_view v) { return search::parseStrategy(v); }
std::optional<cover::Algo> parseAlgo(std::string_view v) { return cover::parseAlgo(v); }
std::optional<smt::Backend> parseSolver(std::string_view v) { return smt::parseBackend(v); }
const char* backendText(smt::Backend b) { return smt::backendName(b); }

std::vector<OptionSpec> buildTable() {
  using V = ValueKind;
  constexpr CommandMask kTriage = kProve;
  // clang-format off
  std::vector<OptionSpec> t = {
    // Global: no command needed.
    {"help", 'h', V::Flag, "", "", "print this help (tandem COMMAND --help: that command's)", 0, {}, {}},
    {"version", 0, V::Flag, "", "", "print the version", 0, {}, {}},
    {"list-commands", 0, V::Flag, "", "", "print the implemented commands, one per line", 0, {}, {}},
    {"list-options", 0, V::Flag, "", "", "print each option and the commands it applies to", 0, {}, {}},
    // Entry points.
    {"entry", 0, V::Text, "PROC", "", "the entry procedure of an open system", kAnalyses | kReplay, {}, to(&Options::entry)},
    {"class", 0, V::Text, "C", "", "analyse class C (prove: its invariant; check: method sequences)", kCheck | kProve | kReplay, {}, to(&Options::cls)},
    {"max-calls", 0, V::Count, "N", "unbounded", "check --class: bound on the method calls after init", kCheck, {}, to(&Options::maxCalls)},
    {"args", 0, V::List, "A,B,...", "", "the entry procedure's arguments", kRun, {}, to(&Options::args)},
    {"steps", 0, V::Count, "N", "1000", "steps of the walk (a closed system walks exactly this many)", kRun, {}, to(&Options::steps)},
    {"inputs", 0, V::Choice, "MODE", "symbolic", "check --entry: every input, or only the `test` inputs", kCheck, {"symbolic", "tests"}, parsed(&Options::testsOnly, parseInputs)},
    // Search and bounds.
    {"search", 0, V::Choice, "STRATEGY", "dfs", "search order (interleaved: coverage-guided and random in turn)", kCheck | kProve | kTestgen,
     names({search::Strategy::Dfs, search::Strategy::Bfs, search::Strategy::Random, search::Strategy::Coverage, search::Strategy::Interleaved}, &search::strategyName),
     parsed(&Options::search, parseSearch), std::pair{Command::Prove, std::string("bfs")}},
    {"threads", 0, V::Count, "N", "the cores", "workers of the explicit search of a closed system (dfs, bfs); they share one visited set, and 1 is the sequential search", kCheck, {}, to(&Options::threads)},
    {"store", 0, V::Choice, "KIND", "exact", "the visited set of the explicit search: exact (every state's bytes), tree (tree compression; dfs only), or the lossy hc (64-bit hash compaction) and bitstate (supertrace); a lossy store's exhausted search is unknown, with the probability that a state was omitted (dfs only)", kCheck, {"exact", "tree", "hc", "bitstate"}, to(&Options::store)},
    {"bitstate-bits", 0, V::Count, "B", "27", "--store bitstate: an array of 2^B bits (8 to 40; 27 is 16 MiB, SPIN's -w27), 3 hash functions; the default shrinks to fit half of --memory-limit", kCheck, {}, to(&Options::bitstateBits)},
    {"distributed", 0, V::Flag, "", "", "spread the explicit search of a closed system over the ranks of mpirun -np K (Open MPI; one rank without mpirun; docs/check.md)", kCheck, {}, to(&Options::distributed)},
    {"seed", 0, V::Natural, "N", "0", "seed of every random choice", kCheck | kProve | kTestgen | kRun, {}, to(&Options::seed)},
    {"max-depth", 0, V::Count, "N", "none", "bound on the depth: of the state graph (check), of a path (symbolic execution), of the abstract state graph (prove), of the cutpoint graph (export-chc), on the steps (run)", kAnalyses, {}, to(&Options::maxDepth)},
    {"max-states", 0, V::Count, "N", "none", "bound on the states: stored (check), expanded (symbolic execution), executed and triaged (prove), location vectors (export-chc), visited (run)", kAnalyses, {}, to(&Options::maxStates)},
    {"timeout", 0, V::Seconds, "S", "none", "bound on the run time, in seconds", kAnalyses | kReplay, {}, to(&Options::timeout)},
    {"memory-limit", 0, V::Count, "MB", "none", "bound on the memory (resident set), in MB", kAnalyses | kReplay, {}, to(&Options::memoryLimitMb)},
    // Properties.
    {"check", 0, V::List, "KIND,...", "all", "error kinds tracked: assert, invariant, index-out-of-bounds, null-deref, div-by-zero, negative-size, deadlock, float-conversion (int(x) of an f64 NaN or out of range), and overflow (i32/i64 arithmetic that wraps; only when listed)", kAnalyses, {}, to(&Options::checkKinds)},
    {"invariant", 0, V::Repeated, "EXPR", "", "an extra safety property (an expression); repeatable", kCheck | kProve | kTestgen | kRun | kExport | kIr | kReplay, {}, to(&Options::invariants)},
    {"deadlock", 0, V::Flag, "", "on", "report deadlocks: states of closed systems where no process can move and some process is not at a valid end (the default)", kCheck | kRun | kProve | kExport, {}, to(&Options::deadlock)},
    {"no-deadlock", 0, V::Flag, "", "", "do not report deadlocks of closed systems", kCheck | kRun | kProve | kExport, {}, to(&Options::noDeadlock)},
    {"por", 0, V::Flag, "", "off", "partial-order reduction of a closed system (stubborn sets; preserves invariants, errors and deadlocks)", kCheck, {}, to(&Options::por)},
    {"no-por", 0, V::Flag, "", "", "explore every interleaving of a closed system (the default)", kCheck, {}, to(&Options::noPor)},
    // Output.
    {"json", 0, V::Flag, "", "", "print the JSON report on stdout (docs/json.md)", kAll | kReplay, {}, to(&Options::json)},
    {"trace", 0, V::Flag, "", "", "print the counterexample trace", kCheck | kProve | kTestgen | kCover | kReplay, {}, to(&Options::trace)},
    {"trace-format", 0, V::Choice, "FORMAT", "text", "the trace's form: text, json (one object per step) or spin (as spin -t -p); implies --trace", kCheck | kProve | kTestgen | kCover | kReplay, {"text", "json", "spin"}, to(&Options::traceFormat)},
    {"stats", 0, V::Flag, "", "", "print statistics", kAnalyses | kReplay, {}, to(&Options::stats)},
    {"quiet", 0, V::Flag, "", "", "no progress line, no notes", kAnalyses | kReplay, {}, to(&Options::quiet)},
    {"progress", 0, V::Flag, "", "on a terminal", "a progress line on stderr once a second after 2 s", kAnalyses | kReplay, {}, to(&Options::progress)},
    {"dot", 0, V::Text, "FILE", "", "write the state graph (check) or the abstract state graph (prove) in Graphviz format", kCheck | kProve, {}, to(&Options::dot)},
    {"dot-max-states", 0, V::Count, "N", "1000", "--dot: draw at most N states (the first stored) and the error path; the legend says when the graph is cut", kCheck, {}, to(&Options::dotMaxStates)},
    {"output", 'o', V::Text, "FILE", "stdout", "write the clauses to FILE", kExport, {}, to(&Options::output)},
    // The solver.
    {"solver", 0, V::Choice, "NAME", "z3", "the SMT back end", kSolvers, names({smt::Backend::Z3, smt::Backend::Cvc5}, &backendText), parsed(&Options::solver, parseSolver)},
    {"solver-timeout-ms", 0, V::Count, "MS", "10000", "time limit of one solver query (the run's --timeout caps it too)", kSolvers, {}, to(&Options::solverTimeoutMs)},
    {"smt-log", 0, V::Text, "FILE", "", "log every solver query (SMT-LIB2) to FILE", kSolvers, {}, to(&Options::smtLog)},
    {"solver-cross-check", 0, V::Flag, "", "", "send every query to both back ends and compare", kSolvers, {}, to(&Options::solverCrossCheck)},
    {"check-proof", 0, V::Flag, "", "", "re-check a proof with the other back end", kProve, {}, to(&Options::checkProof)},
    // prove (and the cutpoints of export-chc).
    {"cutpoints", 0, V::Choice, "MODE", "loops", "where states are abstracted: loops (loop heads, entries, exits, calls, assertions), paper (ISSTA'06 Sect. 4.2: entries, exits, loop heads, calls, memory accesses), or all (every location)", kProve | kExport,
     names({ir::CutpointMode::Loops, ir::CutpointMode::Paper, ir::CutpointMode::All}, &ir::cutpointModeName), parsed(&Options::cutpoints, ir::parseCutpointMode)},
    {"auto-predicates", 0, V::Flag, "", "", "add default predicates (ISSTA'06 Sect. 4.5), each in its procedure, class, process or global scope (used anyway when the model has no predicates)", kProve, {}, to(&Options::autoPredicates)},
    {"max-predicates", 0, V::Count, "N", "16", "default predicates: at most N per scope", kProve, {}, to(&Options::maxPredicates)},
    {"hybrid", 0, V::Flag, "", "", "Sect. 5.3: end each execution once it stops finding new abstract states, and fabricate", kProve, {}, to(&Options::hybrid)},
    {"stall", 0, V::Count, "N", "1000", "hybrid: concrete states in a row without a new abstract state that end an execution; implies --hybrid", kProve, {}, to(&Options::stall)},
    {"execute-bound", 0, V::Count, "N", "1000, --hybrid: none", "concrete states per execution", kProve, {}, to(&Options::executeBound)},
    {"predicates", 0, V::Text, "FILE", "", "extra predicates, one expression per line", kProve, {}, to(&Options::predicatesFile)},
    {"engine", 0, V::Choice, "NAME", "fabricate", "fabricate (the paper's method), or the baselines models and eager", kProve, {"fabricate", "models", "eager"}, parsed(&Options::engine, parseEngine)},
    {"triage-max-states", 0, V::Count, "N", "200000", "triage of the potential errors: bound on the states of each of its searches (explicit, symbolic)", kTriage, {}, to(&Options::triageMaxStates)},
    {"triage-max-depth", 0, V::Count, "N", "none", "triage: bound on the steps from an initial state (of a trace or a symbolic path)", kTriage, {}, to(&Options::triageMaxDepth)},
    {"triage-timeout", 0, V::Seconds, "S", "30", "triage: bound on its time, in seconds (within what --timeout leaves)", kTriage, {}, to(&Options::triageTimeout)},
    {"triage-max-calls", 0, V::Count, "N", "4", "triage of a class: bound on the method calls after init", kTriage, {}, to(&Options::triageMaxCalls)},
    // Symbolic execution and test generation.
    {"solving", 0, V::Choice, "MODE", "testgen: mixed, check: classic", "how path conditions are decided (docs/symbolic.md)", kCheck | kTestgen,
     names({Solving::Classic, Solving::Mixed, Solving::Exe, Solving::Dart}, &symbolic::solvingName), parsed(&Options::solving, symbolic::parseSolving)},
    {"heuristic", 0, V::Text, "NAME,...", "incremental", "--solving mixed: the ISSTA'11 heuristics, any of incremental, partition, random, comma-separated: each round of tries gives each one try, in this order (--paper-defaults: random)", kCheck | kTestgen, {}, to(&Options::heuristic)},
    {"max-tries", 0, V::Count, "N", "10", "--solving mixed: rounds of tries of the heuristics (--paper-defaults: 1000); dart: restarts", kCheck | kTestgen, {}, to(&Options::maxTries)},
    {"paper-defaults", 0, V::Flag, "", "", "--solving mixed: the paper's settings: random solving (ISSTA'11 Sect. 3.5) as the heuristic and 1000 rounds of tries, unless --heuristic or --max-tries is given", kCheck | kTestgen, {}, to(&Options::paperDefaults)},
    {"compositional", 0, V::Flag, "", "", "testgen: demand-driven compositional dynamic symbolic execution (Anand, Godefroid, Tillmann, TACAS'08; docs/compositional.md)", kTestgen, {}, to(&Options::compositional)},
    {"dse", 0, V::Flag, "", "", "testgen: the same dynamic symbolic execution loop over whole-program paths, every call inlined (the baseline of --compositional)", kTestgen, {}, to(&Options::dse)},
    {"target", 0, V::Text, "LABEL", "", "--compositional, --dse: the labelled location to reach (default: every branch)", kTestgen, {}, to(&Options::target)},
    {"max-executions", 0, V::Count, "N", "20000", "--compositional, --dse: bound on the executions", kTestgen, {}, to(&Options::maxExecutions)},
    {"guide", 0, V::Choice, "MODE", "", "testgen: guidance by verification annotations (Christakis, Mueller, Wuestholz, ICSE'16; docs/guided.md): ignore (annotations ignored), none (assertions verified true not checked), may (prune verified executions), must (unverified executions first), may-must", kTestgen,
     names({abstraction::Guide::Ignore, abstraction::Guide::None, abstraction::Guide::May, abstraction::Guide::Must, abstraction::Guide::MayMust}, &abstraction::guideName), parsed(&Options::guide, parseGuide)},
    {"max-interrupts", 0, V::Natural, "N", "4", "--guide must, may-must: executions a `tryfirst` may set aside", kTestgen, {}, to(&Options::maxInterrupts)},
    {"annotate", 0, V::Text, "OUT.tdm", "", "prove: write the program with `assumed`/`verified` annotations from Tandem's own partial proof, for guided testgen (docs/guided.md)", kProve, {}, to(&Options::annotate)},
    {"instrumented", 0, V::Flag, "", "", "ir: show the may/must-unverified conditions inferred at each location (docs/guided.md)", kIr, {}, to(&Options::instrumented)},
    {"tests-out", 0, V::Text, "FILE", "", "write the tests to FILE as `test f(...)` declarations for check --tests=FILE (testgen: FILE.json writes JSON)", kTestgen | kCover, {}, to(&Options::testsOut)},
    {"all-errors", 0, V::Flag, "", "", "testgen: a test for every failing path (default: one per distinct error, its kind and statement, as KLEE)", kTestgen, {}, to(&Options::allErrors)},
    {"max-tests", 0, V::Count, "N", "", "testgen: stop after N tests (the verdict is then unknown unless one fails)", kTestgen, {}, to(&Options::maxTests)},
    {"exit-on-error", 0, V::Flag, "", "", "testgen: stop at the first failing test", kTestgen, {}, to(&Options::exitOnError)},
    {"sarif", 0, V::Text, "FILE", "", "also write the report as SARIF 2.1.0 (one result per error or potential error, the trace as a code flow)", kCheck | kProve | kTestgen | kCover, {}, to(&Options::sarif)},
    {"junit", 0, V::Text, "FILE", "", "also write the report as JUnit XML (a test case per generated test, and one for the verdict)", kCheck | kProve | kTestgen | kCover, {}, to(&Options::junit)},
    {"fail-on", 0, V::List, "VERDICT,...", "", "exit 1 on these verdicts too, for CI: unknown, potential-error", kCheck | kProve | kTestgen | kCover | kRun, {}, to(&Options::failOn)},
    {"tests", 0, V::Text, "FILE", "", "check --entry: run the `test` declarations of FILE (written by testgen or cover with --tests-out) with the model's own; implies --inputs tests", kCheck, {}, to(&Options::testsFile)},
    // Bounded infeasible code detection.
    {"unwind", 0, V::Natural, "K", "2", "cover: iterations of each loop, and nested recursive calls, in the unwinding", kCover, {}, to(&Options::unwind)},
    {"algo", 0, V::Choice, "NAME", "statements", "cover: paths (AlgPC, blocking clauses), statements (AlgSC, enabling clauses) or fm (one query per location)", kCover,
     names({cover::Algo::Paths, cover::Algo::Statements, cover::Algo::Fm}, &cover::algoName), parsed(&Options::algo, parseAlgo)},
    {"no-guided", 0, V::Flag, "", "", "cover --algo statements: only enabling clauses, as the paper's AlgSC (default: a guided query through the most uncovered locations first)", kCover, {}, to(&Options::noGuided)},
    {"summaries", 0, V::Flag, "", "", "cover: calls of procedures that only touch their own locals become their tests' input/output pairs (computed bottom-up); what they leave open is asked again with the calls inlined", kCover, {}, to(&Options::summaries)},
    {"prove-infeasible", 0, V::Flag, "", "", "cover: ask prove whether each location infeasible within the bound is infeasible for every unwinding", kCover, {}, to(&Options::proveInfeasible)},
    {"natives", 0, V::Repeated, "LIB.so", "", "load native functions from a plugin; repeatable", kAnalyses | kReplay, {}, to(&Options::natives)},
  };
  // clang-format on
  return t;
}

}  // namespace

const std::vector<OptionSpec>& optionTable() {
  static const std::vector<OptionSpec> kTable = buildTable();
  return kTable;
}

const OptionSpec* findOption(const std::string& name) {
  for (const OptionSpec& s : optionTable())
    if (s.name == name || (name.size() == 1 && s.shortName == name[0])) return &s;
  return nullptr;
}

}  // namespace tandem::cli
