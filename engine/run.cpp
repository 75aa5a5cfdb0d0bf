// `tandem run FILE`: one concrete execution (search::RandomWalk), reported step by step as it
// happens (no trace is held in memory: a run may be long). Open systems run the entry procedure on
// `--args`; closed systems walk one random interleaving (`--steps N --seed S`).
#include <deque>
#include <map>

#include "engine/api.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/expr/float64.h"
#include "mc/search/driver/random_walk.h"
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

// Each step of the walk as a trace step to the observer; the last kErrorTraceSteps kept for the
// error's trace.
class StepRecorder final : public search::WalkObserver {
 public:
  StepRecorder(const ir::Program& p, StepObserver& observer) : p_(p), observer_(observer) {}

  void before(const exec::State& s, const exec::Move& mv) override {
    // What the step report needs of the state before it, not a copy of the state: that costs
    // its depth per step (run_deep_recursion.tdm, depth 10,000: 8.5 s, quadratic).
    values_ = report::stateValues(p_, s);
    frames_ = report::frameCounts(s);
    ts_ = TraceStep{};
    if (p_.isClosed()) ts_.process = report::threadName(p_, s, mv.thread);
    ts_.label = p_.locName(s.threads[mv.thread].top().pc);
    ts_.statement = p_.edges[mv.edge].text;
    ts_.line = p_.edges[mv.edge].loc.line;
    if (mv.isRendezvous())
      ts_.statement +=
          "  =>  " + report::threadName(p_, s, mv.partner) + ": " + p_.edges[mv.partnerEdge].text;
  }

  void after(const exec::State& s, const exec::Move&, uint64_t step, bool failed) override {
    ts_.step = step;
    if (!failed) {
      ts_.changed = report::changedValues(p_, values_, frames_, s);
      ts_.state = report::stateJson(p_, s);
      if (p_.isClosed()) ts_.locations = report::locationsJson(p_, s);
    }
    observer_.step(ts_);
    recent.push_back(std::move(ts_));
    if (recent.size() > kErrorTraceSteps) recent.pop_front();
  }

  std::deque<TraceStep> recent;  // the last kErrorTraceSteps steps

 private:
  const ir::Program& p_;
  StepObserver& observer_;
  std::map<std::string, std::string> values_;
  std::vector<size_t> frames_;
  TraceStep ts_;
};

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
  search::WalkOptions wo;
  wo.steps = r.steps;
  wo.seed = r.seed;
  wo.tracked = r.tracked;
  search::RandomWalk walk(p, ev, rb.budget, wo);
  auto start = [&]() -> exec::Result<exec::State> {
    if (entry == ir::kNone)
      return startSatisfyingInits(
          ev, [&](exec::Chooser& c) { return ev.makeInitialState(c); }, walk.chooser(), r.file);
    const std::vector<exec::Value> args = entryArgs(p, entry, r);
    return startSatisfyingInits(
        ev, [&](exec::Chooser& c) { return ev.makeEntryState(entry, args, c); }, walk.chooser(),
        r.file);
  }();
  StepRecorder steps(p, observer);
  const search::WalkOutcome out =
      start.ok() ? walk.run(start.value(), steps) : walk.failedToStart(start.error());

  Report rep;
  rep.command = "run";
  rep.file = r.file;
  rep.verdict = out.error ? Verdict::Error : out.boundHit ? Verdict::Unknown : Verdict::Completed;
  if (!out.error) rep.reason = out.stopped;
  rep.stats["steps"] = out.steps;
  rep.stats["states"] = out.steps + 1;
  rep.stats["executions"] = 1;
  addRunStats(rep.stats, rb.budget);
  if (out.error) {
    ErrorInfo e;
    e.kind = ir::errorKindName(out.error->kind);
    e.label = out.label;
    e.line = out.error->loc.line;
    e.message = out.error->message;
    e.trace.assign(steps.recent.begin(), steps.recent.end());
    if (out.steps > steps.recent.size())
      rep.extra["error_trace_from_step"] = steps.recent.front().step;
    rep.error = std::move(e);
  }
  if (start.ok()) rep.extra["final_state"] = report::stateJson(p, start.value());
  return rep;
}

}  // namespace tandem::engine
