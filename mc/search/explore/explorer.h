// The explicit-state explorer: a visited set, the search driver with a searcher and the budget,
// and property checks over any TransitionSystem. It stops at the first error (like SPIN without
// -e), and says `exhausted` only when every reachable state was expanded with nothing left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mc/search/driver/budget.h"
#include "mc/search/driver/progress.h"
#include "mc/search/driver/searcher.h"
#include "mc/search/por/por_analysis.h"
#include "mc/search/stores/state_store.h"
#include "mc/search/stores/visited_set.h"
#include "mc/search/transition_system.h"

namespace tandem::search {

// What every explorer of a closed system is told (each explorer's options extend it).
struct SearchOptions {
  Strategy search = Strategy::Dfs;
  // The run's budget (not owned); null: one of its own from `limits`, where the explorer has
  // them. --max-states counts stored states, --max-depth the moves from an initial state.
  Budget* budget = nullptr;
  bool deadlock = false;         // a deadlock is an error
  Progress* progress = nullptr;  // null: no progress line
};

struct ExploreOptions : SearchOptions {
  uint64_t seed = 0;
  Limits limits;
  size_t graphLimit = 0;  // record the state graph (and moves) up to this many states (--dot)
  // Partial-order reduction (check --por): the analysis of the closed system; null: off.
  const PorAnalysis* por = nullptr;
};

enum class Outcome { Exhausted, ErrorFound, Deadlock, Incomplete };

struct ExploreResult {
  Outcome outcome = Outcome::Exhausted;
  std::string reason;  // Incomplete: which bound was hit or what could not be explored
  uint64_t states = 0, transitions = 0, maxDepth = 0;
  double seconds = 0;
  size_t storeBytes = 0;
  StateStore::Memory storeMemory;
  uint64_t matched = 0;  // transitions to a state already stored (SPIN's "states, matched")
  uint64_t peakRssMb = 0;
  // --por: expanded states whose successors were reduced, and those fully expanded.
  uint64_t porReduced = 0, porFull = 0;
  // A lossy store (hc, bitstate): its estimate of the states it omitted.
  std::optional<Omission> omission;
  std::optional<FoundError> error;  // ErrorFound
  // ErrorFound / Deadlock: the state the error was found from (its path via parent pointers);
  // kNoParent for an error in an initial state.
  StateStore::Id errorSource = StateStore::kNoParent;
  // --dot: the transitions among the first graphLimit states stored, with their moves.
  struct GraphEdge {
    StateStore::Id from, to;
    Move move;
  };
  bool graphComplete = false;
  std::vector<GraphEdge> graph;
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

}  // namespace tandem::search
