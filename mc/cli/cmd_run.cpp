// `tandem run FILE`: one concrete execution, printed step by step. Open systems run the entry
// procedure on `--args`; closed systems walk one random interleaving (`--steps N --seed S`).
#include <iomanip>
#include <ostream>
#include <random>

#include "mc/cli/check_setup.h"
#include "mc/cli/commands.h"
#include "mc/cli/report.h"
#include "mc/cli/trace_format.h"
#include "mc/exec/evaluator.h"

namespace tandem::cli {

namespace {

// `--args` text as a value of the parameter's type.
std::optional<exec::Value> parseArg(const std::string& text, TypeRef t) {
  if (t->kind == TypeKind::Bool) {
    if (text == "true") return exec::Value::boolean(true);
    if (text == "false") return exec::Value::boolean(false);
    return std::nullopt;
  }
  if (t->kind == TypeKind::Enum) {
    int i = t->memberIndex(text);
    if (i < 0) return std::nullopt;
    return exec::Value::enumMember(t, static_cast<uint32_t>(i));
  }
  if ((t->kind == TypeKind::Ref || t->kind == TypeKind::Class) && text == "null")
    return exec::Value::null();
  if (!t->isIntegral()) return std::nullopt;
  auto v = BigInt::parse(text);
  if (!v || (t->isBitVector() && !v->fitsIn(t->bitWidth()))) return std::nullopt;
  return exec::integralValue(t, *v);
}

// Inputs (globals without an initialiser) are drawn at random until every `init` holds.
template <typename Make>
std::optional<exec::State> startSatisfyingInits(const exec::Evaluator& ev, Make make,
                                                exec::Chooser& chooser, std::ostream& err) {
  constexpr int kTries = 1000;
  for (int i = 0; i < kTries; ++i) {
    auto st = make(chooser);
    if (!st.ok()) {
      err << "tandem: error: cannot build the initial state: " << st.error().message << "\n";
      return std::nullopt;
    }
    auto holds = ev.initsHold(st.value());
    if (holds.ok() && holds.value()) return std::move(st).value();
  }
  err << "tandem: error: no random choice of the inputs satisfied the `init` conditions in "
      << kTries << " tries; fix the inputs with `test { ... }` or initialisers\n";
  return std::nullopt;
}

struct RunState {
  std::vector<TraceStep> steps;
  std::optional<ErrorInfo> error;
  std::string stopped;  // why the run ended without an error
};

}  // namespace

int runRunCommand(const Options& o, const ir::Program& p, Io io) {
  auto tracked = trackedKinds(o, io.err);
  if (!tracked) return 2;
  exec::NativeRegistry natives;
  if (!loadNativePlugins(o, natives, io.err) || !checkNatives(p, natives, io.err)) return 2;
  exec::Evaluator ev(p, natives);
  exec::RandomChooser chooser(o.seed);
  std::mt19937_64 rng(o.seed);

  exec::State s;
  if (!p.isClosed() || !o.entry.empty()) {
    if (o.entry.empty()) {
      io.err << "tandem: error: " << o.file << " is an open system: give --entry PROC --args a,b\n";
      return 2;
    }
    ir::CfaId entry = p.findCfaId(o.entry, ir::CfaKind::Proc);
    if (entry == ir::kNone) {
      io.err << "tandem: error: no procedure '" << o.entry << "' in " << o.file << "\n";
      return 2;
    }
    const ir::Cfa& c = p.cfas[entry];
    std::vector<std::string> texts = o.args;
    if (texts.size() == 1 && texts[0].empty()) texts.clear();
    if (texts.size() != c.params.size()) {
      io.err << "tandem: error: '" << o.entry << "' takes " << c.params.size()
             << " arguments, --args gives " << texts.size() << "\n";
      return 2;
    }
    std::vector<exec::Value> args;
    for (size_t i = 0; i < texts.size(); ++i) {
      TypeRef t = p.vars[c.params[i]].type;
      auto v = parseArg(texts[i], t);
      if (!v) {
        io.err << "tandem: error: argument " << i + 1 << " '" << texts[i]
               << "' is not a value of type '" << typeToString(t) << "'\n";
        return 2;
      }
      args.push_back(*v);
    }
    auto made = startSatisfyingInits(
        ev, [&](exec::Chooser& c) { return ev.makeEntryState(entry, args, c); }, chooser, io.err);
    if (!made) return 2;
    s = std::move(*made);
  } else {
    auto made = startSatisfyingInits(
        ev, [&](exec::Chooser& c) { return ev.makeInitialState(c); }, chooser, io.err);
    if (!made) return 2;
    s = std::move(*made);
  }

  auto isTracked = [&](ir::ErrorKind k) { return (*tracked)[static_cast<size_t>(k)]; };
  RunState run;
  auto fail = [&](const exec::ExecError& e, const std::string& label) {
    ErrorInfo info;
    info.kind = ir::errorKindName(e.kind);
    info.label = label;
    info.line = e.loc.line;
    info.message = e.message;
    run.error = std::move(info);
  };
  if (auto inv = ev.checkInvariants(s); !inv.ok() && isTracked(ir::ErrorKind::Invariant))
    fail(inv.error(), "");
  exec::ThreadId atomicThread = exec::kNoThread;  // keeps the turn inside `atomic`
  for (uint64_t step = 0; !run.error; ++step) {
    if (step >= o.steps) {
      run.stopped = "step bound " + std::to_string(o.steps) + " reached";
      break;
    }
    // The movable threads (the one inside an atomic block keeps the turn).
    std::vector<std::pair<exec::ThreadId, ir::EdgeId>> moves;
    for (exec::ThreadId t = 0; t < s.threads.size(); ++t) {
      if (atomicThread != exec::kNoThread && atomicThread != t) continue;
      for (auto e : ev.enabledEdges(s, t)) moves.emplace_back(t, e);
    }
    if (moves.empty() &&
        atomicThread != exec::kNoThread) {  // blocked inside atomic: atomicity is lost
      atomicThread = exec::kNoThread;
      for (exec::ThreadId t = 0; t < s.threads.size(); ++t)
        for (auto e : ev.enabledEdges(s, t)) moves.emplace_back(t, e);
    }
    if (moves.empty()) {
      bool done = true;
      for (exec::ThreadId t = 0; t < s.threads.size(); ++t) done = done && ev.terminated(s, t);
      run.stopped = done           ? "terminated"
                    : p.isClosed() ? "deadlock: no process can move"
                                   : "blocked: an assume or guard does not hold";
      break;
    }
    auto [t, e] = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)];
    exec::State before = s;
    std::string label = p.locName(s.threads[t].top().pc);
    auto r = ev.execute(s, t, e, chooser);
    TraceStep ts;
    ts.step = step;
    if (p.isClosed()) ts.process = threadName(p, before, t);
    ts.label = label;
    ts.statement = p.edges[e].text;
    if (r.status() == exec::StepStatus::Error) {
      const auto& err = r.error();
      if (err.limit) {
        run.stopped = "could not execute: " + err.message;
        run.steps.push_back(std::move(ts));
        break;
      }
      run.steps.push_back(std::move(ts));
      if (isTracked(err.kind))
        fail(err, label);
      else
        run.stopped =
            std::string("untracked ") + ir::errorKindName(err.kind) + " ended the execution";
      break;
    }
    auto a = stateValues(p, before), b = stateValues(p, s);
    for (auto& [k, v] : b)
      if (a[k] != v) ts.changed[k] = v;
    ts.state = stateJson(p, s);
    if (p.isClosed()) ts.locations = locationsJson(p, s);
    run.steps.push_back(std::move(ts));
    atomicThread = exec::kNoThread;
    if (p.locs[s.threads[t].top().pc].atomic) atomicThread = t;
    if (auto inv = ev.checkInvariants(s); !inv.ok() && isTracked(ir::ErrorKind::Invariant))
      fail(inv.error(), label);
  }

  Report rep;
  rep.command = "run";
  rep.file = o.file;
  // A closed system walks exactly the --steps asked for; an open one should terminate.
  bool boundHit = (!p.isClosed() && run.stopped.rfind("step bound", 0) == 0) ||
                  run.stopped.rfind("could not", 0) == 0;
  rep.verdict = run.error ? Verdict::Error : boundHit ? Verdict::Unknown : Verdict::Completed;
  if (!run.error) rep.reason = run.stopped;
  rep.stats["steps"] = run.steps.size();
  rep.stats["executions"] = 1;
  if (run.error) {
    run.error->trace = run.steps;
    rep.error = run.error;
  } else {
    rep.extra["trace"] = nlohmann::json::array();
    for (auto& st : run.steps)
      rep.extra["trace"].push_back({{"step", st.step},
                                    {"label", st.label},
                                    {"statement", st.statement},
                                    {"state", st.state}});
  }
  rep.extra["final_state"] = stateJson(p, s);
  if (o.json) {
    printJson(io.out, rep);
    return exitCode(rep.verdict);
  }
  printTrace(io.out, run.steps);
  if (run.error) {
    io.out << "error: " << run.error->kind << " at " << run.error->label;
    if (run.error->line) io.out << " (line " << run.error->line << ")";
    io.out << ": " << run.error->message << "\n";
  } else {
    io.out << run.stopped << " after " << run.steps.size() << " steps\n";
  }
  return exitCode(rep.verdict);
}

}  // namespace tandem::cli
