// `--store tree`: the visited set with tree compression (Laarman, van de Pol, Weber, "Parallel
// recursive state compression for free", SPIN 2011). A state of n 32-bit words is the root of a
// binary tree whose leaves are the words; every inner node is a pair of its children (a word or
// the id of a node), stored once in a shared table of pairs, so states that share a half share
// its node. A state is stored as its root pair alone, in 4 bytes of one compact table of roots
// (compact_root_table.h; the state's length is its last leaf, so states of any length share it);
// a state of up to 8 bytes is its own root, 8 bytes in a table for its length. A successor that
// changes a word or two makes one or two new nodes at most, and the nodes of its parent are
// reused without a lookup (the parent's tree is at hand: the worker has just decoded it to expand
// it). The store is lossless and keeps no parent pointers (the depth-first explorer keeps the
// path to each state instead), so it serves dfs only.
//
// Every table is lock-free (find-or-put by compare-and-swap) and grows by doubling behind the
// GrowthGate, releasing the old table's pages as it reads them (WordArray).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mc/search/stores/compact_root_table.h"
#include "mc/search/stores/growth_gate.h"
#include "mc/search/stores/top_bits_table.h"
#include "mc/search/stores/visited_set.h"
#include "mc/search/stores/word_array.h"
#include "mc/search/stores/worker_counts.h"

namespace tandem::search {

class TreeStore final : public VisitedSet {
 public:
  explicit TreeStore(unsigned workers);
  ~TreeStore() override;
  StoreKind kind() const override { return StoreKind::Tree; }
  bool enter(unsigned w, const MayAllocate& may) override;
  void leave(unsigned w) override { gate_.leave(w); }
  bool growIfDue(unsigned w, const MayAllocate& may) override;
  bool full() const override { return full_.load(std::memory_order_acquire); }
  void prefetch(uint64_t) const override {}
  void prefetchState(uint64_t) const override {}
  Insert insert(unsigned w, std::string_view state, uint64_t hash, StateKey parent) override;
  std::string_view get(unsigned w, StateKey key) override;
  bool hasParents() const override { return false; }
  StateKey parent(StateKey) const override { return kNoKey; }
  uint64_t size() const override;
  size_t memoryBytes() const override;
  StateStore::Memory memory() const override;
  // Inner nodes stored (for --stats).
  uint64_t nodes() const { return nextNode_.load(std::memory_order_relaxed); }

 private:
  // A table of roots, and how many there are. A state of up to 8 bytes is its own root, kept
  // whole in a table for its length; a longer one's root is a pair of node ids, kept compactly
  // in one table for all lengths (the length is the tree's last leaf).
  static constexpr size_t kShortState = 8, kRootTables = kShortState + 2;
  static size_t rootTable(size_t length) { return std::min(length, kShortState + 1); }
  struct Roots {
    std::unique_ptr<CompactRootTable> compact;  // longer states; doubled only inside the gate
    TopBitsTable plain;                         // short states; replaced only inside the gate
    std::atomic<bool> zero{false};     // plain: the root 0 (it cannot sit in a slot: 0 is empty)
    std::atomic<size_t> slots{0};      // the table's slots, for readers outside the gate
    std::atomic<unsigned> idBits{32};  // compact->idBits(), likewise
    std::atomic<uint64_t> count{0};    // published in steps by the workers
    std::atomic<bool> used{false};     // a root was put (the statistics show tables in use)
  };
  struct Worker : WorkerCounts {
    std::array<uint64_t, kRootTables> unpublished{};  // new roots not yet in Roots::count
    // The tree of the state last decoded (get): its key, words and the refs of its inner nodes
    // by preorder position; a successor reuses the refs of the halves it shares with it.
    StateKey decoded = kNoKey;
    std::vector<uint32_t> words, refs, scratch;
    std::string bytes;
  };
  // Load factors at which a table doubles, and at which a worker waits for it to. The roots
  // fill to 90%: they are nearly all of the store, and the tree store trades time for memory.
  static constexpr double kNodesGrowAt = 0.75, kRootsGrowAt = 0.9, kBlockAt = 0.96;
  static constexpr uint64_t kCountStep = 256;
  static constexpr unsigned kSegmentBits = 20;  // node contents in segments of 2^20 pairs
  static constexpr unsigned kMaxSegments = 1u << 12;

  uint32_t ref(Worker& me, const uint32_t* w, size_t lo, size_t hi, size_t pos, bool reuse);
  uint32_t findOrPutNode(uint64_t pair);
  uint64_t nodeContent(uint32_t id) const;
  void expand(Worker& me, uint32_t r, size_t lo, size_t hi, size_t pos);
  bool due(double slack) const;
  static bool insertPlain(Roots& r, uint64_t root);
  static bool rootsDue(const Roots& r, uint64_t unpublished, double nodes,
                       double at);  // a table is past its growth load (times `slack`)
  template <typename F>
  void forEachRoots(F&& f) const {
    for (const Roots& r : roots_) f(r);
  }
  bool grow(unsigned self, bool allowed);

  std::vector<Worker> workers_;
  GrowthGate gate_;
  std::atomic<bool> full_{false};
  // Inner nodes: content by id in segments (ids never move), found by a table of
  // (hash tag << 32 | id + 1).
  std::unique_ptr<std::atomic<uint64_t*>[]> segments_;
  std::vector<WordArray> segmentMemory_;  // owned; guarded by segmentMutex_
  std::mutex segmentMutex_;
  std::atomic<uint32_t> nextNode_{0};
  TopBitsTable nodeIndex_;                // replaced only inside the gate
  std::atomic<size_t> nodeSlots_{0};      // nodeIndex_.size(), for readers outside it
  std::array<Roots, kRootTables> roots_;  // by rootTable(length)
};

}  // namespace tandem::search
