// The step of a closed system, said once (as LTSmin's PINS `GBgetTransitionsLong` or
// CPAchecker's threading CPA): which moves a state has, what a move does, and what a state
// without moves is. The generic explorer (search/generic_system.cpp), `tandem run`
// (engine/run.cpp) and counterexample replay (search/trace.cpp) use `System` on concrete states;
// the fragments of `prove` (symbolic/fragments.cpp) use the rules over locations below on
// symbolic configurations, with the symbolic transfer relation as the step. The compiled VM
// (search/compiled_*.cpp) is a second implementation, checked against this one by the agreement
// tests.
//
// The contract:
// - A *move* is one step of one thread by one edge out of its top frame's location (a local
//   step: command, assert, call, return), or a *rendezvous*: thread t's Sync send and another
//   thread u's Sync receive on the same channel, out of their current locations, as one step
//   (Evaluator::executeSync). A Sync edge is never a step alone.
// - A local step is enabled when Evaluator::enabled says so (its guard holds, or evaluating it
//   fails so that the step reports the error). A rendezvous pair is a candidate by its locations
//   and channel; it is a move when its step is not Blocked (sender's guard, equal channel
//   indices, receiver's guard on the message).
// - The *turn*: a thread whose local step ends at an atomic location (inside an `atomic` block)
//   keeps the turn: only its local steps are moves, and no rendezvous. It loses the turn when it
//   leaves the block, or when it has no enabled step (blocked inside the block: then every
//   thread moves, as in SPIN). The states between the steps of a block are not states of the
//   model: nobody stores them or checks invariants in them. A rendezvous gives nobody the turn,
//   even when it takes a thread inside a block (the .tdm checker refuses rendezvous inside
//   atomic blocks, but a `goto` may follow one into a block).
// - Enumeration order: the enabled local steps of thread 0, 1, ... (each thread's edges in the
//   order they leave its location), then the rendezvous pairs by sender thread, send edge,
//   receiver thread, receive edge. Counterexamples, bounds and search order depend on it. (The
//   fragments take one thread's moves at a time, forEachMoveOf: in the order of its edges.)
// - A thread is at a *valid end* when its only frame has terminated (nothing but Return edges
//   leaves its location) or waits at a location labelled `end...`; only in models with end
//   states (Program::endStates: never in DVE models). A state without moves is a *deadlock*
//   when not every thread is at a valid end (closed systems; an open system is just blocked).
// - Errors are the steps' (StepResult::Error) and the invariants' (Evaluator::checkInvariants).
#pragma once

#include <vector>

#include "mc/exec/evaluator.h"

namespace tandem::exec {

// --- The rules over locations: what both a concrete state and a symbolic configuration (one
// location per thread) provide. `LocOf` maps a thread to its top frame's location (ir::kNone:
// no frame). ---

// Inside an atomic block: the thread at `l` keeps the turn.
inline bool keepsTurnAt(const ir::Program& p, ir::LocId l) { return p.locs[l].atomic; }

// Who holds the turn after thread t's move (a rendezvous, or a local step) took it to `to`.
inline ThreadId turnAfterAt(const ir::Program& p, ThreadId t, ir::LocId to, bool rendezvous) {
  return !rendezvous && keepsTurnAt(p, to) ? t : kNoThread;
}

// A bottom frame at `l` has terminated: nothing but Return edges leave (a procedure's exit, or
// the end of a process body, which nothing leaves).
inline bool terminatedAt(const ir::Program& p, ir::LocId l) {
  for (ir::EdgeId id : p.locs[l].out)
    if (p.edges[id].kind != ir::EdgeKind::Return) return false;
  return true;
}

// A thread whose only frame is at `l` may stay there for ever without a deadlock.
inline bool validEndAt(const ir::Program& p, ir::LocId l) {
  return p.endStates && (terminatedAt(p, l) || p.endLabelled(l));
}

// Every thread (one frame each, at `locs`) at a valid end.
template <class Locs>
bool allAtValidEnd(const ir::Program& p, const Locs& locs) {
  if (!p.endStates) return false;
  for (ir::LocId l : locs)
    if (!validEndAt(p, l)) return false;
  return true;
}

// The receivers of thread t's Sync send `send`, by thread and edge: every Sync receive on the
// same channel out of another thread's location.
template <class LocOf, class F>
void forEachPartner(const ir::Program& p, size_t threads, LocOf&& locOf, ThreadId t,
                    ir::EdgeId send, F&& f) {
  const ir::Edge& se = p.edges[send];
  for (ThreadId u = 0; u < threads; ++u) {
    const ir::LocId at = u == t ? ir::kNone : locOf(u);
    if (at == ir::kNone) continue;
    for (ir::EdgeId re : p.locs[at].out) {
      const ir::Edge& recv = p.edges[re];
      if (recv.kind == ir::EdgeKind::Sync && !recv.syncSend && recv.channel == se.channel) f(u, re);
    }
  }
}

// The moves thread t may start from location `at`, in enumeration order, guards not evaluated:
// local(e) for each edge that is not Sync, pair(send, u, recv) for each partner of a Sync send
// (a receive is only ever the partner of a send).
template <class LocOf, class Local, class Pair>
void forEachMoveOf(const ir::Program& p, size_t threads, LocOf&& locOf, ThreadId t, ir::LocId at,
                   Local&& local, Pair&& pair) {
  for (ir::EdgeId id : p.locs[at].out) {
    const ir::Edge& e = p.edges[id];
    if (e.kind != ir::EdgeKind::Sync)
      local(id);
    else if (e.syncSend)
      forEachPartner(p, threads, locOf, t, id, [&](ThreadId u, ir::EdgeId re) { pair(id, u, re); });
  }
}

// --- Concrete states. ---

// A move of a concrete state: thread's edge, or (partner set) a rendezvous of thread's send
// `edge` with partner's receive `partnerEdge`.
struct Move {
  ThreadId thread = kNoThread;
  ir::EdgeId edge = ir::kNone;
  ThreadId partner = kNoThread;
  ir::EdgeId partnerEdge = ir::kNone;
  bool isRendezvous() const { return partner != kNoThread; }
};

enum class SystemStatus : uint8_t {
  Running,   // some move
  ValidEnd,  // no move, every thread at a valid end
  Deadlock,  // no move in a closed system, some thread not at a valid end
  Blocked,   // no move in an open system, its thread not at a valid end
};

class System {
 public:
  explicit System(const Evaluator& ev) : ev_(ev), p_(ev.program()) {}
  const Evaluator& evaluator() const { return ev_; }

