#include "mc/search/driver/driver.h"

#include <algorithm>

namespace tandem::search {

DriveResult drive(Searcher& searcher, Budget& budget, Progress& progress, SearchVisitor& visitor) {
  DriveResult r;
  for (;;) {
    if (visitor.finished()) {
      r.end = DriveEnd::Finished;
      return r;
    }
    if (budget.poll() || budget.statesExhausted()) {
      if (!budget.stopped()) budget.stop(StopKind::States);
      r.end = DriveEnd::Stopped;
      return r;
    }
    if (searcher.empty() && (!visitor.refill() || searcher.empty())) {
      // A bound may have cut the last expansions short (a solver query it interrupted answers
      // unknown, which ends a path): then the search did not run out, it was stopped.
      if (budget.pollNow()) r.end = DriveEnd::Stopped;
      return r;
    }
    progress.tick([&] { return visitor.progress(); });
    const FrontierEntry e = searcher.next();
    r.maxDepth = std::max<uint64_t>(r.maxDepth, e.depth);
    if (budget.depthExceeded(e.depth)) {
      if (visitor.cut(e)) ++r.depthCuts;
      continue;
    }
    ++r.expanded;
    visitor.expand(e);
  }
}

}  // namespace tandem::search
