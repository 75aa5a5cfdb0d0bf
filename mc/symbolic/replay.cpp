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

// An assertion about to run without a premise that held (replay's `unverified`).
void notePremise(const exec::Evaluator& ev, const exec::State& s, ir::EdgeId id, Replay& r) {
  const ir::Edge& e = ev.program().edges[id];
  if (e.kind != ir::EdgeKind::Assert) return;
  if (!e.premise) {
    ++r.unverified;
    return;
  }
  auto v = ev.eval(e.premise, s, 0);
  if (v && !v.value().asBool()) ++r.unverified;
}

bool sameError(const exec::ExecError& got, const PathEnd& end) {
  return end.error && !got.limit && got.kind == end.error->kind;
}

// The path may stop before the program does: at a step none of whose branches was feasible
// symbolically (a failed `assume`, or an error inside a call the path left uninterpreted), or
// where its branches were dropped (mixed solving could not decide them, a bound). The inputs still
// drive the concrete run on, and the test ends as `run` with them does (found by difftest: tests
// said pass where run failed). Runs the entry's thread on, deterministically, from `s`: the last
// state of the path, or the state where the concrete run left it (ranOn).
void runOn(const exec::Evaluator& ev, Replay& r, exec::ScriptedChooser& chooser, exec::State s) {
  constexpr uint64_t kSteps = 100000;  // a test's program runs on for at most this many steps
  if (s.threads.empty()) return;
  const ir::Program& p = ev.program();
  for (uint64_t step = 0; step < kSteps; ++step) {
    if (ev.terminated(s, 0)) return;
    const ir::LocId pc = s.threads[0].top().pc;
    const std::vector<ir::EdgeId> enabled = ev.enabledEdges(s, 0);
    if (enabled.empty()) return;  // blocked: the run ends here as well
    if (enabled.size() > 1) {
      // A branch condition that fails concretely counts as enabled on both branches: either
      // raises, and the error ends the run; else the choice is one the path did not fix.
      for (ir::EdgeId id : enabled) {
        exec::State t = s;
        auto res = ev.execute(t, 0, id, chooser);
        if (res.status() == exec::StepStatus::Error && !res.error().limit) {
          r.error = res.error();
          r.errorLoc = pc;
          return;
        }
      }
      r.unfinished = "a nondeterministic choice at " + p.locName(pc);
      return;
    }
    notePremise(ev, s, enabled[0], r);
    auto res = ev.execute(s, 0, enabled[0], chooser);
    if (chooser.exhausted()) {
      r.unfinished = "an input the path did not record, at " + p.locName(pc);
      return;
    }
    if (res.status() == exec::StepStatus::Error) {
      if (res.error().limit) {
        r.unfinished = res.error().message;
      } else {
        r.error = res.error();
        r.errorLoc = pc;
      }
      return;
    }
    if (res.status() != exec::StepStatus::Ok) return;  // blocked (a failed assume) or terminated
    addLabels(p, s, r.labels);
  }
  r.unfinished = "more than " + std::to_string(kSteps) + " steps after the path";
}

// The concrete run left the path at `s` (another branch, or past the error the path promised):
// the inputs still drive it on, and a test ends as `run` with them does (difftest seed 7907: a
// test said pass where the run failed one loop iteration later). Method call sequences (class
// analysis) are not run on: the next call's start is the path's.
void leavePath(const exec::Evaluator& ev, Replay& r, const PathEnd& end, const ir::Cfa& entry,
               exec::ScriptedChooser& chooser, const exec::State& s) {
  if (!end.calls.empty() || entry.kind == ir::CfaKind::ClassInit) return;
  r.ranOn = true;
  runOn(ev, r, chooser, s);
}

}  // namespace

const exec::State& Replay::before(size_t i) const {
  for (auto it = callStarts.rbegin(); it != callStarts.rend(); ++it)
    if (it->first == i) return it->second;
  return states[i];
}

