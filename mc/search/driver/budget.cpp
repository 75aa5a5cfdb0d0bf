#include "mc/search/driver/budget.h"

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tandem::search {

namespace {

// 5 -> "5", 0.5 -> "0.5", 2.25 -> "2.25": what the user typed, not "5.000000".
std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

constexpr auto kMemoryInterval = std::chrono::milliseconds(10);
constexpr uint32_t kClockEvery = 16;  // poll() reads the clock once per this many calls

}  // namespace

std::string timeoutReason(double s) { return "timeout (" + seconds(s) + " s)"; }
std::string memoryReason(uint64_t mb) { return "memory limit (" + std::to_string(mb) + " MB)"; }
std::string stateBoundReason(uint64_t n) { return "state bound (" + std::to_string(n) + ")"; }
std::string depthBoundReason(uint64_t n) { return "depth bound (" + std::to_string(n) + ")"; }
std::string solverUnknownReason(const std::string& why) {
  return "solver unknown: " + (why.empty() ? std::string("no reason given") : why);
}

uint64_t peakRssMb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream ss(line.substr(6));
      uint64_t kb = 0;
      ss >> kb;
      return (kb + 1023) / 1024;
    }
  return 0;
}

uint64_t currentRssMb() {
  // fopen rather than a stream: this runs every 10 ms and from solver watchdog threads.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0, rss = 0;
  const int n = std::fscanf(f, "%llu %llu", &pages, &rss);
  std::fclose(f);
  return n == 2 ? rss * 4096 / (1024 * 1024) : 0;
}

Budget::Budget(Limits limits, const std::atomic<bool>* interrupt)
    : limits_(limits), interrupt_(interrupt), start_(Clock::now()), nextMemoryCheck_(start_) {
  if (limits_.timeoutSeconds)
    deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(*limits_.timeoutSeconds));
}

Budget::Budget(Limits caps, Budget& outer) : Budget(caps, outer.interruptFlag()) {
  outer_ = &outer;
}

std::optional<Budget::Clock::time_point> Budget::deadline() const {
  std::optional<Clock::time_point> d = outer_ ? outer_->deadline() : std::nullopt;
  if (deadline_ && (!d || *deadline_ < *d)) d = deadline_;
  return d;
}

double Budget::secondsLeft(double fallback) const {
  const auto d = deadline();
  if (!d) return fallback;
  return std::max(0.1, std::chrono::duration<double>(*d - Clock::now()).count());
}

bool Budget::outerStopped() {
  if (!outer_ || !outer_->stopped()) return false;
  stop(outer_->stopped()->kind, outer_->stopped()->reason);
  return true;
}

double Budget::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

bool Budget::stopFromWatchdog() const {
  if (outer_ && outer_->stopFromWatchdog()) return true;
  if (interrupt_ && interrupt_->load(std::memory_order_relaxed)) return true;
  if (!limits_.memoryLimitMb || currentRssMb() < *limits_.memoryLimitMb) return false;
  memoryFromWatchdog_.store(true, std::memory_order_relaxed);
  return true;
}

bool Budget::checkFlags() {
  if (stop_) return true;
  if (memoryFromWatchdog_.load(std::memory_order_relaxed)) {
    stop(StopKind::Memory);
    return true;
  }
  if (interrupt_ && interrupt_->load(std::memory_order_relaxed)) {
    stop(StopKind::Interrupted);
    return true;
  }
  return false;
}

bool Budget::poll() {
  if (outer_ && outer_->poll()) return outerStopped();
  if (checkFlags()) return true;
  if (++calls_ % kClockEvery != 0) return false;
  return checkClockAndMemory();
}

bool Budget::pollNow() {
  if (outer_ && outer_->pollNow()) return outerStopped();
  if (checkFlags()) return true;
  nextMemoryCheck_ = Clock::now();
  return checkClockAndMemory();
}

bool Budget::checkClockAndMemory() {
  const Clock::time_point now = Clock::now();
  if (deadline_ && now >= *deadline_) {
    stop(StopKind::Timeout);
    return true;
  }
  if (limits_.memoryLimitMb && now >= nextMemoryCheck_) {
    nextMemoryCheck_ = now + kMemoryInterval;
    if (currentRssMb() >= *limits_.memoryLimitMb) {
      stop(StopKind::Memory);
      return true;
    }
  }
  return false;
}

bool Budget::chargeState(uint64_t n) {
  states_ += n;
  if (outer_ && outer_->chargeState(n)) return outerStopped();
  if (!statesExhausted()) return false;
  stop(StopKind::States);
  return true;
}

bool Budget::wouldExceedMemory(uint64_t bytes) {
  if (outer_ && outer_->wouldExceedMemory(bytes)) return outerStopped();
  if (!limits_.memoryLimitMb) return false;
  const uint64_t mb = (bytes + (1 << 20) - 1) >> 20;
  if (currentRssMb() + mb < *limits_.memoryLimitMb) return false;
  stop(StopKind::Memory);
  return true;
}

void Budget::stop(StopKind kind) {
  switch (kind) {
    case StopKind::Timeout:
      return stop(kind, timeoutReason(limits_.timeoutSeconds.value_or(0)));
    case StopKind::Memory:
      return stop(kind, memoryReason(limits_.memoryLimitMb.value_or(0)));
    case StopKind::States:
      return stop(kind, stateBoundReason(limits_.maxStates.value_or(0)));
    case StopKind::Depth:
      return stop(kind, depthBoundReason(limits_.maxDepth.value_or(0)));
    case StopKind::Interrupted:
      return stop(kind, interruptedReason());
  }
}

void Budget::stop(StopKind kind, std::string reason) {
  if (!stop_) stop_ = Stop{kind, std::move(reason)};
}

}  // namespace tandem::search
