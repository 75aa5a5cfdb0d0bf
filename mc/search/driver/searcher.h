// Search strategies over the frontier of unexpanded states (KLEE's Searcher: select / update /
// empty / name). Leaf strategies are final; a combinator (InterleavedSearcher) wraps others, as
// KLEE's InterleavedSearcher does. Every random choice comes from a seeded RNG, so every run is
// reproducible.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "mc/search/stores/state_store.h"

namespace tandem::search {

struct FrontierEntry {
  StateStore::Id id;
  uint32_t depth;
  bool novel = false;  // reached a location no earlier state was at (coverage search)
};

// The strategies of --search. `interleaved` alternates coverage-guided and random selection.
enum class Strategy : uint8_t { Dfs, Bfs, Random, Coverage, Interleaved };
const char* strategyName(Strategy s);
std::optional<Strategy> parseStrategy(std::string_view name);
// Every strategy, in the order --help lists them.
const std::vector<Strategy>& allStrategies();

class Searcher {
 public:
  virtual ~Searcher() = default;
  virtual void add(const FrontierEntry& e) = 0;
  virtual FrontierEntry next() = 0;  // precondition: !empty()
  virtual bool empty() const = 0;
  virtual size_t size() const = 0;
  virtual const char* name() const = 0;
};

// A frontier in one container, added to at the back; next() says which state goes first.
template <class Pool>
class PoolSearcher : public Searcher {
 public:
  void add(const FrontierEntry& e) override { pool_.push_back(e); }
  bool empty() const override { return pool_.empty(); }
  size_t size() const override { return pool_.size(); }

 protected:
  FrontierEntry takeBack() {
    auto e = pool_.back();
    pool_.pop_back();
    return e;
  }
  Pool pool_;
};

// Depth-first: the newest state first.
class DfsSearcher final : public PoolSearcher<std::vector<FrontierEntry>> {
 public:
  FrontierEntry next() override { return takeBack(); }
  const char* name() const override { return "dfs"; }
};

// Breadth-first: the oldest state first, so the first error found has a shortest trace.
class BfsSearcher final : public PoolSearcher<std::deque<FrontierEntry>> {
 public:
  FrontierEntry next() override {
    auto e = pool_.front();
    pool_.pop_front();
    return e;
  }
  const char* name() const override { return "bfs"; }
};

// A uniformly random frontier state (seeded).
class RandomSearcher final : public PoolSearcher<std::vector<FrontierEntry>> {
 public:
  explicit RandomSearcher(uint64_t seed) : rng_(seed) {}
  FrontierEntry next() override {
    std::uniform_int_distribution<size_t> pick(0, pool_.size() - 1);
    std::swap(pool_[pick(rng_)], pool_.back());
    return takeBack();
  }
  const char* name() const override { return "random"; }

 private:
  std::mt19937_64 rng_;
};

// Coverage-guided: states that reached a new location go first (depth-first among them), the
// rest afterwards (depth-first).
class CoverageSearcher final : public Searcher {
 public:
  void add(const FrontierEntry& e) override { (e.novel ? novel_ : rest_).push_back(e); }
  FrontierEntry next() override {
    auto& from = novel_.empty() ? rest_ : novel_;
    auto e = from.back();
    from.pop_back();
    return e;
  }
  bool empty() const override { return novel_.empty() && rest_.empty(); }
  size_t size() const override { return novel_.size() + rest_.size(); }
  const char* name() const override { return "coverage"; }

 private:
  std::vector<FrontierEntry> novel_, rest_;
};

// KLEE's interleaving combinator: each selection asks the next searcher in turn. Every searcher
// sees every state; one taken by another searcher is skipped when it comes up (ids are unique
// per run, so a taken-bit per id suffices).
class InterleavedSearcher final : public Searcher {
 public:
  explicit InterleavedSearcher(std::vector<std::unique_ptr<Searcher>> parts);
  void add(const FrontierEntry& e) override;
  FrontierEntry next() override;
  bool empty() const override { return live_ == 0; }
  size_t size() const override { return live_; }
  const char* name() const override { return "interleaved"; }

 private:
  std::vector<std::unique_ptr<Searcher>> parts_;
  std::vector<bool> taken_;
  size_t turn_ = 0, live_ = 0;
};

std::unique_ptr<Searcher> makeSearcher(Strategy s, uint64_t seed);
// Whether the strategy looks at FrontierEntry::novel (callers compute it only then: it costs).
inline bool usesNovelty(Strategy s) {
  return s == Strategy::Coverage || s == Strategy::Interleaved;
}

}  // namespace tandem::search
