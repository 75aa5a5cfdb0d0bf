#include "mc/cli/option_table.h"

#include <string_view>

namespace tandem::cli {

namespace {

constexpr CommandMask kCheck = bit(Command::Check), kProve = bit(Command::Prove),
                      kTestgen = bit(Command::Testgen), kRun = bit(Command::Run),
                      kIr = bit(Command::Ir), kExport = bit(Command::ExportChc);
constexpr CommandMask kAnalyses = kCheck | kProve | kTestgen | kRun | kExport;
constexpr CommandMask kAll = kAnalyses | kIr;
constexpr CommandMask kSolvers = kCheck | kProve | kTestgen;  // the commands that query a solver

uint64_t toU64(const std::string& v) { return std::stoull(v); }

template <typename Enum>
std::vector<std::string> names(const std::vector<Enum>& all, const char* (*name)(Enum)) {
  std::vector<std::string> out;
  for (Enum e : all) out.emplace_back(name(e));
  return out;
}

const char* backendText(smt::Backend b) { return smt::backendName(b); }
const char* heuristicText(symbolic::Heuristic h) { return symbolic::heuristicName(h); }
const char* solvingText(symbolic::Solving s) { return symbolic::solvingName(s); }

std::vector<OptionSpec> buildTable() {
  using V = ValueKind;
  std::vector<OptionSpec> t;
  auto add = [&](OptionSpec s) { t.push_back(std::move(s)); };
  // Global.
  add({"help",
       'h',
       V::Flag,
       "",
       "",
       "print this help (tandem COMMAND --help: that command's)",
       0,
       {},
       {}});
  add({"version", 0, V::Flag, "", "", "print the version", 0, {}, {}});
  add({"list-commands",
       0,
       V::Flag,
       "",
       "",
       "print the implemented commands, one per line",
       0,
       {},
       {}});
  add({"list-options",
       0,
       V::Flag,
       "",
       "",
       "print each option and the commands it applies to, one per line",
       0,
       {},
       {}});

  // Entry points.
  add({"entry",
       0,
       V::Text,
       "PROC",
       "",
       "the entry procedure of an open system",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.entry = v; }});
  add({"class",
       0,
       V::Text,
       "C",
       "",
       "analyse class C (class invariants; check: method sequences)",
       kCheck | kProve,
       {},
       [](Options& o, const std::string& v) { o.cls = v; }});
  add({"max-calls",
       0,
       V::Count,
       "N",
       "unbounded",
       "check --class: bound on the method calls after init",
       kCheck,
       {},
       [](Options& o, const std::string& v) { o.maxCalls = toU64(v); }});
  add({"args",
       0,
       V::List,
       "A,B,...",
       "",
       "the entry procedure's arguments",
       kRun,
       {},
       [](Options& o, const std::string& v) { o.args.push_back(v); }});
  add({"steps",
       0,
       V::Count,
       "N",
       "1000",
       "steps of the walk (a closed system walks exactly this many)",
       kRun,
       {},
       [](Options& o, const std::string& v) { o.steps = toU64(v); }});
  add({"inputs",
       0,
       V::Choice,
       "MODE",
       "symbolic",
       "check --entry: every input (symbolic) or only the `test` inputs (tests)",
       kCheck,
       {"symbolic", "tests"},
       [](Options& o, const std::string& v) { o.testsOnly = v == "tests"; }});

