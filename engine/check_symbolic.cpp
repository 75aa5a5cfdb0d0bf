// Symbolic check (the class analysis: init, then sequences of method calls with symbolic
// arguments). An error is reported only once its inputs replay to it in the reference evaluator;
// `verified` only when every path ended, no bound cut one (--max-calls included) and the solver
// never answered unknown.
#include "engine/check_symbolic.h"

#include "engine/request_rules.h"
#include "engine/setup.h"
#include "engine/symbolic_run.h"
#include "report/symbolic_report.h"

namespace tandem::engine {

Report checkSymbolic(const ir::Program& p, const CheckRequest& r) {
  const uint32_t cls = classOf(r, p);
  ir::CfaId entry = ir::kNone;
  if (cls != ir::kNone) {
    if (r.inputs) throw usageError("--inputs applies to --entry only");
    entry = p.classes[cls].init;
  } else {
    entry = entryOf(r, p);
    if (r.maxCalls) throw usageError("--max-calls applies to the class analysis (check --class C)");
  }
  if (!r.dot.empty())
    throw usageError(
        "--dot: symbolic execution has no state graph to draw (--dot applies to check of closed "
        "systems and of entries without inputs, and to prove)");
  if (r.deadlock) throw usageError("--deadlock and --no-deadlock apply to closed systems");
  const bool bounded = r.maxCalls || r.limits.timeoutSeconds || r.limits.maxStates ||
                       r.limits.maxDepth || r.limits.memoryLimitMb;
  if (cls != ir::kNone && !bounded && !r.quiet && r.diag && !p.classes[cls].methods.empty())
    *r.diag << "tandem: note: no --max-calls: the number of method calls is unbounded; the "
               "search stops at an error or a bound (--timeout, --max-states, --max-depth)\n";
  // check keeps classic solving unless --solving is given, so that its verdicts do not depend on
  // concrete runs unless asked for.
  auto run =
      exploreSymbolic(p, r, entry, r.solving.value_or(symbolic::Solving::Classic),
                      mixedOptions(r.mixed, r.solving.value_or(symbolic::Solving::Classic), r.seed),
                      r.maxCalls, /*stopAtError=*/true);
  const symbolic::ExploreResult& res = run->result;

  Report rep;
  rep.command = "check";
  rep.file = r.file;
  rep.symbolic.emplace();
  report::solvingKeys(*rep.symbolic, run->options);
  report::symbolicOutcome(rep, p, run->ctx.ev, run->options.entry, res, cls != ir::kNone, r.diag);
  addRunStats(rep.stats, run->ctx.rb.budget);
  if (cls != ir::kNone) {
    rep.extra["class"] = r.cls;
    rep.extra["max_calls"] = r.maxCalls ? nlohmann::json(*r.maxCalls) : nlohmann::json(nullptr);
  }
  rep.extra["search"] = search::strategyName(searchOrder(r));
  rep.extra["engine"] = "symbolic";
  rep.extra["solver"] = smt::backendName(r.solver.backend);
  return rep;
}

}  // namespace tandem::engine
