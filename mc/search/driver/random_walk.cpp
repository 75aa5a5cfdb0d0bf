#include "mc/search/driver/random_walk.h"

#include <vector>

namespace tandem::search {

RandomWalk::RandomWalk(const ir::Program& p, exec::Evaluator& ev, Budget& budget,
                       const WalkOptions& o)
    : p_(p), ev_(ev), sys_(ev), budget_(budget), o_(o), chooser_(o.seed), rng_(o.seed) {}

WalkOutcome RandomWalk::failedToStart(const exec::ExecError& e) const {
  WalkOutcome out;
  if (tracked(e.kind)) {
    out.error = e;
    out.label = "(initial state)";
  } else {
    out.stopped = std::string("untracked ") + ir::errorKindName(e.kind) + " ended the execution";
  }
  return out;
}

bool RandomWalk::outOfBudget(WalkOutcome& out) {
  if (out.steps >= o_.steps) {
    out.stopped = "step bound " + std::to_string(o_.steps) + " reached";
    // A closed system walks exactly the --steps asked for; an open one should terminate.
    out.boundHit = !p_.isClosed();
    return true;
  }
  if (budget_.depthExceeded(out.steps)) budget_.stop(StopKind::Depth);
  if (budget_.chargeState() || budget_.poll()) {
    out.stopped = budget_.stopped()->reason;
    out.boundHit = true;
    return true;
  }
  return false;
}

WalkOutcome RandomWalk::run(exec::State& s, WalkObserver& observer) {
  WalkOutcome out;
  std::string last;  // the location the last step started from
  auto fail = [&](const exec::ExecError& e, const std::string& label) {
    out.error = e;
    out.label = label;
  };
  if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant))
    fail(inv.error(), "");
  exec::ThreadId turn = exec::kNoThread;  // inside `atomic`, its thread keeps the turn
  while (!out.error) {
    if (outOfBudget(out)) return out;
    if (turn != exec::kNoThread && sys_.turnIn(s, turn) == exec::kNoThread) {
      turn = exec::kNoThread;  // blocked inside atomic
      // The block ends here, so its state is one the others see: the invariants hold in it.
      if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant)) {
        fail(inv.error(), last);
        return out;
      }
    }
    const std::vector<exec::Move> moves = sys_.enabledMoves(s, turn, chooser_);
    if (moves.empty()) {
      const exec::SystemStatus status = sys_.status(s, false);
      if (status == exec::SystemStatus::Deadlock && tracked(ir::ErrorKind::Deadlock)) {
        fail(exec::ExecError{ir::ErrorKind::Deadlock, {}, "no process can move"},
             last.empty() ? "(deadlock)" : last);
        return out;
      }
      out.stopped = sys_.allTerminated(s) ? "terminated"
                    : status == exec::SystemStatus::ValidEnd
                        ? "no process can move: every process is at a valid end state"
                    : status == exec::SystemStatus::Deadlock
                        ? "deadlock: no process can move"
                        : "blocked: an assume or guard does not hold";
      return out;
    }
    const exec::Move mv = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng_)];
    const std::string label = p_.locName(s.threads[mv.thread].top().pc);
    observer.before(s, mv);
    auto res = sys_.step(s, mv, chooser_);
    const uint64_t step = out.steps++;
    last = label;
    if (res.status() == exec::StepStatus::Error) {
      const auto& err = res.error();
      observer.after(s, mv, step, true);
      if (err.limit) {
        out.stopped = "could not execute: " + err.message;
        out.boundHit = true;
      } else if (tracked(err.kind)) {
        fail(err, label);
      } else {
        out.stopped =
            std::string("untracked ") + ir::errorKindName(err.kind) + " ended the execution";
      }
      return out;
    }
    observer.after(s, mv, step, false);
    turn = sys_.turnAfter(s, mv);
    // Inside `atomic` the states between its statements are not states of the model (the block
    // is one step, LANGUAGE.md; check's successors never show them): no invariant is checked
    // there (found by difftest, seed 10690: run failed an invariant that check verified).
    if (turn != exec::kNoThread) continue;
    if (auto inv = ev_.checkInvariants(s); !inv.ok() && tracked(ir::ErrorKind::Invariant))
      fail(inv.error(), label);
  }
  return out;
}

}  // namespace tandem::search
