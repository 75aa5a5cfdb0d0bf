// `tandem run FILE`: one concrete execution (search::RandomWalk), reported step by step as it
// happens (no trace is held in memory: a run may be long). Open systems run the entry procedure on
// `--args`; closed systems walk one random interleaving (`--steps N --seed S`).

#include "engine/api.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/search/driver/random_walk.h"
#include "report/trace_steps.h"
#include "report/walk_steps.h"

namespace tandem::engine {

namespace {

// The error report keeps the last steps before the error (the whole run went to the observer).
constexpr size_t kErrorTraceSteps = 1000;

// Inputs (globals without an initialiser) are drawn at random until every `init` holds. An
// initialiser that fails for them is the model's error, reported as a failing step would be.
template <typename Make>
exec::Result<exec::State> startSatisfyingInits(const RunContext& ctx, Make make,
                                               exec::Chooser& chooser) {
  const std::string& file = ctx.r.file;
  constexpr int kTries = 1000;
  for (int i = 0; i < kTries; ++i) {
    auto st = make(chooser);
    if (!st.ok() && st.error().excluded) continue;
    if (!st.ok() && st.error().limit)
      throw inputError(file, "cannot build the initial state: " + st.error().message);
    if (!st.ok()) return st;
    auto holds = ctx.ev.initsHold(st.value());
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
    auto v = exec::valueFromText(texts[i], t);
    if (!v)
      throw usageError("argument " + std::to_string(i + 1) + " '" + texts[i] +
                       "' is not a value of type '" + typeToString(t) + "' (--args)");
    args.push_back(*v);
  }
  return args;
}

}  // namespace

Report run(const ir::Program& p, const RunRequest& r, StepObserver& observer) {
  if (!r.cls.empty()) throw usageError("run --class is not implemented (run --entry P --args ...)");
  const ir::CfaId entry = entryOf(r, p);
  if (entry == ir::kNone && !r.args.empty())
    throw usageError("--args applies to open systems (run --entry P --args a,b)");
  if (entry != ir::kNone && r.deadlock)
    throw usageError("--deadlock and --no-deadlock apply to closed systems");
  RunContext ctx(p, r);
  search::WalkOptions wo;
  wo.steps = r.steps;
  wo.seed = r.seed;
  wo.tracked = r.tracked;
  search::RandomWalk walk(p, ctx.ev, ctx.rb.budget, wo);
  auto start = [&]() -> exec::Result<exec::State> {
    if (entry == ir::kNone)
      return startSatisfyingInits(
          ctx, [&](exec::Chooser& c) { return ctx.ev.makeInitialState(c); }, walk.chooser());
    const std::vector<exec::Value> args = entryArgs(p, entry, r);
    return startSatisfyingInits(
        ctx, [&](exec::Chooser& c) { return ctx.ev.makeEntryState(entry, args, c); },
        walk.chooser());
  }();
  report::WalkRecorder steps(p, observer, kErrorTraceSteps);
  const search::WalkOutcome out =
      start.ok() ? walk.run(start.value(), steps) : walk.failedToStart(start.error());

  Report rep = report::walkReport(p, r.file, out, steps, start.ok() ? &start.value() : nullptr);
  addRunStats(rep.stats, ctx.rb.budget);
  return rep;
}

}  // namespace tandem::engine
