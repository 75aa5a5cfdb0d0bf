#include "mc/cli/option_table.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <type_traits>

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

using Apply = std::function<void(Invocation&, const std::string&)>;
using engine::CheckRequest, engine::ProveRequest, engine::TestgenRequest, engine::CoverRequest,
    engine::RunRequest, engine::ExportChcRequest, engine::IrRequest, engine::Request;

// A validated value into a field of its type. Narrower integers throw std::out_of_range.
void assign(std::string& f, const std::string& v) { f = v; }
void assign(std::vector<std::string>& f, const std::string& v) { f.push_back(v); }
void assign(bool& f, const std::string&) { f = true; }
void assign(uint64_t& f, const std::string& v) { f = std::stoull(v); }
void assign(double& f, const std::string& v) { f = std::stod(v); }
void assign(uint32_t& f, const std::string& v) {
  const uint64_t n = std::stoull(v);
  if (n > UINT32_MAX) throw std::out_of_range(v);
  f = static_cast<uint32_t>(n);
}
template <typename T>
void assign(std::optional<T>& f, const std::string& v) {
  T t{};
  assign(t, v);
  f = t;
}

// `request.*m = value` when the command's request is a C; false when it is not.
template <typename C, typename F>
bool assignIf(Invocation& inv, F C::*m, const std::string& v) {
  return std::visit(
      [&](auto& req) {
        if constexpr (std::is_base_of_v<C, std::decay_t<decltype(req)>>) {
          assign(static_cast<C&>(req).*m, v);
          return true;
        }
        return false;
      },
      inv.request);
}
template <typename C, typename F, typename V>
bool setIf(Invocation& inv, F C::*m, const V& value) {
  return std::visit(
      [&](auto& req) {
        if constexpr (std::is_base_of_v<C, std::decay_t<decltype(req)>>) {
          static_cast<C&>(req).*m = value;
          return true;
        }
        return false;
      },
      inv.request);
}

template <typename C, typename F>
bool callIf(Invocation& inv, F& f) {
  return std::visit(
      [&](auto& req) {
        if constexpr (std::is_base_of_v<C, std::decay_t<decltype(req)>>) {
          f(static_cast<C&>(req));
          return true;
        }
        return false;
      },
      inv.request);
}

// Calls `f` with the request of class C, the first of `C...` that the command's request is;
// the table's command mask guarantees one is.
template <typename... C, typename F>
void onRequest(Invocation& inv, F&& f) {
  if (!(callIf<C>(inv, f) || ...))
    throw std::logic_error("an option bound to a request its command does not make");
}

// The field `m` of whichever of the bound requests the command makes.
template <typename... C, typename... F>
Apply to(F C::*... m) {
  return [=](Invocation& inv, const std::string& v) {
    if (!(assignIf<C>(inv, m, v) || ...))
      throw std::logic_error("an option bound to a request its command does not make");
  };
}
// A field of cli::Output.
template <typename F>
Apply out(F Output::*m) {
  return [m](Invocation& inv, const std::string& v) { assign(inv.output.*m, v); };
}
// A field set from the value by `parse` (the table validated the value already).
template <typename... C, typename Field, typename Parse>
Apply parsed(Parse parse, Field C::*... m) {
  return [=](Invocation& inv, const std::string& v) {
    if (!(setIf<C>(inv, m, *parse(v)) || ...))
      throw std::logic_error("an option bound to a request its command does not make");
  };
}
// Anything else: `f(request, value)` on the first of `C...` the command's request is.
template <typename... C, typename F>
Apply on(F f) {
  return [f](Invocation& inv, const std::string& v) {
    onRequest<C...>(inv, [&](auto& r) { f(r, v); });
  };
}

template <typename Enum>
std::vector<std::string> names(std::initializer_list<Enum> all, const char* (*name)(Enum)) {
  std::vector<std::string> out;
  for (Enum e : all) out.emplace_back(name(e));
  return out;
}

using symbolic::Solving;
using Engine = fabricate::ProveOptions::Engine;

