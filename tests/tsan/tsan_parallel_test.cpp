// The multi-core explorer and its shared store under ThreadSanitizer: every data race between
// the workers (the lock-free table, its growth, work sharing, the bfs barriers, the first error,
// the bounds) is a test failure. A synthetic system keeps this build small: three counters
// 0..kMax-1 that each thread steps up and wraps round, so the graph has diamonds and cycles.
// They lie apart in a 12-byte state, so that the tree store makes nodes and compact roots.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "mc/search/explore/parallel_explorer.h"

namespace tandem::search {
namespace {

constexpr int kMax = 30;                             // 27,000 states, 81,000 transitions
constexpr size_t kAt[3] = {0, 5, 10}, kLength = 12;  // where the counters lie in the state

class Counters final : public TransitionSystem {
 public:
  explicit Counters(bool failAtTop) : failAtTop_(failAtTop) {}
  std::string name() const override { return "counters"; }
  void initialStates(SuccessorSink& sink) override {
    sink.successor(std::string(kLength, '\0'), {});
  }
  bool successors(std::string_view state, SuccessorSink& sink) override {
    std::string next(state);
    for (uint32_t t = 0; t < 3; ++t) {
      next = state;
      next[kAt[t]] = static_cast<char>((state[kAt[t]] + 1) % kMax);
      Move m;
      m.thread = t;
      if (failAtTop_ && next[0] == kMax - 1 && next[5] == kMax - 1 && next[10] == kMax - 1) {
        FoundError e;
        e.message = "all counters at the top";
        e.move = m;
        sink.error(e);
        return true;
      }
      sink.successor(next, m);
    }
    return true;
  }
  std::optional<FoundError> checkInvariants(std::string_view) override { return std::nullopt; }
  bool allAtValidEnd(std::string_view) override { return true; }
  void locations(std::string_view, std::vector<ir::LocId>& out) override { out.clear(); }

 private:
  bool failAtTop_;
};

// The counters are independent and no property reads them: a stubborn set is any one thread's
// step, here the lowest thread's, unless the cycle proviso refuses it (a successor expanded).
class LowestThread final : public SuccessorReducer {
 public:
  bool selectAt(TransitionSystem&, std::string_view, const std::vector<PorMove>& moves,
                const std::function<bool(size_t)>& expanded, std::vector<char>& keep) override {
    keep.assign(moves.size(), 1);
    for (size_t i = 0; i < moves.size(); ++i)
      if (moves[i].thread == moves[0].thread && expanded(i)) return false;
    bool dropped = false;
    for (size_t i = 0; i < moves.size(); ++i)
      if (moves[i].thread != moves[0].thread) keep[i] = 0, dropped = true;
    return dropped;
  }
};

ExploreResult explore(unsigned threads, Strategy s, bool fail, Limits limits,
                      std::vector<std::string>* path = nullptr,
                      const std::atomic<bool>* interrupt = nullptr,
                      StoreKind store = StoreKind::Exact, bool reduce = false) {
  Budget budget(limits, interrupt);
  ParallelOptions o;
  o.threads = threads;
  o.search = s;
  o.budget = &budget;
  o.shareAfter = 0;
  o.store = store;
  if (reduce) o.reducer = [] { return std::make_unique<LowestThread>(); };
  ParallelExplorer px([fail] { return std::make_unique<Counters>(fail); }, o);
  ExploreResult r = px.run();
  if (path) *path = px.errorPath();
  return r;
}

}  // namespace

TEST_CASE("tsan: exact counts with 2 and 4 workers, dfs and bfs") {
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs})
    for (unsigned threads : {2u, 4u}) {
      const ExploreResult r = explore(threads, s, false, {});
      CHECK(r.outcome == Outcome::Exhausted);
      CHECK(r.states == kMax * kMax * kMax);
      CHECK(r.transitions == 3 * kMax * kMax * kMax);
      CHECK(r.matched == 3 * kMax * kMax * kMax - (kMax * kMax * kMax - 1));
    }
}

TEST_CASE("tsan: the tree store, with the paths handed over with the work") {
  const ExploreResult r = explore(3, Strategy::Dfs, false, {}, nullptr, nullptr, StoreKind::Tree);
  CHECK(r.outcome == Outcome::Exhausted);
  CHECK(r.states == kMax * kMax * kMax);
  CHECK(r.transitions == 3 * kMax * kMax * kMax);
}

TEST_CASE("tsan: the lossy stores, with stacks of states handed over with the work") {
  const ExploreResult hc =
      explore(3, Strategy::Dfs, false, {}, nullptr, nullptr, StoreKind::HashCompaction);
  CHECK(hc.outcome == Outcome::Exhausted);
  CHECK(hc.states == kMax * kMax * kMax);
  CHECK(hc.transitions == 3 * kMax * kMax * kMax);
  // Two workers may both set the bits of one new state at once (a state counted twice).
  const ExploreResult bits =
      explore(3, Strategy::Dfs, false, {}, nullptr, nullptr, StoreKind::Bitstate);
  CHECK(bits.outcome == Outcome::Exhausted);
  CHECK(bits.states >= kMax * kMax * kMax);
  CHECK(bits.states <= kMax * kMax * kMax + 100);
}

TEST_CASE("tsan: the first error stops every worker, and its path is a path") {
  for (auto [s, store] : {std::pair{Strategy::Dfs, StoreKind::Exact},
                          {Strategy::Bfs, StoreKind::Exact},
                          {Strategy::Dfs, StoreKind::Tree},
                          {Strategy::Dfs, StoreKind::HashCompaction},
                          {Strategy::Dfs, StoreKind::Bitstate}}) {
    std::vector<std::string> path;
    const ExploreResult r = explore(2, s, true, {}, &path, nullptr, store);
    REQUIRE(r.outcome == Outcome::ErrorFound);
    REQUIRE(!path.empty());
    CHECK(path.front() == std::string(kLength, '\0'));
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      int changed = 0;
      for (int t = 0; t < 3; ++t) changed += path[i][kAt[t]] != path[i + 1][kAt[t]];
      CHECK(changed == 1);
    }
    if (s == Strategy::Bfs) CHECK(path.size() == 3 * (kMax - 1));  // the shortest way up
  }
}

TEST_CASE("tsan: a reduction in every worker, with the expanded marks of the shared store") {
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    const ExploreResult r = explore(2, s, false, {}, nullptr, nullptr, StoreKind::Exact, true);
    CHECK(r.outcome == Outcome::Exhausted);
    CHECK(r.porReduced > 0);
    CHECK(r.states <= kMax * kMax * kMax);
    // The reduction keeps the error: every counter still gets to the top.
    const ExploreResult e = explore(2, s, true, {}, nullptr, nullptr, StoreKind::Exact, true);
    CHECK(e.outcome == Outcome::ErrorFound);
  }
}

TEST_CASE("tsan: the bounds and an interrupt end every worker") {
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    Limits states;
    states.maxStates = 7000;
    const ExploreResult t =
        explore(2, Strategy::Dfs, false, states, nullptr, nullptr, StoreKind::Tree);
    CHECK(t.states == 7000);
    const ExploreResult a = explore(3, s, false, states);
    CHECK(a.outcome == Outcome::Incomplete);
    CHECK(a.states == 7000);
    std::atomic<bool> stop{false};
    std::thread later([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      stop = true;
    });
    const ExploreResult b = explore(2, s, false, {}, nullptr, &stop);
    later.join();
    CHECK((b.outcome == Outcome::Incomplete || b.outcome == Outcome::Exhausted));
  }
}

}  // namespace tandem::search
