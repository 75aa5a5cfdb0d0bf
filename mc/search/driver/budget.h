// The one budget of a run: the bounds a user sets (--max-states, --max-depth, --timeout,
// --memory-limit) and the interrupt flag that SIGINT/SIGTERM set, checked in one place by every
// engine (explicit and symbolic search, DART, prove, triage, run, export-chc). The first bound hit
// is remembered (sticky) with its reason, worded once for every command.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace tandem::search {

struct Limits {
  std::optional<uint64_t> maxStates;  // states the engine counts (stored, expanded, executed)
  std::optional<uint64_t> maxDepth;   // length of one path of the engine's graph
  std::optional<double> timeoutSeconds;
  std::optional<uint64_t> memoryLimitMb;  // resident set size of the process
};

enum class StopKind : uint8_t { Timeout, Memory, States, Depth, Interrupted };

struct Stop {
  StopKind kind;
  std::string reason;  // "timeout (5 s)", "memory limit (100 MB)", "state bound (30)", ...
};

// The reasons, worded once.
std::string timeoutReason(double seconds);  // "timeout (5 s)", "timeout (0.5 s)"
std::string memoryReason(uint64_t mb);      // "memory limit (100 MB)"
std::string stateBoundReason(uint64_t n);   // "state bound (30)"
std::string depthBoundReason(uint64_t n);   // "depth bound (10)"
inline const char* interruptedReason() { return "interrupted"; }
std::string solverUnknownReason(const std::string& why);  // "solver unknown: timeout"

// Resident set size of this process now, and its peak, in MB (from /proc/self).
uint64_t currentRssMb();
uint64_t peakRssMb();

class Budget {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Budget(Limits limits = {}, const std::atomic<bool>* interrupt = nullptr);
  // A budget inside `outer` (prove's triage inside its run): `caps` are extra bounds of the inner
  // work; the outer budget's deadline, memory limit, interrupt flag and --max-states bound it too,
  // and the states it charges count there as well. A stop of the outer budget stops this one with
  // the outer's reason; outer.stopped() tells the two apart.
  Budget(Limits caps, Budget& outer);

  const Limits& limits() const { return limits_; }
  const std::atomic<bool>* interruptFlag() const { return interrupt_; }
  double elapsed() const;
  // When --timeout ends the run, or the outer budget's run (nullopt without one).
  std::optional<Clock::time_point> deadline() const;
  // The seconds a sub-run (a prove run per assertion or location) gets: what is left to the
  // deadline (at least 0.1), or `fallback` without one.
  double secondsLeft(double fallback) const;

  // Time, memory and the interrupt flag. Cheap enough to call at every step: the clock is read
  // every few calls and /proc every 10 ms. Returns whether the run must stop (see stopped()).
  bool poll();
  // The same, reading the clock and /proc now (before or after a long operation).
  bool pollNow();
  // For a solver's watchdog thread, while a query runs: the interrupt flag or the memory limit
  // (read from /proc). A memory stop found there is noted (thread-safe) and becomes this
  // budget's stop at its next poll, so the run names the limit, not the solver's unknown.
  bool stopFromWatchdog() const;

  // --max-states: the engine charges each state it counts; true once the bound is reached.
  bool chargeState(uint64_t n = 1);
  uint64_t statesCharged() const { return states_; }
  bool statesExhausted() const {
    return (limits_.maxStates && states_ >= *limits_.maxStates) ||
           (outer_ && outer_->statesExhausted());
  }
  // --max-depth: whether a state at `depth` may not be expanded further.
  bool depthExceeded(uint64_t depth) const {
    return limits_.maxDepth && depth >= *limits_.maxDepth;
  }
  // Bytes the engine is about to allocate at once (a hash table that doubles): true (and the
  // memory stop recorded) when they would pass the memory limit.
  bool wouldExceedMemory(uint64_t bytes);

  // The first bound hit, or nullopt. Sticky: later stops do not replace it.
  const std::optional<Stop>& stopped() const { return stop_; }
  void stop(StopKind kind);
  // A stop recorded with an engine's own wording that starts with one of the reasons above.
  void stop(StopKind kind, std::string reason);

 private:
  bool checkFlags();  // a stop already found, the watchdog's memory stop, the interrupt flag
  bool checkClockAndMemory();
  bool outerStopped();  // takes over the outer budget's stop

  Limits limits_;
  Budget* outer_ = nullptr;
  const std::atomic<bool>* interrupt_;
  Clock::time_point start_;
  std::optional<Clock::time_point> deadline_;
  Clock::time_point nextMemoryCheck_;
  uint32_t calls_ = 0;
  uint64_t states_ = 0;
  std::optional<Stop> stop_;
  mutable std::atomic<bool> memoryFromWatchdog_{false};
};

}  // namespace tandem::search
