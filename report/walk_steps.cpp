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

}  // namespace tandem::report