Replay replayPath(const exec::Evaluator& ev, ir::CfaId entry, const PathEnd& end, bool keepStates) {
  const ir::Program& p = ev.program();
  const ir::Cfa& cfa = p.cfas[entry];
  Replay r;
  exec::ScriptedChooser chooser(end.script);
  auto st = cfa.kind == ir::CfaKind::ClassInit
                ? ev.makeClassInitState(cfa.classIndex, end.args, chooser)
                : ev.makeEntryState(entry, end.args, chooser);
  if (!st) {
    if (end.errorAtEntry && end.path.empty() && end.calls.empty() && sameError(st.error(), end)) {
      r.error = st.error();
      if (!r.error->loc.valid()) r.error->loc = p.locs[cfa.entry].loc;
      r.errorLoc = cfa.entry;
      r.followed = true;
      return r;
    }
    r.problem = "the entry state cannot be built: " + st.error().message;
    return r;
  }
  r.states.push_back(std::move(st).value());
  addLabels(p, r.states.back(), r.labels);
  const exec::ObjectId self = r.states[0].threads[0].frames[0].self;
  // The state path edge i runs from (without kept states: the only one there is).
  auto from = [&](size_t i) -> const exec::State& {
    if (keepStates) return r.before(i);
    return r.callStarts.empty() || r.callStarts.back().first != i ? r.states.back()
                                                                  : r.callStarts.back().second;
  };
  size_t nextCall = 0;
  for (size_t i = 0; i <= end.path.size(); ++i) {
    // The method calls that start here, each once the previous one has returned.
    while (nextCall < end.calls.size() && end.calls[nextCall].pathStart == i) {
      const CallInputs& call = end.calls[nextCall++];
      exec::State s = from(i);
      const std::string name = p.cfas[call.method].name;
      if (!ev.terminated(s, 0)) {
        r.problem = "call " + std::to_string(nextCall) + " (" + name +
                    ") starts before the previous one returned";
        return r;
      }
      exec::Status started = ev.startMethod(s, 0, call.method, call.args, self, chooser);
      if (!started) {
        if (end.errorAtEntry && i == end.path.size() && nextCall == end.calls.size() &&
            sameError(started.error(), end)) {
          r.error = started.error();
          r.errorLoc = p.cfas[call.method].entry;
          if (!r.error->loc.valid()) r.error->loc = p.locs[r.errorLoc].loc;
          r.followed = true;
          return r;
        }
        r.problem = "call " + std::to_string(nextCall) + " (" + name +
                    ") fails to start: " + started.error().message;
        return r;
      }
      addLabels(p, s, r.labels);
      if (!keepStates) r.callStarts.clear();
      r.callStarts.emplace_back(i, std::move(s));
    }
    if (i == end.path.size()) break;
    const ir::EdgeId id = end.path[i];
    // With every state kept, a copy steps on; otherwise the one state steps in place.
    exec::State owned;
    if (keepStates) {
      owned = r.before(i);
    } else if (!r.callStarts.empty() && r.callStarts.back().first == i) {
      r.states.back() = std::move(r.callStarts.back().second);
      r.callStarts.clear();
    }
    exec::State& s = keepStates ? owned : r.states.back();
    const std::string at = p.locName(s.threads[0].top().pc);
    if (!ev.enabled(s, 0, id)) {
      r.problem = "step " + std::to_string(i) + " at " + at + " ('" + p.edges[id].text +
                  "') is not enabled concretely";
      leavePath(ev, r, end, cfa, chooser, s);
      return r;
    }
    notePremise(ev, s, id, r);
    auto res = ev.execute(s, 0, id, chooser);
    if (res.status() == exec::StepStatus::Error) {
      if (i + 1 != end.path.size() || end.errorAtEntry || !sameError(res.error(), end)) {
        r.problem =
            "step " + std::to_string(i) + " at " + at + " fails concretely: " + res.error().message;
        if (!res.error().limit) {
          r.error = res.error();
          r.errorLoc = p.edges[id].from;
        }
        return r;
      }
      r.error = res.error();
      r.errorLoc = p.edges[id].from;
      r.followed = true;
      return r;
    }
    if (res.status() != exec::StepStatus::Ok) {
      r.problem = "step " + std::to_string(i) + " at " + at + " did not execute concretely";
      return r;
    }
    if (keepStates) r.states.push_back(std::move(s));
    addLabels(p, r.states.back(), r.labels);
  }
  if (nextCall != end.calls.size()) {
    r.problem = "the path ends before call " + std::to_string(nextCall + 1) + " starts";
    return r;
  }
  if (end.error && end.error->kind == ir::ErrorKind::Invariant) {
    // An invariant fails in the state the path ends in (GenericSystem checks each state reached).
    auto st = ev.checkInvariants(r.states.back());
    if (!st.ok() && sameError(st.error(), end)) {
      r.error = st.error();
      r.errorLoc = end.path.empty() ? cfa.entry : p.edges[end.path.back()].from;
      r.followed = true;
      return r;
    }
  }
  if (end.error) {
    r.problem = end.errorAtEntry ? "the last frame starts without the error"
                                 : "the concrete run does not reach the error";
    if (!end.errorAtEntry) leavePath(ev, r, end, cfa, chooser, r.states.back());
    return r;
  }
  if (chooser.exhausted()) {
    r.problem = "the concrete run asked for more inputs than the path recorded";
    return r;
  }
  r.followed = true;
  if (cfa.kind != ir::CfaKind::ClassInit && !r.states.empty())  // end.error is unset here
    runOn(ev, r, chooser, r.states.back());
  return r;
}

}  // namespace tandem::symbolic
