// A per-solver watchdog thread for query time limits: arm() before a check, disarm() after; if
// the limit passes while armed, or the poll function (the run's interrupt flag and memory
// limit, polled every 20 ms) says stop, `onExpiry` runs (Z3: Z3_interrupt on the context).
// arm() and disarm() wake the watchdog only when they must (it is idle, or the new limit comes
// before it would wake by itself): most queries take less than a millisecond.
//
// Why not Z3's own `timeout` parameter: Z3 4.8.10-4.8.12 (Debian 12 ships 4.8.12) runs it on a
// thread-pool scoped_timer that can deadlock when the timer fires (Z3Prover/z3 PR #5371, issue
// #5990); the unit suite hung there with a 1 ms limit. Interrupting from a thread of our own
// never enters that code: Z3 creates no timer when the parameter is unset.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace tandem::smt {

class InterruptTimer {
 public:
  explicit InterruptTimer(std::function<void()> onExpiry);
  ~InterruptTimer();
  InterruptTimer(const InterruptTimer&) = delete;
  InterruptTimer& operator=(const InterruptTimer&) = delete;

  void arm(unsigned ms);
  // Until `deadline`; `poll` (may be empty) is called on the watchdog thread while armed.
  void arm(std::chrono::steady_clock::time_point deadline, std::function<bool()> poll);
  // True if the limit expired (and `onExpiry` ran) since arm().
  bool disarm();

 private:
  void run();

  std::function<void()> onExpiry_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool armed_ = false, fired_ = false, quit_ = false;
  bool idle_ = false;  // the watchdog waits for an arm() with no time limit
  std::chrono::steady_clock::time_point sleepUntil_;  // when a sleeping watchdog wakes by itself
  uint64_t generation_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::function<bool()> poll_;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace tandem::smt