  // Search and bounds.
  add({"search", 0, V::Choice, "STRATEGY", "dfs",
       "search order (interleaved: coverage-guided and random in turn)", kCheck | kProve | kTestgen,
       names(search::allStrategies(), &search::strategyName),
       [](Options& o, const std::string& v) { o.search = *search::parseStrategy(v); }});
  add({"seed",
       0,
       V::Natural,
       "N",
       "0",
       "seed of every random choice",
       kCheck | kProve | kTestgen | kRun,
       {},
       [](Options& o, const std::string& v) { o.seed = toU64(v); }});
  add({"max-depth",
       0,
       V::Count,
       "N",
       "none",
       "bound on the depth: of the state graph (check), of a path (symbolic), of the abstract "
       "state graph (prove), of the cutpoint graph (export-chc), on the steps (run)",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.maxDepth = toU64(v); }});
  add({"max-states",
       0,
       V::Count,
       "N",
       "none",
       "bound on the states: stored (check), expanded (symbolic), executed (prove), location "
       "vectors (export-chc), visited (run)",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.maxStates = toU64(v); }});
  add({"timeout",
       0,
       V::Seconds,
       "S",
       "none",
       "bound on the run time, in seconds",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.timeout = std::stod(v); }});
  add({"memory-limit",
       0,
       V::Count,
       "MB",
       "none",
       "bound on the memory (resident set), in MB",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.memoryLimitMb = toU64(v); }});

  // Properties.
  add({"check",
       0,
       V::List,
       "KIND,...",
       "all",
       "error kinds tracked: assert, invariant, index-out-of-bounds, null-deref, div-by-zero, "
       "negative-size",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.checkKinds.push_back(v); }});
  add({"invariant",
       0,
       V::Repeated,
       "EXPR",
       "",
       "an extra safety property (an expression); repeatable",
       kCheck | kProve | kRun | kExport | kIr,
       {},
       [](Options& o, const std::string& v) { o.invariants.push_back(v); }});
  add({"deadlock",
       0,
       V::Flag,
       "",
       "",
       "report states of closed systems where no process can move",
       kCheck | kRun,
       {},
       [](Options& o, const std::string&) { o.deadlock = true; }});

  // Output.
  add({"json",
       0,
       V::Flag,
       "",
       "",
       "print the JSON report on stdout (docs/json.md)",
       kAll,
       {},
       [](Options& o, const std::string&) { o.json = true; }});
  add({"trace",
       0,
       V::Flag,
       "",
       "",
       "print the counterexample trace",
       kCheck | kProve | kTestgen,
       {},
       [](Options& o, const std::string&) { o.trace = true; }});
  add({"stats",
       0,
       V::Flag,
       "",
       "",
       "print statistics",
       kAnalyses,
       {},
       [](Options& o, const std::string&) { o.stats = true; }});
  add({"quiet",
       0,
       V::Flag,
       "",
       "",
       "no progress line, no notes",
       kAnalyses,
       {},
       [](Options& o, const std::string&) { o.quiet = true; }});
  add({"progress",
       0,
       V::Flag,
       "",
       "on a terminal",
       "a progress line on stderr once a second after 2 s",
       kAnalyses,
       {},
       [](Options& o, const std::string&) { o.progress = true; }});
  add({"dot",
       0,
       V::Text,
       "FILE",
       "",
       "write the state graph (check) or the abstract state graph (prove) in Graphviz format",
       kCheck | kProve,
       {},
       [](Options& o, const std::string& v) { o.dot = v; }});
  add({"output",
       'o',
       V::Text,
       "FILE",
       "stdout",
       "write the clauses to FILE",
       kExport,
       {},
       [](Options& o, const std::string& v) { o.output = v; }});

  // Solver.
  add({"solver", 0, V::Choice, "NAME", "z3", "the SMT back end", kSolvers,
       names(smt::allBackends(), &backendText),
       [](Options& o, const std::string& v) { o.solver = *smt::parseBackend(v); }});
  add({"solver-timeout-ms",
       0,
       V::Count,
       "MS",
       "10000",
       "time limit of one solver query (the run's --timeout caps it too)",
       kSolvers,
       {},
       [](Options& o, const std::string& v) { o.solverTimeoutMs = toU64(v); }});
  add({"smt-log",
       0,
       V::Text,
       "FILE",
       "",
       "log every solver query (SMT-LIB2) to FILE",
       kSolvers,
       {},
       [](Options& o, const std::string& v) { o.smtLog = v; }});
  add({"solver-cross-check",
       0,
       V::Flag,
       "",
       "",
       "send every query to both back ends and compare",
       kSolvers,
       {},
       [](Options& o, const std::string&) { o.solverCrossCheck = true; }});
  add({"check-proof",
       0,
       V::Flag,
       "",
       "",
       "re-check a proof with the other back end",
       kProve,
       {},
       [](Options& o, const std::string&) { o.checkProof = true; }});

  // prove (and export-chc's cutpoints).
  add({"cutpoints",
       0,
       V::Choice,
       "MODE",
       "loops",
       "where states are abstracted: loop heads and the like, or every location",
       kProve | kExport,
       {"loops", "all"},
       [](Options& o, const std::string& v) {
         o.cutpoints = v == "all" ? ir::CutpointMode::All : ir::CutpointMode::Loops;
       }});
  add({"auto-predicates",
       0,
       V::Flag,
       "",
       "",
       "add default predicates (ISSTA'06 Sect. 4.5)",
       kProve,
       {},
       [](Options& o, const std::string&) { o.autoPredicates = true; }});
  add({"hybrid",
       0,
       V::Flag,
       "",
       "",
       "prune execution at known abstract states (Sect. 5.3)",
       kProve,
       {},
       [](Options& o, const std::string&) { o.hybrid = true; }});
  add({"predicates",
       0,
       V::Text,
       "FILE",
       "",
       "extra predicates, one expression per line",
       kProve,
       {},
       [](Options& o, const std::string& v) { o.predicatesFile = v; }});
  add({"engine",
       0,
       V::Choice,
       "NAME",
       "fabricate",
       "fabricate (the paper), or the baselines models and eager",
       kProve,
       {"fabricate", "models", "eager"},
       [](Options& o, const std::string& v) {
         using E = fabricate::ProveOptions::Engine;
         o.engine = v == "eager" ? E::Eager : v == "models" ? E::Models : E::Fabricate;
       }});
  add({"triage-max-states",
       0,
       V::Count,
       "N",
       "200000",
       "triage of a potential error: bound on the states of its search",
       kProve,
       {},
       [](Options& o, const std::string& v) { o.triage.maxStates = toU64(v); }});
  add({"triage-max-depth",
       0,
       V::Count,
       "N",
       "500",
       "triage: bound on the steps of a symbolic path",
       kProve,
       {},
       [](Options& o, const std::string& v) { o.triage.maxDepth = toU64(v); }});
  add({"triage-timeout",
       0,
       V::Seconds,
       "S",
       "30",
       "triage: bound on its time, in seconds",
       kProve,
       {},
       [](Options& o, const std::string& v) { o.triage.timeoutSeconds = std::stod(v); }});
  add({"triage-max-calls",
       0,
       V::Count,
       "N",
       "4",
       "triage of a class: bound on the method calls after init",
       kProve,
       {},
       [](Options& o, const std::string& v) { o.triage.maxCalls = toU64(v); }});

  // Symbolic execution and test generation.
  add({"solving", 0, V::Choice, "MODE", "testgen: mixed, check: classic",
       "how path conditions are decided (docs/symbolic.md)", kCheck | kTestgen,
       names(std::vector<symbolic::Solving>{symbolic::Solving::Classic, symbolic::Solving::Mixed,
                                            symbolic::Solving::Exe, symbolic::Solving::Dart},
             &solvingText),
       [](Options& o, const std::string& v) { o.solving = *symbolic::parseSolving(v); }});
  add({"heuristic", 0, V::Choice, "NAME", "incremental", "--solving mixed: the ISSTA'11 heuristic",
       kCheck | kTestgen,
       names(std::vector<symbolic::Heuristic>{symbolic::Heuristic::Incremental,
                                              symbolic::Heuristic::Partition,
                                              symbolic::Heuristic::Random},
             &heuristicText),
       [](Options& o, const std::string& v) { o.heuristic = *symbolic::parseHeuristic(v); }});
  add({"max-tries",
       0,
       V::Count,
       "N",
       "10",
       "--solving mixed: tries of the heuristic; dart: restarts",
       kCheck | kTestgen,
       {},
       [](Options& o, const std::string& v) { o.maxTries = toU64(v); }});
  add({"tests-out",
       0,
       V::Text,
       "FILE",
       "",
       "write the tests as JSON to FILE",
       kTestgen,
       {},
       [](Options& o, const std::string& v) { o.testsOut = v; }});
  add({"natives",
       0,
       V::Repeated,
       "LIB.so",
       "",
       "load native functions from a plugin; repeatable",
       kAnalyses,
       {},
       [](Options& o, const std::string& v) { o.natives.push_back(v); }});
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
