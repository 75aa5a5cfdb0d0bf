// `--store hc`: hash compaction (Wolper and Leroy, "Reliable hashing without collision
// detection", CAV 1993; SPIN's -DHC4). Each state is stored as a signature only: here its whole
// 64-bit XXH3 hash, in an open-addressing table of 64-bit words (linear probing, find-or-put by
// compare-and-swap, as SharedStateStore). Two states with the same signature are taken for one:
// the second is never explored. With n states and b-bit signatures the expected number of such
// pairs is n(n-1)/2 / 2^b, which is also about the probability of any (b = 64: 10^8 states give
// 2.7e-4). The table grows like SharedStateStore's (the slot is the signature's top bits, so a
// doubling needs no state), and a state costs 8 bytes / load factor, whatever its size.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include "mc/search/stores/growth_gate.h"
#include "mc/search/stores/visited_set.h"
#include "mc/search/stores/word_array.h"
#include "mc/search/stores/worker_counts.h"

namespace tandem::search {

class HashCompactionStore final : public LossySet {
 public:
  explicit HashCompactionStore(unsigned workers);

  StoreKind kind() const override { return StoreKind::HashCompaction; }
  bool enter(unsigned w, const MayAllocate& may) override;
  void leave(unsigned w) override { gate_.leave(w); }
  bool growIfDue(unsigned w, const MayAllocate& may) override;
  bool full() const override { return full_.load(std::memory_order_acquire); }
  void prefetch(uint64_t hash) const override;
  // New unless a state with the same signature was stored; `parent` is not kept.
  Insert insert(unsigned w, std::string_view state, uint64_t hash, StateKey parent) override;
  std::optional<Omission> omission() const override;
  uint64_t size() const override;
  size_t memoryBytes() const override { return slots_.load() * sizeof(uint64_t); }
  StateStore::Memory memory() const override;

  static constexpr unsigned kSignatureBits = 64;

 private:
  static constexpr double kGrowAt = 0.7, kBlockAt = 0.9;  // load factors
  static constexpr uint64_t kCountStep = 256;             // workers publish their counts in steps
  struct Worker : WorkerCounts {
    uint64_t unpublished = 0;  // new states not yet added to approxStates_
  };
  bool growthDue(double load) const {
    return static_cast<double>(approxStates_.load(std::memory_order_relaxed) +
                               kCountStep * workers_.size()) >
           load * static_cast<double>(slots_.load(std::memory_order_acquire));
  }
  size_t home(uint64_t sig) const { return sig >> (64 - bits_); }
  bool grow(unsigned self, bool allowed);

  std::vector<Worker> workers_;
  unsigned bits_ = 16;  // log2 of the table's slots
  WordArray table_;     // signatures; 0 = empty. Replaced only while no worker is inside.
  std::atomic<size_t> slots_{0};
  GrowthGate gate_;
  std::atomic<uint64_t> approxStates_{0};
  std::atomic<bool> full_{false};
};

}  // namespace tandem::search