std::optional<Engine> parseEngine(std::string_view v) { return fabricate::parseEngine(v); }
std::optional<abstraction::Guide> parseGuide(std::string_view v) {
  return abstraction::parseGuide(v);
}
std::optional<search::Strategy> parseSearch(std::string_view v) { return search::parseStrategy(v); }
std::optional<cover::Algo> parseAlgo(std::string_view v) { return cover::parseAlgo(v); }
std::optional<search::StoreKind> parseStore(std::string_view v) {
  return v == "tree"       ? search::StoreKind::Tree
         : v == "hc"       ? search::StoreKind::HashCompaction
         : v == "bitstate" ? search::StoreKind::Bitstate
                           : search::StoreKind::Exact;
}
std::optional<report::TraceFormat> parseTraceFormat(std::string_view v) {
  return v == "json"   ? report::TraceFormat::Json
         : v == "spin" ? report::TraceFormat::Spin
                       : report::TraceFormat::Text;
}
const char* backendText(smt::Backend b) { return smt::backendName(b); }
// A default in help, from the field's own default (so that it is spelled once).
std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

// --check KIND: the listed kinds replace the defaults; --deadlock/--no-deadlock win over them.
void addCheck(Request& r, const std::string& v) {
  auto kind = ir::parseErrorKind(v);
  if (!kind)
    throw report::usageError(
        "unknown error kind '" + v +
        "' in --check (kinds: assert, invariant, index-out-of-bounds, "
        "null-deref, div-by-zero, negative-size, deadlock, float-conversion, overflow)");
  if (r.checks.empty()) r.tracked.fill(false);
  r.checks.push_back(*kind);
  r.tracked[static_cast<size_t>(*kind)] = true;
  if (r.deadlock) r.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)] = *r.deadlock;
}
Apply deadlock(bool on) {
  return [on](Invocation& inv, const std::string&) {
    Request& r = inv.common();
    if (r.deadlock && *r.deadlock != on)
      throw report::usageError("--deadlock and --no-deadlock conflict");
    r.deadlock = on;
    r.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)] = on;
  };
}
Apply refinement(bool value) {
  return on<ProveRequest>([value](ProveRequest& r, const std::string&) {
    if (r.refine && *r.refine != value)
      throw report::usageError("--refine and --no-refine conflict");
    r.refine = value;
  });
}
Apply por(bool value) {
  return on<CheckRequest>([value](CheckRequest& r, const std::string&) {
    if (r.por && *r.por != value) throw report::usageError("--por and --no-por conflict");
    r.por = value;
  });
}
Apply dse(engine::Dse mode) {
  return on<TestgenRequest>([mode](TestgenRequest& r, const std::string&) {
    if (r.dse != engine::Dse::Off && r.dse != mode)
      throw report::usageError("--compositional and --dse exclude each other");
    r.dse = mode;
  });
}
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
    {"entry", 0, V::Text, "PROC", "", "the entry procedure of an open system", kAnalyses | kReplay, {}, to(&Request::entry)},
    {"class", 0, V::Text, "C", "", "analyse class C (prove: its invariant; check: method sequences)", kCheck | kProve | kReplay, {}, to(&Request::cls)},
    {"max-calls", 0, V::Count, "N", "unbounded", "check --class: bound on the method calls after init", kCheck, {}, to(&CheckRequest::maxCalls)},
    {"args", 0, V::List, "A,B,...", "", "the entry procedure's arguments", kRun, {}, to(&RunRequest::args)},
    {"steps", 0, V::Count, "N", num(RunRequest{}.steps), "steps of the walk (a closed system walks exactly this many)", kRun, {}, to(&RunRequest::steps)},
    {"inputs", 0, V::Choice, "MODE", "symbolic", "check --entry: every input, or only the `test` inputs", kCheck, {"symbolic", "tests"}, on<CheckRequest>([](CheckRequest& r, const std::string& v) {
       if (v == "symbolic" && !r.testsFile.empty())
         throw report::usageError("--tests runs the tests of a file: it excludes --inputs symbolic");
       r.inputs = v == "tests" ? engine::Inputs::Tests : engine::Inputs::Symbolic;
     })},
    // Search and bounds.
    {"search", 0, V::Choice, "STRATEGY", "dfs", "search order (interleaved: coverage-guided and random in turn)", kCheck | kProve | kTestgen,
     names({search::Strategy::Dfs, search::Strategy::Bfs, search::Strategy::Random, search::Strategy::Coverage, search::Strategy::Interleaved}, &search::strategyName),
     parsed(parseSearch, &Request::search), std::pair{Command::Prove, std::string("bfs")}},
    {"threads", 0, V::Count, "N", "the cores", "workers of the explicit search of a closed system (dfs, bfs); they share one visited set, and 1 is the sequential search", kCheck, {}, to(&CheckRequest::threads)},
    {"store", 0, V::Choice, "KIND", "exact", "the visited set of the explicit search: exact (every state's bytes), tree (tree compression; dfs only), or the lossy hc (64-bit hash compaction) and bitstate (supertrace); a lossy store's exhausted search is unknown, with the probability that a state was omitted (dfs only)", kCheck, {"exact", "tree", "hc", "bitstate"}, parsed(parseStore, &CheckRequest::store)},
    {"bitstate-bits", 0, V::Count, "B", "27", "--store bitstate: an array of 2^B bits (8 to 40; 27 is 16 MiB, SPIN's -w27), 3 hash functions; the default shrinks to fit half of --memory-limit", kCheck, {}, on<CheckRequest>([](CheckRequest& r, const std::string& v) {
       const uint64_t b = std::stoull(v);
       if (b < 8 || b > 40) throw report::usageError("--bitstate-bits must be between 8 and 40 (2^B bits)");
       r.bitstateBits = static_cast<unsigned>(b);
     })},
    {"distributed", 0, V::Flag, "", "", "spread the explicit search of a closed system over the ranks of mpirun -np K (Open MPI; one rank without mpirun; docs/check.md)", kCheck, {}, to(&CheckRequest::distributed)},
    {"seed", 0, V::Natural, "N", num(Request{}.seed), "seed of every random choice", kCheck | kProve | kTestgen | kRun, {}, to(&Request::seed)},
    {"max-depth", 0, V::Count, "N", "none", "bound on the depth: of the state graph (check), of a path (symbolic execution), of the abstract state graph (prove), of the cutpoint graph (export-chc), on the steps (run)", kAnalyses, {}, on<Request>([](Request& r, const std::string& v) { assign(r.limits.maxDepth, v); })},
    {"max-states", 0, V::Count, "N", "none", "bound on the states: stored (check), expanded (symbolic execution), executed and triaged (prove), location vectors (export-chc), visited (run)", kAnalyses, {}, on<Request>([](Request& r, const std::string& v) { assign(r.limits.maxStates, v); })},
    {"timeout", 0, V::Seconds, "S", "none", "bound on the run time, in seconds", kAnalyses | kReplay, {}, on<Request>([](Request& r, const std::string& v) { assign(r.limits.timeoutSeconds, v); })},
    {"memory-limit", 0, V::Count, "MB", "none", "bound on the memory (resident set), in MB", kAnalyses | kReplay, {}, on<Request>([](Request& r, const std::string& v) { assign(r.limits.memoryLimitMb, v); })},
    // Properties.
    {"check", 0, V::List, "KIND,...", "all", "error kinds tracked: assert, invariant, index-out-of-bounds, null-deref, div-by-zero, negative-size, deadlock, float-conversion (int(x) of an f64 NaN or out of range), and overflow (i32/i64 arithmetic that wraps; only when listed)", kAnalyses, {}, on<Request>(addCheck)},
    {"invariant", 0, V::Repeated, "EXPR", "", "an extra safety property (an expression); repeatable", kCheck | kProve | kTestgen | kRun | kExport | kIr | kReplay, {}, to(&Request::invariants)},
    {"deadlock", 0, V::Flag, "", "on", "report deadlocks: states of closed systems where no process can move and some process is not at a valid end (the default)", kCheck | kRun | kProve | kExport, {}, deadlock(true)},
    {"no-deadlock", 0, V::Flag, "", "", "do not report deadlocks of closed systems", kCheck | kRun | kProve | kExport, {}, deadlock(false)},
    {"por", 0, V::Flag, "", "off", "partial-order reduction of a closed system (stubborn sets; preserves invariants, errors and deadlocks)", kCheck, {}, por(true)},
    {"no-por", 0, V::Flag, "", "", "explore every interleaving of a closed system (the default)", kCheck, {}, por(false)},
    // Output.
    {"json", 0, V::Flag, "", "", "print the JSON report on stdout (docs/json.md)", kAll | kReplay, {}, out(&Output::json)},
    {"trace", 0, V::Flag, "", "", "print the counterexample trace", kCheck | kProve | kTestgen | kCover | kReplay, {}, [](Invocation& inv, const std::string&) { inv.output.text.trace = true; }},
    {"trace-format", 0, V::Choice, "FORMAT", "text", "the trace's form: text, json (one object per step) or spin (as spin -t -p); implies --trace", kCheck | kProve | kTestgen | kCover | kReplay, {"text", "json", "spin"}, [](Invocation& inv, const std::string& v) {
       inv.output.text.traceFormat = *parseTraceFormat(v);
       inv.output.text.trace = true;
     }},
    {"format", 0, V::Choice, "FORMAT", "text", "prove: the report's form: text, or chc-comp (only sat for proved, unsat for error, unknown otherwise, as CHC-COMP reads a solver's answer)", kProve, {"text", "chc-comp"}, [](Invocation& inv, const std::string& v) { inv.output.chcComp = v == "chc-comp"; }},
    {"stats", 0, V::Flag, "", "", "print statistics", kAnalyses | kReplay, {}, [](Invocation& inv, const std::string&) { inv.output.text.stats = true; }},
    {"quiet", 0, V::Flag, "", "", "no progress line, no notes", kAnalyses | kReplay, {}, to(&Request::quiet)},
    {"progress", 0, V::Flag, "", "on a terminal", "a progress line on stderr once a second after 2 s", kAnalyses | kReplay, {}, out(&Output::progress)},
    {"dot", 0, V::Text, "FILE", "", "write the state graph (check) or the abstract state graph (prove) in Graphviz format", kCheck | kProve, {}, to(&CheckRequest::dot, &ProveRequest::dot)},
    {"dot-max-states", 0, V::Count, "N", num(engine::kDefaultDotMaxStates), "--dot: draw at most N states (the first stored) and the error path; the legend says when the graph is cut", kCheck, {}, to(&CheckRequest::dotMaxStates)},
    {"output", 'o', V::Text, "FILE", "stdout", "write the clauses to FILE", kExport, {}, to(&ExportChcRequest::output)},
    // The solver.
    {"solver", 0, V::Choice, "NAME", "z3", "the SMT back end", kSolvers, names({smt::Backend::Z3, smt::Backend::Cvc5}, &backendText), on<Request>([](Request& r, const std::string& v) { r.solver.backend = *smt::parseBackend(v); })},
    {"solver-timeout-ms", 0, V::Count, "MS", num(engine::SolverRequest{}.timeoutMs), "time limit of one solver query (the run's --timeout caps it too)", kSolvers, {}, on<Request>([](Request& r, const std::string& v) {
       r.solver.timeoutMs = static_cast<unsigned>(std::min<uint64_t>(std::stoull(v), 1u << 31));
     })},
    {"smt-log", 0, V::Text, "FILE", "", "log every solver query (SMT-LIB2) to FILE", kSolvers, {}, on<Request>([](Request& r, const std::string& v) { r.solver.smtLog = v; })},
    {"solver-cross-check", 0, V::Flag, "", "", "send every query to both back ends and compare", kSolvers, {}, on<Request>([](Request& r, const std::string&) { r.solver.crossCheck = true; })},
    {"check-proof", 0, V::Flag, "", "", "re-check a proof with the other back end", kProve, {}, to(&ProveRequest::checkProof)},
    {"certificate", 0, V::Text, "FILE", "", "proved: write the invariant to FILE as SMT-LIB definitions of the Horn clauses' predicates (the .smt2 input's, or export-chc's), which z3 and cvc5 can check", kProve, {}, to(&ProveRequest::certificate)},
    // prove (and the cutpoints of export-chc).
    {"cutpoints", 0, V::Choice, "MODE", "loops", "where states are abstracted: loops (loop heads, entries, exits, calls, assertions), paper (ISSTA'06 Sect. 4.2: entries, exits, loop heads, calls, memory accesses), or all (every location)", kProve | kExport,
     names({ir::CutpointMode::Loops, ir::CutpointMode::Paper, ir::CutpointMode::All}, &ir::cutpointModeName), parsed(ir::parseCutpointMode, &ProveRequest::cutpoints, &ExportChcRequest::cutpoints)},
    {"auto-predicates", 0, V::Flag, "", "", "add default predicates (ISSTA'06 Sect. 4.5), each in its procedure, class, process or global scope (used anyway when the model has no predicates)", kProve, {}, to(&ProveRequest::autoPredicates)},
    {"max-predicates", 0, V::Count, "N", num(engine::kDefaultMaxPredicates), "default predicates: at most N per scope", kProve, {}, to(&ProveRequest::maxPredicates)},
    {"refine", 0, V::Flag, "", "on for models without predicates", "while potential errors remain, decide the abstract path to each; when no execution follows it, add the predicates of its weakest preconditions and prove again (closed systems and procedures)", kProve, {}, refinement(true)},
    {"no-refine", 0, V::Flag, "", "", "the paper's method alone: no refinement, potential errors stay", kProve, {}, refinement(false)},
    {"max-refinements", 0, V::Count, "N", num(refine::kDefaultMaxRefinements), "refinement: at most N rounds", kProve, {}, to(&ProveRequest::maxRefinements)},
    {"hybrid", 0, V::Flag, "", "", "Sect. 5.3: end each execution once it stops finding new abstract states, and fabricate", kProve, {}, to(&ProveRequest::hybrid)},
    {"stall", 0, V::Count, "N", num(fabricate::kDefaultStall), "hybrid: concrete states in a row without a new abstract state that end an execution; implies --hybrid", kProve, {}, on<ProveRequest>([](ProveRequest& r, const std::string& v) {
       assign(r.stall, v);
       r.hybrid = true;  // --stall implies --hybrid
     })},
    {"execute-bound", 0, V::Count, "N", num(fabricate::kDefaultExecuteBound) + ", --hybrid: none", "concrete states per execution", kProve, {}, to(&ProveRequest::executeBound)},
    {"predicates", 0, V::Text, "FILE", "", "extra predicates, one expression per line", kProve, {}, to(&ProveRequest::predicatesFile)},
    {"engine", 0, V::Choice, "NAME", "fabricate", "fabricate (the paper's method), or the baselines models and eager", kProve, {"fabricate", "models", "eager"}, parsed(parseEngine, &ProveRequest::engine)},
    {"triage-max-states", 0, V::Count, "N", num(fabricate::TriageOptions{}.maxStates), "triage of the potential errors: bound on the states of each of its searches (explicit, symbolic)", kTriage, {}, on<ProveRequest>([](ProveRequest& r, const std::string& v) { assign(r.triage.maxStates, v); })},
    {"triage-max-depth", 0, V::Count, "N", "none", "triage: bound on the steps from an initial state (of a trace or a symbolic path)", kTriage, {}, on<ProveRequest>([](ProveRequest& r, const std::string& v) { assign(r.triage.maxDepth, v); })},
    {"triage-timeout", 0, V::Seconds, "S", num(fabricate::TriageOptions{}.timeoutSeconds), "triage: bound on its time, in seconds (within what --timeout leaves)", kTriage, {}, on<ProveRequest>([](ProveRequest& r, const std::string& v) { assign(r.triage.timeoutSeconds, v); })},
    {"triage-max-calls", 0, V::Count, "N", num(fabricate::TriageOptions{}.maxCalls), "triage of a class: bound on the method calls after init", kTriage, {}, on<ProveRequest>([](ProveRequest& r, const std::string& v) { assign(r.triage.maxCalls, v); })},
    // Symbolic execution and test generation.
    {"solving", 0, V::Choice, "MODE", "testgen: mixed, check: classic", "how path conditions are decided (docs/symbolic.md)", kCheck | kTestgen,
     names({Solving::Classic, Solving::Mixed, Solving::Exe, Solving::Dart}, &symbolic::solvingName), parsed(symbolic::parseSolving, &CheckRequest::solving, &TestgenRequest::solving)},
    {"heuristic", 0, V::Text, "NAME,...", "incremental", "--solving mixed: the ISSTA'11 heuristics, any of incremental, partition, random, comma-separated: each round of tries gives each one try, in this order (--paper-defaults: random)", kCheck | kTestgen, {}, on<CheckRequest, TestgenRequest>([](auto& r, const std::string& v) {
       std::string why;
       r.mixed.heuristics = symbolic::parseHeuristicList(v, &why);
       if (!r.mixed.heuristics) throw report::usageError("--heuristic: " + why);
     })},
    {"max-tries", 0, V::Count, "N", num(symbolic::MixedOptions{}.maxTries), "--solving mixed: rounds of tries of the heuristics (--paper-defaults: 1000); dart: restarts", kCheck | kTestgen, {}, on<CheckRequest, TestgenRequest>([](auto& r, const std::string& v) { assign(r.mixed.maxTries, v); })},
    {"paper-defaults", 0, V::Flag, "", "", "--solving mixed: the paper's settings: random solving (ISSTA'11 Sect. 3.5) as the heuristic and 1000 rounds of tries, unless --heuristic or --max-tries is given", kCheck | kTestgen, {}, on<CheckRequest, TestgenRequest>([](auto& r, const std::string&) { r.mixed.paperDefaults = true; })},
    {"compositional", 0, V::Flag, "", "", "testgen: demand-driven compositional dynamic symbolic execution (Anand, Godefroid, Tillmann, TACAS'08; docs/compositional.md)", kTestgen, {}, dse(engine::Dse::Compositional)},
    {"dse", 0, V::Flag, "", "", "testgen: the same dynamic symbolic execution loop over whole-program paths, every call inlined (the baseline of --compositional)", kTestgen, {}, dse(engine::Dse::WholeProgram)},
    {"target", 0, V::Text, "LABEL", "", "--compositional, --dse: the labelled location to reach (default: every branch)", kTestgen, {}, to(&TestgenRequest::target)},
    {"max-executions", 0, V::Count, "N", num(engine::kDefaultMaxExecutions), "--compositional, --dse: bound on the executions", kTestgen, {}, to(&TestgenRequest::maxExecutions)},
    {"guide", 0, V::Choice, "MODE", "", "testgen: guidance by verification annotations (Christakis, Mueller, Wuestholz, ICSE'16; docs/guided.md): ignore (annotations ignored), none (assertions verified true not checked), may (prune verified executions), must (unverified executions first), may-must", kTestgen,
     names({abstraction::Guide::Ignore, abstraction::Guide::None, abstraction::Guide::May, abstraction::Guide::Must, abstraction::Guide::MayMust}, &abstraction::guideName), parsed(parseGuide, &TestgenRequest::guide)},
    {"max-interrupts", 0, V::Natural, "N", num(engine::kDefaultMaxInterrupts), "--guide must, may-must: executions a `tryfirst` may set aside", kTestgen, {}, to(&TestgenRequest::maxInterrupts)},
    {"annotate", 0, V::Text, "OUT.tdm", "", "prove: write the program with `assumed`/`verified` annotations from Tandem's own partial proof, for guided testgen (docs/guided.md)", kProve, {}, to(&ProveRequest::annotate)},
    {"instrumented", 0, V::Flag, "", "", "ir: show the may/must-unverified conditions inferred at each location (docs/guided.md)", kIr, {}, to(&IrRequest::instrumented)},
    {"tests-out", 0, V::Text, "FILE", "", "write the tests to FILE as `test f(...)` declarations for check --tests=FILE (testgen: FILE.json writes JSON)", kTestgen | kCover, {}, to(&TestgenRequest::testsOut, &CoverRequest::testsOut)},
    {"all-errors", 0, V::Flag, "", "", "testgen: a test for every failing path (default: one per distinct error, its kind and statement, as KLEE)", kTestgen, {}, to(&TestgenRequest::allErrors)},
    {"max-tests", 0, V::Count, "N", "", "testgen: stop after N tests (the verdict is then unknown unless one fails)", kTestgen, {}, to(&TestgenRequest::maxTests)},
    {"exit-on-error", 0, V::Flag, "", "", "testgen: stop at the first failing test", kTestgen, {}, to(&TestgenRequest::exitOnError)},
    {"sarif", 0, V::Text, "FILE", "", "also write the report as SARIF 2.1.0 (one result per error or potential error, the trace as a code flow)", kCheck | kProve | kTestgen | kCover, {}, out(&Output::sarif)},
    {"junit", 0, V::Text, "FILE", "", "also write the report as JUnit XML (a test case per generated test, and one for the verdict)", kCheck | kProve | kTestgen | kCover, {}, out(&Output::junit)},
    {"fail-on", 0, V::List, "VERDICT,...", "", "exit 1 on these verdicts too, for CI: unknown, potential-error", kCheck | kProve | kTestgen | kCover | kRun, {}, [](Invocation& inv, const std::string& v) {
       if (v != "unknown" && v != "potential-error")
         throw report::usageError("--fail-on " + v + ": the verdicts it can make fail are unknown and potential-error");
       inv.output.failOn.push_back(v == "unknown" ? report::Verdict::Unknown : report::Verdict::PotentialError);
     }},
    {"tests", 0, V::Text, "FILE", "", "check --entry: run the `test` declarations of FILE (written by testgen or cover with --tests-out) with the model's own; implies --inputs tests", kCheck, {}, on<CheckRequest>([](CheckRequest& r, const std::string& v) {
       if (r.inputs == engine::Inputs::Symbolic)
         throw report::usageError("--tests runs the tests of a file: it excludes --inputs symbolic");
       r.testsFile = v;
       r.inputs = engine::Inputs::Tests;  // --tests implies --inputs tests
     })},
    // Bounded infeasible code detection.
    {"unwind", 0, V::Natural, "K", num(CoverRequest{}.unwind), "cover: iterations of each loop, and nested recursive calls, in the unwinding", kCover, {}, to(&CoverRequest::unwind)},
    {"algo", 0, V::Choice, "NAME", "statements", "cover: paths (AlgPC, blocking clauses), statements (AlgSC, enabling clauses) or fm (one query per location)", kCover,
     names({cover::Algo::Paths, cover::Algo::Statements, cover::Algo::Fm}, &cover::algoName), parsed(parseAlgo, &CoverRequest::algo)},
    {"no-guided", 0, V::Flag, "", "", "cover --algo statements: only enabling clauses, as the paper's AlgSC (default: a guided query through the most uncovered locations first)", kCover, {}, on<CoverRequest>([](CoverRequest& r, const std::string&) { r.guided = false; })},
    {"summaries", 0, V::Flag, "", "", "cover: calls of procedures that only touch their own locals become their tests' input/output pairs (computed bottom-up); what they leave open is asked again with the calls inlined", kCover, {}, to(&CoverRequest::summaries)},
    {"prove-infeasible", 0, V::Flag, "", "", "cover: ask prove whether each location infeasible within the bound is infeasible for every unwinding", kCover, {}, to(&CoverRequest::proveInfeasible)},
    {"natives", 0, V::Repeated, "LIB.so", "", "load native functions from a plugin; repeatable", kAnalyses | kReplay, {}, to(&Request::natives)},
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
