#include "mc/smt/interrupt_timer.h"

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
  {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = true;
    fired_ = false;
    ++generation_;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  }
  cv_.notify_all();
}

bool InterruptTimer::disarm() {
  std::lock_guard<std::mutex> lock(mu_);
  armed_ = false;
  ++generation_;
  cv_.notify_all();
  return fired_;
}

void InterruptTimer::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!quit_) {
    if (!armed_) {
      cv_.wait(lock, [this] { return quit_ || armed_; });
      continue;
    }
    const uint64_t gen = generation_;
    const auto deadline = deadline_;
    if (cv_.wait_until(lock, deadline, [&] { return quit_ || generation_ != gen; })) continue;
    // Still the same check, past its limit. The lock is held, so disarm() (called once the
    // check has returned) cannot pass in between: the interrupt only reaches a running check.
    fired_ = true;
    armed_ = false;
    onExpiry_();
  }
}

}  // namespace tandem::smt
