#include "mc/exec/system.h"

namespace tandem::exec {

std::vector<Move> System::enabledMoves(const State& s, ThreadId turn, Chooser& probe) const {
  std::vector<Move> out;
  forEachMove(s, turn, [&](const Move& m) {
    if (m.isRendezvous()) {
      State n = s;
      if (step(n, m, probe).status() == StepStatus::Blocked) return;
    }
    out.push_back(m);
  });
  return out;
}

StepResult System::step(State& s, const Move& m, Chooser& chooser) const {
  if (m.isRendezvous())
    return ev_.executeSync(s, m.thread, m.edge, m.partner, m.partnerEdge, chooser);
  return ev_.execute(s, m.thread, m.edge, chooser);
}

ThreadId System::turnAfter(const State& n, const Move& m) const {
  if (n.threads[m.thread].frames.empty()) return kNoThread;
  return turnAfterAt(p_, m.thread, n.threads[m.thread].top().pc, m.isRendezvous());
}

bool System::validEnd(const State& s, ThreadId t) const {
  const Thread& th = s.threads[t];
  return th.frames.size() == 1 && validEndAt(p_, th.top().pc);
}

bool System::allAtValidEnd(const State& s) const {
  if (!p_.endStates) return false;
  for (ThreadId t = 0; t < s.threads.size(); ++t)
    if (!validEnd(s, t)) return false;
  return true;
}

bool System::allTerminated(const State& s) const {
  for (ThreadId t = 0; t < s.threads.size(); ++t)
    if (!ev_.terminated(s, t)) return false;
  return true;
}

SystemStatus System::status(const State& s, bool moved) const {
  if (moved) return SystemStatus::Running;
  if (allAtValidEnd(s)) return SystemStatus::ValidEnd;
  return p_.isClosed() ? SystemStatus::Deadlock : SystemStatus::Blocked;
}

}  // namespace tandem::exec
