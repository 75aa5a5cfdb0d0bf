#include "mc/smt/interrupt_timer.h"

#include <algorithm>

namespace tandem::smt {

InterruptTimer::InterruptTimer(std::function<void()> onExpiry)
    : onExpiry_(std::move(onExpiry)), thread_([this] { run(); }) {}

InterruptTimer::~InterruptTimer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void InterruptTimer::arm(unsigned ms) {
  arm(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms), {});
}

void InterruptTimer::arm(std::chrono::steady_clock::time_point deadline,
                         std::function<bool()> poll) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = true;
    fired_ = false;
    ++generation_;
    deadline_ = deadline;
    poll_ = std::move(poll);
    // A sleeping watchdog wakes by itself by then and re-reads the arming: woken only when idle,
    // or when this limit comes first. (Two wake-ups per query cost more than a short query.)
    wake = idle_ || deadline < sleepUntil_;
  }
  if (wake) cv_.notify_all();
}

bool InterruptTimer::disarm() {
  std::lock_guard<std::mutex> lock(mu_);
  armed_ = false;
  ++generation_;
  return fired_;
}

void InterruptTimer::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!quit_) {
    if (!armed_) {
      idle_ = true;
      cv_.wait(lock, [this] { return quit_ || armed_; });
      idle_ = false;
      continue;
    }
    const uint64_t gen = generation_;
    const auto deadline = deadline_;
    const auto now = std::chrono::steady_clock::now();
    // 5 ms: a solver can allocate tens of MB between two looks at the memory limit; reading
    // /proc/self/statm costs microseconds.
    const auto wake = poll_ ? std::min(deadline, now + std::chrono::milliseconds(5)) : deadline;
    sleepUntil_ = wake;
    if (cv_.wait_until(lock, wake, [&] { return quit_ || generation_ != gen; })) continue;
    if (std::chrono::steady_clock::now() < deadline && !(poll_ && poll_())) continue;
    // Still the same check, past its limit. The lock is held, so disarm() (called once the
    // check has returned) cannot pass in between: the interrupt only reaches a running check.
    fired_ = true;
    armed_ = false;
    onExpiry_();
  }
}

}  // namespace tandem::smt
