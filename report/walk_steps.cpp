#include "report/walk_steps.h"

#include "report/trace_steps.h"

namespace tandem::report {

void WalkRecorder::before(const exec::State& s, const exec::Move& mv) {
  // What the step report needs of the state before it, not a copy of the state: that costs
  // its depth per step (run_deep_recursion.tdm, depth 10,000: 8.5 s, quadratic).
  values_ = stateValues(p_, s);
  frames_ = frameCounts(s);
  ts_ = TraceStep{};
  if (p_.isClosed()) ts_.process = threadName(p_, s, mv.thread);
  ts_.label = p_.locName(s.threads[mv.thread].top().pc);
  ts_.statement = p_.edges[mv.edge].text;
  ts_.line = p_.edges[mv.edge].loc.line;
  if (mv.isRendezvous())
    ts_.statement +=
        "  =>  " + threadName(p_, s, mv.partner) + ": " + p_.edges[mv.partnerEdge].text;
}

void WalkRecorder::after(const exec::State& s, const exec::Move&, uint64_t step, bool failed) {
  ts_.step = step;
  if (!failed) {
    ts_.changed = changedValues(p_, values_, frames_, s);
    ts_.state = stateJson(p_, s);
    if (p_.isClosed()) ts_.locations = locationsJson(p_, s);
  }
  observer_.step(ts_);
  recent.push_back(std::move(ts_));
  if (recent.size() > keep_) recent.pop_front();
}

Report walkReport(const ir::Program& p, const std::string& file, const search::WalkOutcome& out,
                  const WalkRecorder& steps, const exec::State* last) {
  Report rep;
  rep.command = "run";
  rep.file = file;
  rep.verdict = out.error ? Verdict::Error : out.boundHit ? Verdict::Unknown : Verdict::Completed;
  if (!out.error) rep.reason = out.stopped;
  rep.stats.steps = out.steps;
  rep.stats.states = out.steps + 1;
  rep.stats.executions = 1;
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
  if (last) rep.extra["final_state"] = stateJson(p, *last);
  return rep;
}

}  // namespace tandem::report
