// `tandem run FILE`: one concrete execution, reported step by step as it happens (no trace is
// held in memory: a run may be long). Open systems run the entry procedure on `--args`; closed
// systems walk one random interleaving (`--steps N --seed S`). The budget bounds the walk like
// any search (a single path): --max-depth and --max-states bound its steps and states.
#include <deque>
#include <map>
#include <random>

#include "engine/api.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/system.h"
#include "mc/expr/float64.h"
#include "report/trace_steps.h"

namespace tandem::engine {

namespace {

// The error report keeps the last steps before the error (the whole run went to the observer).
constexpr size_t kErrorTraceSteps = 1000;

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
  if (t->kind == TypeKind::F64) {  // a literal, an integer, a sign, or nan / inf / -inf
    auto d = f64::parse(text);
    if (!d) return std::nullopt;
    return exec::Value::f64(*d);
  }
  if (!t->isIntegral()) return std::nullopt;
  auto v = BigInt::parse(text);
  if (!v || (t->isBitVector() && !v->fitsIn(t->bitWidth()))) return std::nullopt;
  return exec::integralValue(t, *v);
}

// Inputs (globals without an initialiser) are drawn at random until every `init` holds. An
// initialiser that fails for them is the model's error, reported as a failing step would be.
template <typename Make>
exec::Result<exec::State> startSatisfyingInits(const exec::Evaluator& ev, Make make,
                                               exec::Chooser& chooser, const std::string& file) {
  constexpr int kTries = 1000;
  for (int i = 0; i < kTries; ++i) {
    auto st = make(chooser);
    if (!st.ok() && st.error().excluded) continue;
    if (!st.ok() && st.error().limit)
      throw inputError(file, "cannot build the initial state: " + st.error().message);
    if (!st.ok()) return st;
    auto holds = ev.initsHold(st.value());
    if (holds.ok() && holds.value()) return st;
  }
  throw inputError(file, "no random choice of the inputs satisfied the `init` conditions in " +
                             std::to_string(kTries) +
                             " tries; fix the inputs with `test { ... }` or initialisers");
}

std::vector<exec::Value> entryArgs(const ir::Program& p, ir::CfaId entry, const RunRequest& r) {
  const ir::Cfa& c = p.cfas[entry];
  std::vector<std::string> texts = r.args;
  if (texts.size() == 1 && texts[0].empty()) texts.clear();
  if (texts.size() != c.params.size())
    throw usageError("'" + r.entry + "' takes " + std::to_string(c.params.size()) +
                     " arguments, --args gives " + std::to_string(texts.size()));
  std::vector<exec::Value> args;
  for (size_t i = 0; i < texts.size(); ++i) {
    TypeRef t = p.vars[c.params[i]].type;
    auto v = parseArg(texts[i], t);
    if (!v)
      throw usageError("argument " + std::to_string(i + 1) + " '" + texts[i] +
                       "' is not a value of type '" + typeToString(t) + "' (--args)");
    args.push_back(*v);
  }
  return args;
}

// The walk itself: one step at a time, each reported and then forgotten.
class Walk {
 public:
  Walk(const ir::Program& p, const RunRequest& r, exec::Evaluator& ev, search::Budget& budget,
       StepObserver& observer)
      : p_(p),
        r_(r),
        ev_(ev),
        sys_(ev),
        budget_(budget),
        observer_(observer),
        chooser_(r.seed),
        rng_(r.seed) {}

  void go(exec::State& s);
  // The initial state could not be built: `e` fails an initialiser.
  void failedToStart(const exec::ExecError& e) {
    if (tracked(e.kind))
      fail(e, "(initial state)");
    else
      stopped = std::string("untracked ") + ir::errorKindName(e.kind) + " ended the execution";
  }
  exec::RandomChooser& chooser() { return chooser_; }

  std::optional<ErrorInfo> error;
  std::string stopped;  // why the run ended without an error
  bool boundHit = false;
  uint64_t steps = 0;
  std::deque<TraceStep> recent;  // the last kErrorTraceSteps steps

 private:
  bool tracked(ir::ErrorKind k) const { return r_.tracked[static_cast<size_t>(k)]; }
  void fail(const exec::ExecError& e, const std::string& label) {
    ErrorInfo info;
    info.kind = ir::errorKindName(e.kind);
    info.label = label;
    info.line = e.loc.line;
    info.message = e.message;
    error = std::move(info);
  }
  void record(TraceStep ts) {
    observer_.step(ts);
    recent.push_back(std::move(ts));
    if (recent.size() > kErrorTraceSteps) recent.pop_front();
  }
  // Whether a bound ends the walk before its next step (`stopped` says which).
  bool outOfBudget();

