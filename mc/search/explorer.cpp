#include "mc/search/explorer.h"

#include <chrono>
#include <fstream>
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

namespace {

uint64_t currentRssMb() {
  std::ifstream in("/proc/self/statm");
  uint64_t pages = 0, rss = 0;
  in >> pages >> rss;
  return rss * 4096 / (1024 * 1024);
}

// Collects what one expansion produces.
class Collector final : public SuccessorSink {
 public:
  struct Succ {
    std::string state;
    Move move;
  };
  void successor(std::string_view state, const Move& move) override {
    succs.push_back({std::string(state), move});
  }
  void error(const FoundError& e) override {
    if (!err) err = e;
  }
  void incomplete(const std::string& reason) override {
    if (why.empty()) why = reason;
  }
  void clear() {
    succs.clear();
    err.reset();
  }
  std::vector<Succ> succs;
  std::optional<FoundError> err;
  std::string why;
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

  Collector c;
  sys_.initialStates(c);
  if (c.err) {
    res.error = c.err;
    return finish(Outcome::ErrorFound);
  }
  std::string incompleteWhy = c.why;
  for (auto& s : c.succs) {
    auto ins = store_.insert(s.state, StateStore::kNoParent);
    if (ins.isNew) searcher->add({ins.id, 0, novel(s.state)});
  }
  double nextProgress = 2.0;
  uint64_t checks = 0;
  while (!searcher->empty()) {
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
    std::string state(store_.get(cur.id));
    c.clear();
    bool moved = sys_.successors(state, c);
    if (c.err) {
      res.error = c.err;
      res.errorSource = cur.id;
      return finish(Outcome::ErrorFound);
    }
    if (!c.why.empty() && incompleteWhy.empty()) incompleteWhy = c.why;
    if (!moved && opts_.deadlock && !sys_.allTerminated(state)) {
      res.errorSource = cur.id;
      return finish(Outcome::Deadlock);
    }
    for (auto& s : c.succs) {
      ++res.transitions;
      auto ins = store_.insert(s.state, cur.id);
      if (opts_.graphLimit && store_.size() <= opts_.graphLimit)
        res.graph.emplace_back(cur.id, ins.id);
      if (!ins.isNew) continue;
      res.maxDepth = std::max<uint64_t>(res.maxDepth, cur.depth + 1);
      searcher->add({ins.id, cur.depth + 1, novel(s.state)});
      if (opts_.maxStates && store_.size() >= *opts_.maxStates && !searcher->empty()) {
        res.reason = "state bound " + std::to_string(*opts_.maxStates) + " reached";
        return finish(Outcome::Incomplete);
      }
    }
  }
  if (!incompleteWhy.empty()) {
    res.reason = incompleteWhy;
    return finish(Outcome::Incomplete);
  }
  return finish(Outcome::Exhausted);
}

}  // namespace tandem::search
