// SIGINT and SIGTERM: the first one sets the interrupt flag that the run's budget polls, so the
// command stops at its next step and prints its whole report (verdict unknown, reason
// "interrupted", exit 4); a second SIGINT ends the process at once (exit 130).
#pragma once

#include <atomic>

namespace tandem::cli {

// Installs the handlers for the life of the object (the previous ones come back after) and
// clears the flag. One at a time: a signal handler can only reach a flag through a static.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const std::atomic<bool>* flag() const;
};

}  // namespace tandem::cli
