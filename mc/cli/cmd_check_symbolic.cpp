// `tandem check --entry P` on an open system with inputs, and `tandem check --class C` (the
// class analysis: init, then sequences of method calls with symbolic arguments): symbolic
// execution (mc/symbolic). An error is reported only once its inputs replay to it in the reference
// evaluator; `verified` only when every path ended, no bound cut one (--max-calls included) and
// the solver never answered unknown.
#include <algorithm>
#include <ostream>

#include "mc/cli/check_setup.h"
#include "mc/cli/symbolic_commands.h"
#include "mc/cli/trace_format.h"
#include "mc/search/explorer.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_factory.h"

namespace tandem::cli {

namespace symbolic_cli {

std::optional<symbolic::ExploreOptions> exploreOptions(const Options& o, const ir::Program& p,
                                                       std::ostream& err) {
  auto tracked = trackedKinds(o, err);
  if (!tracked) return std::nullopt;
  symbolic::ExploreOptions eo;
  if (!o.cls.empty()) {
    if (!o.entry.empty()) {
      err << "tandem: error: --entry and --class exclude each other: give one of them\n";
      return std::nullopt;
    }
    auto it = std::find_if(p.classes.begin(), p.classes.end(),
                           [&](const ir::ClassInfo& c) { return c.name == o.cls; });
    if (it == p.classes.end()) {
      err << "tandem: error: no class '" << o.cls << "' in " << o.file << "\n";
      return std::nullopt;
    }
    if (o.inputs == "tests") {
      err << "tandem: error: --inputs tests applies to --entry only\n";
      return std::nullopt;
    }
    eo.entry = it->init;
    eo.maxCalls = o.maxCalls;
  } else {
    eo.entry = p.findCfaId(o.entry, ir::CfaKind::Proc);
    if (o.entry.empty() || eo.entry == ir::kNone) {
      err << "tandem: error: no procedure '" << o.entry << "' in " << o.file << "\n";
      return std::nullopt;
    }
  }
  if (p.isClosed() || !p.invariants.empty() || !o.invariants.empty()) {
    err << "tandem: error: symbolic execution of closed systems and of invariants is not "
           "implemented yet\n";
    return std::nullopt;
  }
  // testgen solves mixed by default (CLI.md); check keeps classic unless --solving is given, so
  // its verdicts do not depend on concrete runs unless asked for.
  const std::string solving = o.command == "check" && !o.solvingGiven ? "classic" : o.solving;
  auto mode = symbolic::parseSolving(solving);
  auto heuristic = symbolic::parseHeuristic(o.heuristic);
  if (!mode || !heuristic) {
    err << "tandem: error: unknown --solving or --heuristic\n";
    return std::nullopt;
  }
  eo.solving = *mode;
  eo.mixed.heuristic = *heuristic;
  eo.mixed.maxTries = o.maxTries;
  eo.mixed.seed = o.seed;
  eo.tracked = *tracked;
  eo.search = o.search;
  eo.seed = o.seed;
  eo.maxDepth = o.maxDepth;
  eo.maxStates = o.maxStates;
  eo.timeoutSeconds = o.timeout;
  eo.memoryLimitMb = o.memoryLimitMb;
  eo.progress = o.quiet ? nullptr : &err;
  return eo;
}

std::unique_ptr<smt::Solver> makeSolver(const Options& o, const ir::Program& p, std::ostream& err) {
  auto backend = smt::parseBackend(o.solver);
  if (!backend) {
    err << "tandem: error: unknown solver '" << o.solver << "' (z3, cvc5)\n";
    return nullptr;
  }
  smt::SolverOptions so;
  so.backend = *backend;
  so.timeoutMs = static_cast<unsigned>(o.solverTimeoutMs);
  so.logPath = o.smtLog;
  so.crossCheck = o.solverCrossCheck;
  so.report = &err;
  try {
    return smt::makeSolver(so, smt::programNaming(p));
  } catch (const smt::SmtError& e) {
    err << "tandem: error: " << e.what() << "\n";
    return nullptr;
  }
}

std::string callText(const ir::Program& p, ir::CfaId cfa, const std::vector<exec::Value>& args) {
  const ir::Cfa& c = p.cfas[cfa];
  std::string name = c.kind == ir::CfaKind::ClassInit ? p.classes[c.classIndex].name : c.name;
  if (c.kind == ir::CfaKind::Method) name = name.substr(name.rfind('.') + 1);
  std::string out = name + "(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i].toString();
  return out + ")";
}

std::vector<TraceStep> replayTrace(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                                   const symbolic::PathEnd& end) {
  const bool classAnalysis = p.cfas[entry].kind == ir::CfaKind::ClassInit;
  std::vector<TraceStep> steps;
  for (size_t i = 0; i < end.path.size() && i < r.states.size(); ++i) {
    const exec::State& before = r.before(i);
    TraceStep ts;
    ts.step = i;
    if (classAnalysis) {  // the call this step belongs to
      ts.process = callText(p, entry, end.args);
      for (const symbolic::CallInputs& c : end.calls)
        if (c.pathStart <= i) ts.process = callText(p, c.method, c.args);
    }
    ts.label = p.locName(before.threads[0].top().pc);
    ts.statement = p.edges[end.path[i]].text;
    const exec::State& after = i + 1 < r.states.size() ? r.states[i + 1] : before;
    auto a = stateValues(p, before), b = stateValues(p, after);
    for (auto& [k, v] : b)
      if (a[k] != v) ts.changed[k] = v;
    ts.state = stateJson(p, after);
    steps.push_back(std::move(ts));
  }
  return steps;
}

nlohmann::json valueJson(const exec::Value& v) {
  if (v.isIntegral() && v.toBigInt().toInt64()) return *v.toBigInt().toInt64();
  if (v.kind() == exec::ValueKind::Bool) return v.asBool();
  if (v.kind() == exec::ValueKind::Array) {
    nlohmann::json a = nlohmann::json::array();
    for (const exec::Value& x : v.elements()) a.push_back(valueJson(x));
    return a;
  }
  return v.toString();
}

nlohmann::json callsJson(const ir::Program& p, ir::CfaId entry, const symbolic::PathEnd& end) {
  nlohmann::json calls = nlohmann::json::array();
  auto add = [&](ir::CfaId cfa, const std::vector<exec::Value>& args) {
    const ir::Cfa& c = p.cfas[cfa];
    nlohmann::json named = nlohmann::json::object();
    for (size_t i = 0; i < args.size() && i < c.params.size(); ++i)
      named[p.vars[c.params[i]].name] = valueJson(args[i]);
    const std::string method =
        c.kind == ir::CfaKind::ClassInit ? "init" : c.name.substr(c.name.rfind('.') + 1);
    calls.push_back({{"method", method}, {"call", callText(p, cfa, args)}, {"args", named}});
  };
  add(entry, end.args);
  for (const symbolic::CallInputs& c : end.calls) add(c.method, c.args);
  return calls;
}

nlohmann::json inputsJson(const symbolic::PathEnd& end) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : end.inputs) j[name] = valueJson(v);
  return j;
}

