#include "mc/cli/signals.h"

#include <signal.h>
#include <unistd.h>

namespace tandem::cli {

namespace {

// Process-wide state, because a signal handler can reach nothing else: the flag (lock-free, so
// setting it is async-signal-safe) and the handlers to put back afterwards.
std::atomic<bool> gInterrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
struct sigaction gOldInt, gOldTerm;

extern "C" void onSignal(int sig) {
  if (sig == SIGINT && gInterrupted.load()) {
    constexpr char kMsg[] = "\ntandem: interrupted twice: exiting without a report\n";
    (void)!write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
    _exit(130);
  }
  gInterrupted.store(true);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  gInterrupted.store(false);
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &gOldInt);
  sigaction(SIGTERM, &sa, &gOldTerm);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &gOldInt, nullptr);
  sigaction(SIGTERM, &gOldTerm, nullptr);
}

const std::atomic<bool>* InterruptGuard::flag() const { return &gInterrupted; }

}  // namespace tandem::cli
