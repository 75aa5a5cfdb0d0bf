// Runs a back end's calls on a thread of its own, so that a caller can walk away from a call that
// ignores its interrupt. Z3 4.8.12 does not look at Z3_interrupt inside some steps: a push that
// folds products of numerals of millions of bits (one multiplication took minutes:
// shared/reported/cover_z3_push_hang.tdm), the bit-blasting of f64 terms (22 s past
// --timeout 2), non-linear checks (testgen_classic_hang.tdm, 35 s past --timeout 5).
//
// A call waits until its job returns. When the per-call limit passes, `interrupt` runs once and
// the wait goes on (a per-query limit leaves the session usable). When the run stops (its
// deadline passes, or `stop` says so: SIGINT/SIGTERM, the memory limit; polled every 5 ms),
// `interrupt` runs and the call waits kGrace more; then the worker is abandoned: the thread goes
// on alone with the job, and frees what adopt() gave it once the job has returned. So a job must
// own what it touches (no references to the caller's stack), and the back end must outlive it.
//
// A pinned worker runs every job on its thread, limits or not, and frees what adopt() gave it on
// that thread: cvc5 1.0.3 keeps its node manager in a thread_local, so a cvc5 session must be
// made, used and destroyed on one thread (a check on another thread throws "bad kind"). Its
// thread has the command thread's reserved stack (mc/main.cpp): the translations recurse.
//
// Why not Z3's own `timeout` parameter: Z3 4.8.10-4.8.12 runs it on a thread-pool scoped_timer
// that can deadlock when it fires (Z3Prover/z3 PR #5371, issue #5990; the unit suite hung there
// with a 1 ms limit), and it would not stop the steps above either.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace tandem::smt {

class BoundedWorker {
 public:
  using Clock = std::chrono::steady_clock;
  // How long a call may run after its interrupt once the run has stopped: Z3 answers an
  // interrupt it sees within milliseconds.
  static constexpr std::chrono::milliseconds kGrace{300};

  // Marks the part of a job that may be walked away from, for a job that also uses the caller's
  // memory before or after it (one hand-off per query instead of one per step: each hand-off
  // costs a wake-up of the other thread, milliseconds on a loaded machine).
  class Gate {
   public:
    // On the job's thread, around the part that touches only what the job owns. close() false:
    // the caller walked away; the job must return at once, touching nothing of the caller's.
    void open() { state_.store(kOpen); }
    bool close() {
      int open = kOpen;
      return state_.compare_exchange_strong(open, kShut);
    }
    // On the caller: true when the job is inside its open part, which is then abandoned.
    bool abandon() {
      int open = kOpen;
      return state_.compare_exchange_strong(open, kAbandoned);
    }

   private:
    static constexpr int kShut = 0, kOpen = 1, kAbandoned = 2;
    std::atomic<int> state_{kShut};
  };

  struct Limits {
    std::optional<Clock::time_point> callDeadline;  // interrupt, then keep waiting
    std::optional<Clock::time_point> runDeadline;   // interrupt, then abandon after kGrace
    std::function<bool()> stop;                     // as runDeadline; called on the caller
    // Set: the job is abandoned only inside the gate's open part (else the caller waits on).
    std::shared_ptr<Gate> gate;
    bool any() const { return callDeadline || runDeadline || stop; }
  };
  enum class Outcome {
    Returned,     // the job returned, no interrupt was sent
    Interrupted,  // the job returned after an interrupt
    Abandoned,    // the run stopped and the job did not return within kGrace
  };

  enum class Placement {
    Any,     // a call without limits runs on the calling thread
    Pinned,  // every call runs on the worker's thread
  };

  explicit BoundedWorker(std::function<void()> interrupt, Placement placement = Placement::Any);
  ~BoundedWorker();
  BoundedWorker(const BoundedWorker&) = delete;
  BoundedWorker& operator=(const BoundedWorker&) = delete;

  // Runs `job` and waits as above; an exception from a job that returned is rethrown here.
  // Without limits the job runs on the calling thread unless the worker is pinned. Once
  // abandoned, every call returns Abandoned at once without running its job.
  Outcome run(std::function<void()> job, const Limits& limits);
  bool abandoned() const { return abandoned_; }
  // After Abandoned: `owned` is released once the abandoned job has returned (at once if it
  // already has), on whichever thread sees that last; a pinned worker's thread releases it
  // when this object goes.
  void adopt(std::shared_ptr<void> owned);

 private:
  struct Shared;
  void start();

  std::function<void()> interrupt_;
  Placement placement_;
  std::shared_ptr<Shared> shared_;  // with the thread, which outlives this object when abandoned
  bool started_ = false;            // the thread starts with the first call that has limits
  bool abandoned_ = false;
};

}  // namespace tandem::smt