  const ir::Program& p_;
  const RunRequest& r_;
  exec::Evaluator& ev_;
  exec::System sys_;
  search::Budget& budget_;
  StepObserver& observer_;
  exec::RandomChooser chooser_;
  std::mt19937_64 rng_;
};

bool Walk::outOfBudget() {
  if (steps >= r_.steps) {
    stopped = "step bound " + std::to_string(r_.steps) + " reached";
    // A closed system walks exactly the --steps asked for; an open one should terminate.
    boundHit = !p_.isClosed();
    return true;
  }
  if (budget_.depthExceeded(steps)) budget_.stop(search::StopKind::Depth);
  if (budget_.chargeState() || budget_.poll()) {
    stopped = budget_.stopped()->reason;
    boundHit = true;
    return true;
  }
  return false;
}

void Walk::go(exec::State& s) {
  if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant))
    fail(inv.error(), "");
  exec::ThreadId turn = exec::kNoThread;  // inside `atomic`, its thread keeps the turn
  while (!error) {
    if (outOfBudget()) return;
    if (turn != exec::kNoThread && sys_.turnIn(s, turn) == exec::kNoThread) {
      turn = exec::kNoThread;  // blocked inside atomic
      // The block ends here, so its state is one the others see: the invariants hold in it.
      if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant)) {
        fail(inv.error(), recent.empty() ? "" : recent.back().label);
        return;
      }
    }
    const std::vector<exec::Move> moves = sys_.enabledMoves(s, turn, chooser_);
    if (moves.empty()) {
      const exec::SystemStatus status = sys_.status(s, false);
      if (status == exec::SystemStatus::Deadlock && tracked(ir::ErrorKind::Deadlock)) {
        error = ErrorInfo{"deadlock", "(deadlock)", 0, "no process can move", {}, {}, false};
        if (!recent.empty()) error->label = recent.back().label;
        return;
      }
      stopped = sys_.allTerminated(s) ? "terminated"
                : status == exec::SystemStatus::ValidEnd
                    ? "no process can move: every process is at a valid end state"
                : status == exec::SystemStatus::Deadlock
                    ? "deadlock: no process can move"
                    : "blocked: an assume or guard does not hold";
      return;
    }
    const exec::Move mv = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng_)];
    const exec::ThreadId t = mv.thread;
    const ir::EdgeId e = mv.edge;
    // What the step report needs of the state before it, not a copy of the state: that costs
    // its depth per step (run_deep_recursion.tdm, depth 10,000: 8.5 s, quadratic).
    const std::map<std::string, std::string> before = report::stateValues(p_, s);
    const std::vector<size_t> framesBefore = report::frameCounts(s);
    TraceStep ts;
    if (p_.isClosed()) ts.process = report::threadName(p_, s, t);
    ts.label = p_.locName(s.threads[t].top().pc);
    ts.statement = p_.edges[e].text;
    ts.line = p_.edges[e].loc.line;
    if (mv.isRendezvous())
      ts.statement +=
          "  =>  " + report::threadName(p_, s, mv.partner) + ": " + p_.edges[mv.partnerEdge].text;
    const std::string label = ts.label;
    auto res = sys_.step(s, mv, chooser_);
    ts.step = steps++;
    if (res.status() == exec::StepStatus::Error) {
      const auto& err = res.error();
      record(std::move(ts));
      if (err.limit) {
        stopped = "could not execute: " + err.message;
        boundHit = true;
      } else if (tracked(err.kind)) {
        fail(err, label);
      } else {
        stopped = std::string("untracked ") + ir::errorKindName(err.kind) + " ended the execution";
      }
      return;
    }
    ts.changed = report::changedValues(p_, before, framesBefore, s);
    ts.state = report::stateJson(p_, s);
    if (p_.isClosed()) ts.locations = report::locationsJson(p_, s);
    record(std::move(ts));
    turn = sys_.turnAfter(s, mv);
    // Inside `atomic` the states between its statements are not states of the model (the block
    // is one step, LANGUAGE.md; check's successors never show them): no invariant is checked
    // there (found by difftest, seed 10690: run failed an invariant that check verified).
    if (turn != exec::kNoThread) continue;
    if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant))
      fail(inv.error(), label);
  }
}

}  // namespace

Report run(const ir::Program& p, const RunRequest& r, StepObserver& observer) {
  if (!r.cls.empty()) throw usageError("run --class is not implemented (run --entry P --args ...)");
  const ir::CfaId entry = entryOf(r, p);
  if (entry == ir::kNone && !r.args.empty())
    throw usageError("--args applies to open systems (run --entry P --args a,b)");
  if (entry != ir::kNone && r.deadlock)
    throw usageError("--deadlock and --no-deadlock apply to closed systems");
  exec::NativeRegistry natives;
  loadNatives(r, p, natives);
  RunBudget rb(r);
  exec::Evaluator ev(p, natives);
  Walk walk(p, r, ev, rb.budget, observer);
  auto start = [&]() -> exec::Result<exec::State> {
    if (entry == ir::kNone)
      return startSatisfyingInits(
          ev, [&](exec::Chooser& c) { return ev.makeInitialState(c); }, walk.chooser(), r.file);
    const std::vector<exec::Value> args = entryArgs(p, entry, r);
    return startSatisfyingInits(
        ev, [&](exec::Chooser& c) { return ev.makeEntryState(entry, args, c); }, walk.chooser(),
        r.file);
  }();
  if (start.ok())
    walk.go(start.value());
  else
    walk.failedToStart(start.error());

  Report rep;
  rep.command = "run";
  rep.file = r.file;
  rep.verdict = walk.error ? Verdict::Error : walk.boundHit ? Verdict::Unknown : Verdict::Completed;
  if (!walk.error) rep.reason = walk.stopped;
  rep.stats["steps"] = walk.steps;
  rep.stats["states"] = walk.steps + 1;
  rep.stats["executions"] = 1;
  addRunStats(rep.stats, rb.budget);
  if (walk.error) {
    walk.error->trace.assign(walk.recent.begin(), walk.recent.end());
    if (walk.steps > walk.recent.size())
      rep.extra["error_trace_from_step"] = walk.recent.front().step;
    rep.error = walk.error;
  }
  if (start.ok()) rep.extra["final_state"] = report::stateJson(p, start.value());
  return rep;
}

}  // namespace tandem::engine