void addSolvingStats(nlohmann::json& stats, const symbolic::ExploreResult& r) {
  const symbolic::SolvingStats& s = r.solving;
  stats["solver_unknown"] = r.unknownAnswers;
  stats["undecided"] = s.undecided;
  stats["mixed_checks"] = s.mixedChecks;
  stats["mixed_tries"] = s.tries;
  stats["heuristic_successes"] = s.heuristicSuccesses;
  stats["mixed_exhausted"] = s.exhausted;
  stats["concretizations"] = s.concretizations;
  stats["dart_runs"] = s.runs;
  stats["dart_restarts"] = s.restarts;
  stats["dart_mispredictions"] = s.mispredictions;
}

void addSolvingKeys(nlohmann::json& extra, const symbolic::ExploreOptions& eo) {
  extra["solving"] = symbolic::solvingName(eo.solving);
  if (eo.solving == symbolic::Solving::Mixed) {
    extra["heuristic"] = symbolic::heuristicName(eo.mixed.heuristic);
    extra["max_tries"] = eo.mixed.maxTries;
  } else if (eo.solving == symbolic::Solving::Dart) {
    extra["max_tries"] = eo.mixed.maxTries;
  }
}

std::unique_ptr<Run> explore(const Options& o, const ir::Program& p, bool stopAtError,
                             std::ostream& err) {
  auto run = std::make_unique<Run>();
  auto eo = exploreOptions(o, p, err);
  if (!eo) return nullptr;
  run->options = *eo;
  run->options.stopAtError = stopAtError;
  const ir::Cfa& entry = p.cfas[eo->entry];
  const bool unbounded = entry.kind == ir::CfaKind::ClassInit && !o.maxCalls && !o.timeout &&
                         !o.maxStates && !o.maxDepth && !o.memoryLimitMb &&
                         !p.classes[entry.classIndex].methods.empty();
  if (unbounded && !o.quiet)
    err << "tandem: note: no --max-calls: the number of method calls is unbounded; the search "
           "stops at an error or a bound (--timeout, --max-states, --max-depth)\n";
  if (!loadNativePlugins(o, run->natives, err) || !checkNatives(p, run->natives, err))
    return nullptr;
  run->solver = makeSolver(o, p, err);
  if (!run->solver) return nullptr;
  run->ev = std::make_unique<exec::Evaluator>(p, run->natives);
  try {
    run->result = symbolic::exploreSymbolic(p, *run->ev, *run->solver, run->options);
  } catch (const symbolic::NotImplemented& e) {
    err << "tandem: error: " << e.what() << "\n";
    return nullptr;
  } catch (const smt::SmtError& e) {
    err << "tandem: error: solver failure: " << e.what() << "\n";
    return nullptr;
  }
  return run;
}

}  // namespace symbolic_cli

