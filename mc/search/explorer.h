// The explicit-state explorer: a visited set, a searcher, bounds, and property checks over any
// TransitionSystem. It stops at the first error (like SPIN without -e), and says `exhausted` only
// when every reachable state was expanded with nothing left out.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "mc/search/state_store.h"
#include "mc/search/transition_system.h"

namespace tandem::search {

struct ExploreOptions {
  std::string search = "dfs";
  uint64_t seed = 0;
  std::optional<uint64_t> maxDepth, maxStates;
  std::optional<double> timeoutSeconds;
  std::optional<uint64_t> memoryLimitMb;
  bool deadlock = false;
  std::ostream* progress = nullptr;  // a line about once a second on runs longer than 2 s
  size_t graphLimit = 0;             // record the state graph up to this many states (--dot)
};

enum class Outcome { Exhausted, ErrorFound, Deadlock, Incomplete };

struct ExploreResult {
  Outcome outcome = Outcome::Exhausted;
  std::string reason;  // Incomplete: which bound was hit or what could not be explored
  uint64_t states = 0, transitions = 0, maxDepth = 0;
  double seconds = 0;
  size_t storeBytes = 0;
  uint64_t peakRssMb = 0;
  std::optional<FoundError> error;  // ErrorFound
  // ErrorFound / Deadlock: the state the error was found from (its path via parent pointers);
  // kNoParent for an error in an initial state.
  StateStore::Id errorSource = StateStore::kNoParent;
  bool graphComplete = false;
  std::vector<std::pair<StateStore::Id, StateStore::Id>> graph;
};

class Explorer {
 public:
  Explorer(TransitionSystem& sys, ExploreOptions opts) : sys_(sys), opts_(std::move(opts)) {}
  ExploreResult run();
  const StateStore& store() const { return store_; }

 private:
  TransitionSystem& sys_;
  ExploreOptions opts_;
  StateStore store_;
};

// Peak resident set size of this process, in MB (from /proc/self/status).
uint64_t peakRssMb();
// Current resident set size of this process, in MB (from /proc/self/statm).
uint64_t currentRssMb();

}  // namespace tandem::search
