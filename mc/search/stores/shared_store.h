// The visited set of the multi-core explorer: exact, shared by all workers, with a parent
// reference per state for counterexamples. It follows Laarman, van de Pol and Weber ("Boosting
// multi-core reachability performance with shared hash tables", FMCAD 2010): one open-addressing
// table of 64-bit words, linear probing, and find-or-put by compare-and-swap, so workers never
// take a lock to look a state up or add it. A word holds a hash tag and the position of the
// state's record; a worker writes the record into its own arena chunk first and publishes it by
// the CAS that claims an empty slot (a lost race leaves the record unpublished and reused).
//
// Unlike that paper's table, this one grows: when it is 70% full a worker doubles it while the
// others wait (each worker announces the batches of lookups it does, so the one that grows the
// table knows when nobody is inside). Growing is rare (log2 of the state count times) and keeps
// the table as small as the state space, where a fixed table must be sized in advance. The
// slot of a state is given by the top bits of its hash, and a word keeps the top 28 bits, so a
// table of up to 2^28 slots grows without reading the records again.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "mc/search/stores/growth_gate.h"
#include "mc/search/stores/state_store.h"
#include "mc/search/stores/top_bits_table.h"
#include "mc/search/stores/visited_set.h"
#include "mc/search/stores/word_array.h"
#include "mc/search/stores/worker_counts.h"

namespace tandem::search {

class SharedStateStore final : public VisitedSet {
 public:
  // A state's record: its position in the arena (bits 22+ the chunk, the rest the offset).
  using Ref = uint64_t;
  static constexpr unsigned kPosBits = 36;  // a word: hash tag (28 bits) | position + 1
  static constexpr Ref kNoParent = (Ref{1} << kPosBits) - 1;
  explicit SharedStateStore(unsigned workers);
  ~SharedStateStore();
  SharedStateStore(const SharedStateStore&) = delete;
  SharedStateStore& operator=(const SharedStateStore&) = delete;

  // Every insert of worker `w` happens between enter(w) and leave(w); enter waits while the
  // table grows. A worker that holds no state between the two (waiting for work) is outside.
  // Returns false (and stays outside) when the store is full and cannot take a batch.
  bool enter(unsigned w, const MayAllocate& mayAllocate) override {
    for (unsigned rounds = 0;;) {
      if (tryEnter(w)) return true;
      if (full()) return false;
      if (growthDue(kBlockAt))
        growIfDue(w, mayAllocate);  // overdue: grow it now
      else
        waitWhileGrowing(rounds);
    }
  }
  StoreKind kind() const override { return StoreKind::Exact; }
  void leave(unsigned w) override { gate_.leave(w); }

  void prefetch(uint64_t hash) const override;
  // Adds the state unless an equal one is stored; `parent` is recorded for a new state only.
  // Precondition: inside enter(w)/leave(w). A key's id is the record's position.
  Insert insert(unsigned w, std::string_view state, uint64_t hash, StateKey parent) override;
  void prefetchState(uint64_t hash) const override;
  // Grows the table if it is due; called outside enter/leave (e.g. right after leave). Returns
  // false when the store is full: the memory check refused the bigger table, or the arena is
  // exhausted. `mayAllocate(bytes)` must be thread-safe.
  bool growIfDue(unsigned w, const MayAllocate& mayAllocate) override {
    if (!growthDue(kGrowAt)) return !full();
    return grow(w, mayAllocate(slotCount_.load(std::memory_order_acquire) * 2 * sizeof(uint64_t)));
  }
  bool full() const override { return full_.load(std::memory_order_acquire); }

  std::string_view get(unsigned, StateKey key) override { return get(key.id); }
  std::string_view get(Ref ref) const;
  // The mark is the top bit of the record's parent field (parents take 36 of its 40 bits).
  bool marksExpanded() const override { return true; }
  void markExpanded(StateKey key) override;
  bool isExpanded(std::string_view state, uint64_t hash) const override;
  bool hasParents() const override { return true; }
  StateKey parent(StateKey key) const override;
  // The states stored so far (exact once the workers stopped; a lower bound while they run).
  uint64_t size() const override;
  size_t memoryBytes() const override;
  StateStore::Memory memory() const override;

 private:
  static constexpr unsigned kChunkBits = 22;  // 4 MiB arena chunks
  static constexpr unsigned kMaxChunks = 1u << (kPosBits - kChunkBits);
  static constexpr unsigned kTagBits = 64 - kPosBits;
  static constexpr double kGrowAt = 0.7, kBlockAt = 0.9;  // load factors
  static constexpr uint64_t kCountStep = 256;             // workers publish their counts in steps
  struct Worker : WorkerCounts {
    uint64_t unpublished = 0;  // new states not yet added to approxStates_
    uint64_t arenaBytes = 0;
    uint32_t chunk = 0;  // the chunk it writes to (0: none yet; chunk ids start at 1)
    size_t used = 0, cap = 0;
  };
  bool growthDue(double load) const {
    return static_cast<double>(approxStates_.load(std::memory_order_relaxed) +
                               kCountStep * workers_.size()) >
           load * static_cast<double>(slotCount_.load(std::memory_order_acquire));
  }
  // Doubles the table (`allowed`: the memory check passed); false if the store is full.
  bool grow(unsigned self, bool allowed);
  char* chunk(uint64_t ref) const;
  // Writes a record at worker w's arena tail without committing it; returns its position.
  Ref writeRecord(Worker& w, std::string_view state, Ref parent);
  Ref find(std::string_view state, uint64_t hash) const;  // kNoParent: not stored
  std::atomic_ref<uint8_t> expandedByte(Ref ref) const;   // the parent field's top byte
  static constexpr uint8_t kExpandedBit = 0x80;
  void commit(Worker& w, std::string_view state);
  static bool sameBytes(std::string_view stored, std::string_view s);

  std::vector<Worker> workers_;
  bool tryEnter(unsigned w) {
    return gate_.tryEnter(w, [&] { return growthDue(kBlockAt); });
  }
  void waitWhileGrowing(unsigned& rounds) const { gate_.waitWhileGrowing(rounds); }

  std::unique_ptr<std::atomic<char*>[]> chunks_;  // directory of arena chunks
  std::atomic<uint32_t> nextChunk_{1};
  TopBitsTable table_;                // replaced only while no worker is inside enter/leave
  std::atomic<size_t> slotCount_{0};  // table_.size, for readers outside enter/leave
  GrowthGate gate_;
  std::atomic<uint64_t> approxStates_{0};  // for the growth trigger, updated in steps
  std::atomic<bool> full_{false};
};

}  // namespace tandem::search