int runSymbolicCheck(const Options& o, const ir::Program& p, Io io) {
  auto run = symbolic_cli::explore(o, p, /*stopAtError=*/true, io.err);
  if (!run) return 2;
  const auto* eo = &run->options;
  exec::Evaluator& ev = *run->ev;
  const symbolic::ExploreResult& r = run->result;

  Report rep;
  rep.command = "check";
  rep.file = o.file;
  switch (r.outcome) {
    case symbolic::Outcome::Complete:
      rep.verdict = Verdict::Verified;
      break;
    case symbolic::Outcome::Incomplete:
      rep.verdict = Verdict::Unknown;
      rep.reason = r.reason;
      break;
    case symbolic::Outcome::ErrorFound: {
      const symbolic::PathEnd& end = r.ends.back();
      symbolic::Replay rp = symbolic::replayPath(ev, eo->entry, end);
      if (!rp.followed) {
        rep.verdict = Verdict::Unknown;
        if (end.exceedsLimits) {
          rep.reason =
              "the error path needs an array longer than the reference evaluator's "
              "limit, so its counterexample cannot be replayed (" +
              rp.problem + ")";
        } else if (end.usesUninterpreted) {
          rep.reason =
              "the error path depends on calls treated as uninterpreted functions and "
              "its inputs do not reach it concretely (" +
              rp.problem + ")";
        } else {
          io.err << "tandem: INTERNAL ERROR: the symbolic counterexample did not replay in the "
                    "reference evaluator ("
                 << rp.problem << "); please report this bug\n";
          rep.reason = "internal error: counterexample replay failed: " + rp.problem;
        }
        break;
      }
      rep.verdict = Verdict::Error;
      ErrorInfo e;
      e.kind = ir::errorKindName(rp.error->kind);
      e.message = rp.error->message;
      e.line = rp.error->loc.line;
      e.trace = symbolic_cli::replayTrace(p, eo->entry, rp, end);
      e.label = p.locName(rp.errorLoc);
      rep.error = std::move(e);
      rep.extra["inputs"] = symbolic_cli::inputsJson(end);
      if (!o.cls.empty()) rep.extra["calls"] = symbolic_cli::callsJson(p, eo->entry, end);
      break;
    }
  }
  rep.stats["states"] = r.states;
  rep.stats["paths"] = r.paths;
  rep.stats["depth"] = r.maxDepth;
  rep.stats["solver_queries"] = r.solverQueries;
  rep.stats["time_s"] = r.seconds;
  symbolic_cli::addSolvingStats(rep.stats, r);
  rep.stats["peak_rss_mb"] = search::peakRssMb();
  if (!o.cls.empty()) {
    rep.stats["calls"] = r.maxCalls;
    rep.stats["completed_calls"] = r.completedCalls;
    rep.stats["call_bound_cuts"] = r.callCuts;
    rep.extra["class"] = o.cls;
    rep.extra["max_calls"] = o.maxCalls ? nlohmann::json(*o.maxCalls) : nlohmann::json(nullptr);
  }
  rep.extra["search"] = o.search;
  symbolic_cli::addSolvingKeys(rep.extra, *eo);
  rep.extra["engine"] = "symbolic";
  rep.extra["solver"] = o.solver;
  if (o.json) {
    printJson(io.out, rep);
    return exitCode(rep.verdict);
  }
  io.out << "verdict: " << verdictName(rep.verdict);
  if (!rep.reason.empty()) io.out << " (" << rep.reason << ")";
  io.out << "\n";
  if (rep.error) {
    io.out << "error: " << rep.error->kind << " at " << rep.error->label;
    if (rep.error->line) io.out << " (line " << rep.error->line << ")";
    if (!rep.error->message.empty()) io.out << ": " << rep.error->message;
    io.out << "\ninputs: " << rep.extra["inputs"].dump() << "\n";
    if (rep.extra.contains("calls")) {
      io.out << "calls:";
      std::string sep = " ";
      for (const auto& c : rep.extra["calls"]) {
        io.out << sep << c["call"].get<std::string>();
        sep = "; ";
      }
      io.out << "\n";
    }
    if (o.trace)
      printTrace(io.out, rep.error->trace);
    else
      io.out << "(" << rep.error->trace.size() << " steps; --trace prints them)\n";
  }
  io.out << r.states << " symbolic states, " << r.paths << " paths, " << r.solverQueries
         << " solver queries, " << r.seconds << " s\n";
  if (o.stats) io.out << rep.stats.dump(2) << "\n";
  return exitCode(rep.verdict);
}

}  // namespace tandem::cli
