// The one search loop of Tandem. Every engine that walks a graph (explicit check, symbolic
// check and testgen, DART's runs, prove's concrete execution, triage, run) is this loop with a
// searcher (the order), a budget (the bounds, checked here and nowhere else in the loop), a
// progress line, and a visitor that expands one frontier entry and says when it is done.
#pragma once

#include <cstdint>

#include "mc/search/driver/budget.h"
#include "mc/search/driver/progress.h"
#include "mc/search/driver/searcher.h"

namespace tandem::search {

class SearchVisitor {
 public:
  virtual ~SearchVisitor() = default;
  // Expands `e`: its successors go into the searcher the driver was given.
  virtual void expand(const FrontierEntry& e) = 0;
  // The engine has what it was looking for (e.g. an error): the search ends now.
  virtual bool finished() const = 0;
  // The frontier is empty: the visitor may fill it again (the class analysis's next round of
  // method calls). False when there is nothing more to explore.
  virtual bool refill() { return false; }
  // `e` is at --max-depth and is not expanded. Returns whether that cut something off (false:
  // the state had nothing left to do, e.g. a symbolic path that ends there and is recorded).
  virtual bool cut(const FrontierEntry& e) {
    (void)e;
    return true;
  }
  virtual ProgressSample progress() const = 0;
};

enum class DriveEnd : uint8_t {
  Exhausted,  // the frontier ran empty
  Finished,   // the visitor said so
  Stopped,    // a bound or an interrupt: Budget::stopped() says which
};

struct DriveResult {
  DriveEnd end = DriveEnd::Exhausted;
  uint64_t expanded = 0;
  uint64_t depthCuts = 0;  // entries not expanded because of --max-depth
  uint64_t maxDepth = 0;   // the deepest entry taken from the frontier
};

// Runs the search until the frontier is empty, the visitor is finished, or the budget stops it.
// Entries at --max-depth are not expanded (counted in depthCuts); the engine decides what they
// mean for its verdict. --max-states is the visitor's to charge (Budget::chargeState).
DriveResult drive(Searcher& searcher, Budget& budget, Progress& progress, SearchVisitor& visitor);

}  // namespace tandem::search