  // The moves of `s` when `turn` (kNoThread: nobody) holds the turn, in enumeration order:
  // enabled local steps, then (nobody holding the turn) the rendezvous candidates, whose step may
  // still be Blocked. `f(const Move&)`.
  template <class F>
  void forEachMove(const State& s, ThreadId turn, F&& f) const;
  // The rendezvous candidates of `s` (nobody holding the turn), in enumeration order.
  template <class F>
  void forEachRendezvous(const State& s, F&& f) const;
  // forEachMove without the rendezvous pairs whose step is Blocked (each is tried on a copy of
  // `s` with `probe`, which then has made the choices of their steps).
  std::vector<Move> enabledMoves(const State& s, ThreadId turn, Chooser& probe) const;
  // Whether thread t has an enabled local step.
  bool canStep(const State& s, ThreadId t) const { return !ev_.enabledEdges(s, t).empty(); }

  // The move's step on `s`.
  StepResult step(State& s, const Move& m, Chooser& chooser) const;
  // Who holds the turn after `m` led to `n`: its thread if it is now inside an atomic block.
  ThreadId turnAfter(const State& n, const Move& m) const;
  // Who still holds the turn in `s`: nobody once the holder is blocked inside its block.
  ThreadId turnIn(const State& s, ThreadId turn) const {
    return turn != kNoThread && canStep(s, turn) ? turn : kNoThread;
  }

  bool validEnd(const State& s, ThreadId t) const;
  bool allAtValidEnd(const State& s) const;
  // Every thread's bottom frame terminated (Evaluator::terminated).
  bool allTerminated(const State& s) const;
  // What `s` is, given whether it has a move (from forEachMove, enabledMoves or a successor
  // function that executed them).
  SystemStatus status(const State& s, bool moved) const;

 private:
  ir::LocId locOf(const State& s, ThreadId t) const {
    return s.threads[t].frames.empty() ? ir::kNone : s.threads[t].top().pc;
  }

  const Evaluator& ev_;
  const ir::Program& p_;
};

template <class F>
void System::forEachMove(const State& s, ThreadId turn, F&& f) const {
  for (ThreadId t = 0; t < s.threads.size(); ++t) {
    if (turn != kNoThread && turn != t) continue;
    for (ir::EdgeId e : ev_.enabledEdges(s, t)) f(Move{t, e, kNoThread, ir::kNone});
  }
  if (turn == kNoThread) forEachRendezvous(s, f);
}

template <class F>
void System::forEachRendezvous(const State& s, F&& f) const {
  auto loc = [&](ThreadId u) { return locOf(s, u); };
  for (ThreadId t = 0; t < s.threads.size(); ++t) {
    const ir::LocId at = loc(t);
    if (at == ir::kNone) continue;
    forEachMoveOf(
        p_, s.threads.size(), loc, t, at, [](ir::EdgeId) {},
        [&](ir::EdgeId se, ThreadId u, ir::EdgeId re) {
          f(Move{t, se, u, re});
        });
  }
}

}  // namespace tandem::exec
