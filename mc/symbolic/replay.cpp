#include "mc/symbolic/replay.h"

#include <algorithm>

namespace tandem::symbolic {

namespace {

void addLabels(const ir::Program& p, const exec::State& s, std::vector<std::string>& out) {
  for (const exec::Thread& th : s.threads)
    for (const exec::Frame& f : th.frames)
      for (const std::string& l : p.locs[f.pc].labels)
        if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
}

}  // namespace

Replay replayPath(const exec::Evaluator& ev, ir::CfaId entry, const PathEnd& end) {
  const ir::Program& p = ev.program();
  Replay r;
  exec::ScriptedChooser chooser(end.script);
  auto st = ev.makeEntryState(entry, end.args, chooser);
  if (!st) {
    r.problem = "the entry state cannot be built: " + st.error().message;
    return r;
  }
  r.states.push_back(std::move(st).value());
  addLabels(p, r.states.back(), r.labels);
  for (size_t i = 0; i < end.path.size(); ++i) {
    const ir::EdgeId id = end.path[i];
    exec::State s = r.states.back();
    const std::string at = p.locName(s.threads[0].top().pc);
    if (!ev.enabled(s, 0, id)) {
      r.problem = "step " + std::to_string(i) + " at " + at + " ('" + p.edges[id].text +
                  "') is not enabled concretely";
      return r;
    }
    auto res = ev.execute(s, 0, id, chooser);
    if (res.status() == exec::StepStatus::Error) {
      if (i + 1 != end.path.size() || !end.error || res.error().limit ||
          res.error().kind != end.error->kind) {
        r.problem =
            "step " + std::to_string(i) + " at " + at + " fails concretely: " + res.error().message;
        return r;
      }
      r.error = res.error();
      r.followed = true;
      return r;
    }
    if (res.status() != exec::StepStatus::Ok) {
      r.problem = "step " + std::to_string(i) + " at " + at + " did not execute concretely";
      return r;
    }
    r.states.push_back(std::move(s));
    addLabels(p, r.states.back(), r.labels);
  }
  if (end.error) {
    r.problem = "the concrete run does not reach the error";
    return r;
  }
  if (chooser.exhausted()) {
    r.problem = "the concrete run asked for more inputs than the path recorded";
    return r;
  }
  r.followed = true;
  return r;
}

}  // namespace tandem::symbolic
