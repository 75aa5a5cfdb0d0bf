#include "mc/search/explorer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <ostream>
#include <set>
#include <sstream>

#include "mc/search/searcher.h"

namespace tandem::search {

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
  std::ifstream in("/proc/self/statm");
  uint64_t pages = 0, rss = 0;
  in >> pages >> rss;
  return rss * 4096 / (1024 * 1024);
}

namespace {

// Inserts successors into the store, and remembers the first error and the first reason for
// incompleteness. The successors of one state are hashed and their table slots prefetched as they
// arrive, then inserted together by flush() (in arrival order, exactly as if inserted one by one):
// the cache misses of the lookups overlap instead of stalling one after another. The buffers are
// reused, so there is no allocation per state.
class InsertingSink final : public SuccessorSink {
 public:
  InsertingSink(StateStore& store, Searcher& searcher, ExploreResult& res,
                const ExploreOptions& opts, std::function<bool(std::string_view)> novel)
      : store_(store), searcher_(searcher), res_(res), opts_(opts), novel_(std::move(novel)) {}

  void from(StateStore::Id parent, uint32_t depth) {
    parent_ = parent;
    depth_ = depth;
  }
  void successor(std::string_view state, const Move&) override {
    if (err || boundHit) return;
    uint64_t h = StateStore::hash(state);
    store_.prefetch(h);
    pending_.push_back({bytes_.size(), state.size(), h});
    bytes_.append(state);
  }
  void flush() {
    if (pending_.size() > 1)
      for (const Pending& p : pending_) store_.prefetchState(p.hash);
    for (const Pending& p : pending_) {
      if (boundHit) break;
      insert(std::string_view(bytes_).substr(p.at, p.size), p.hash);
    }
    pending_.clear();
    bytes_.clear();
  }
  void error(const FoundError& e) override {
    flush();  // the successors reported before the error count, as when inserted at once
    if (!err) err = e;
  }
  void incomplete(const std::string& reason) override {
    if (why.empty()) why = reason;
  }
  std::optional<FoundError> err;
  std::string why;
  bool boundHit = false;

 private:
  StateStore& store_;
  Searcher& searcher_;
  ExploreResult& res_;
  const ExploreOptions& opts_;
  std::function<bool(std::string_view)> novel_;
  struct Pending {
    size_t at, size;
    uint64_t hash;
  };
  void insert(std::string_view state, uint64_t hash) {
    if (parent_ != StateStore::kNoParent) ++res_.transitions;
    auto ins = store_.insert(state, parent_, hash);
    if (opts_.graphLimit && parent_ != StateStore::kNoParent && store_.size() <= opts_.graphLimit)
      res_.graph.emplace_back(parent_, ins.id);
    if (!ins.isNew) return;
    uint32_t d = parent_ == StateStore::kNoParent ? 0 : depth_ + 1;
    res_.maxDepth = std::max<uint64_t>(res_.maxDepth, d);
    searcher_.add({ins.id, d, novel_(state)});
    if (opts_.maxStates && store_.size() >= *opts_.maxStates) boundHit = true;
  }

  StateStore::Id parent_ = StateStore::kNoParent;
  uint32_t depth_ = 0;
  std::vector<Pending> pending_;
  std::string bytes_;
};

}  // namespace

ExploreResult Explorer::run() {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  ExploreResult res;
  auto searcher = makeSearcher(opts_.search, opts_.seed);
  std::set<ir::LocId> seenLocs;
  std::vector<ir::LocId> locs;
  bool coverage = opts_.search == "coverage";
  auto novel = [&](std::string_view s) {
    if (!coverage) return false;
    sys_.locations(s, locs);
    bool any = false;
    for (auto l : locs) any = seenLocs.insert(l).second || any;
    return any;
  };
  auto finish = [&](Outcome o) {
    res.outcome = o;
    res.states = store_.size();
    res.seconds = elapsed();
    res.storeBytes = store_.memoryBytes();
    res.peakRssMb = peakRssMb();
    res.graphComplete = opts_.graphLimit > 0 && store_.size() <= opts_.graphLimit;
    return res;
  };

  InsertingSink sink(store_, *searcher, res, opts_, novel);
  sink.from(StateStore::kNoParent, 0);
  sys_.initialStates(sink);
  sink.flush();
  if (sink.err) {
    res.error = sink.err;
    return finish(Outcome::ErrorFound);
  }
  double nextProgress = 2.0;
  uint64_t checks = 0;
  std::string incompleteWhy;
  while (!searcher->empty()) {
    if (sink.boundHit) {
      res.reason = "state bound " + std::to_string(*opts_.maxStates) + " reached";
      return finish(Outcome::Incomplete);
    }
    if ((++checks & 1023) == 0) {
      double t = elapsed();
      if (opts_.timeoutSeconds && t > *opts_.timeoutSeconds) {
        res.reason = "timeout of " + std::to_string(*opts_.timeoutSeconds) + " s reached";
        return finish(Outcome::Incomplete);
      }
      if (opts_.memoryLimitMb && currentRssMb() > *opts_.memoryLimitMb) {
        res.reason = "memory limit of " + std::to_string(*opts_.memoryLimitMb) + " MB reached";
        return finish(Outcome::Incomplete);
      }
      if (opts_.progress && t >= nextProgress) {
        *opts_.progress << "tandem: " << store_.size() << " states, " << res.transitions
                        << " transitions, depth " << res.maxDepth << ", "
                        << static_cast<uint64_t>(store_.size() / t) << " states/s, "
                        << currentRssMb() << " MB\n";
        nextProgress = t + 1.0;
      }
    }
    FrontierEntry cur = searcher->next();
    if (opts_.maxDepth && cur.depth >= *opts_.maxDepth) {
      if (incompleteWhy.empty())
        incompleteWhy = "depth bound " + std::to_string(*opts_.maxDepth) + " reached";
      continue;
    }
    std::string_view state = store_.get(cur.id);  // arena memory never moves
    sink.from(cur.id, cur.depth);
    bool moved = sys_.successors(state, sink);
    sink.flush();
    if (sink.err) {
      res.error = sink.err;
      res.errorSource = cur.id;
      return finish(Outcome::ErrorFound);
    }
    if (!moved && opts_.deadlock && !sys_.allTerminated(state)) {
      res.errorSource = cur.id;
      return finish(Outcome::Deadlock);
    }
  }
  if (incompleteWhy.empty()) incompleteWhy = sink.why;
  if (!incompleteWhy.empty()) {
    res.reason = incompleteWhy;
    return finish(Outcome::Incomplete);
  }
  return finish(Outcome::Exhausted);
}

}  // namespace tandem::search
