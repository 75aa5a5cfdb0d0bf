// The tree store's compact table of roots: a set of pairs of ids kept as quotients, exact
// through doublings (ids widening), with the overflow for ids too wide and for runs of full
// slots longer than a slot can say, and under concurrent inserts.
#include <doctest/doctest.h>

#include <atomic>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "mc/search/stores/compact_root_table.h"

namespace tandem {
namespace {

using search::CompactRootTable;

TEST_CASE("compact roots: the set of pairs, through doublings that widen the ids") {
  CompactRootTable t(12);
  CHECK(t.idBits() == 18);
  std::mt19937_64 rng(7);
  std::set<std::pair<uint32_t, uint32_t>> model;
  for (unsigned round = 0; round < 6; ++round) {
    const unsigned bits = t.idBits();
    for (int k = 0; k < 3000; ++k) {
      // Mostly ids that fit, some one bit too wide (overflow), some repeats.
      const uint32_t limit = (k % 50 == 0) ? (2u << bits) : (1u << bits);
      const auto left = static_cast<uint32_t>(rng() % limit);
      const auto right = static_cast<uint32_t>(rng() % (k % 7 == 0 ? 4 : limit));
      CHECK(t.insert(left, right) == model.insert({left, right}).second);
    }
    t.doubleSize();
  }
  CHECK(t.idBits() == 21);  // 12 + 6 bits of slots: (24 + 18) / 2
  for (const auto& [l, r] : model) CHECK_FALSE(t.insert(l, r));
  CHECK(t.insert(0, 0) == !model.count({0, 0}));
  CHECK(t.insert(UINT32_MAX, UINT32_MAX));  // as wide as ids get
  CHECK_FALSE(t.insert(UINT32_MAX, UINT32_MAX));
}

TEST_CASE("compact roots: a run of full slots past the distance a slot can hold overflows") {
  CompactRootTable t(12);  // 4096 slots, filled to the brim and beyond
  std::set<std::pair<uint32_t, uint32_t>> model;
  for (uint32_t i = 0; i < 5000; ++i) {
    const uint32_t l = i * 7 % 3001, r = i / 3001;
    CHECK(t.insert(l, r) == model.insert({l, r}).second);
  }
  CHECK(t.overflowed() > 0);
  for (const auto& [l, r] : model) CHECK_FALSE(t.insert(l, r));
  t.doubleSize();  // the overflow moves into the table where it now fits
  for (const auto& [l, r] : model) CHECK_FALSE(t.insert(l, r));
  CHECK(t.overflowed() == 0);
}

TEST_CASE("compact roots: concurrent inserts add each pair once") {
  CompactRootTable t(20);
  constexpr uint32_t kPairs = 200000;
  std::atomic<uint32_t> added{0};
  auto work = [&](unsigned w) {
    for (uint32_t k = 0; k < kPairs; ++k) {
      const uint32_t i = (k * (w + 1) * 7919u) % kPairs;
      if (t.insert(i % 1000, i / 1000)) added.fetch_add(1);
    }
  };
  std::vector<std::thread> ts;
  for (unsigned w = 0; w < 3; ++w) ts.emplace_back(work, w);
  for (auto& th : ts) th.join();
  CHECK(added.load() == kPairs);
}

}  // namespace
}  // namespace tandem
