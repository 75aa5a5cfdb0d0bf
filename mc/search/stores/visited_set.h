// The visited set of the multi-core explorer, shared by its workers: `exact` (SharedStateStore:
// every state's bytes and a parent reference), `tree` (TreeStore: states compressed into a
// tree of shared pairs, without parents), or a lossy store that keeps no states at all (`hc`,
// HashCompactionStore; `bitstate`, BitstateStore). A state is named by a key the frontier holds;
// get() gives its bytes back, except from a lossy store: its frontier holds the states' bytes.
// Inserts happen between enter() and leave(), so that a worker can grow a table while the others
// wait (GrowthGate).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "mc/search/stores/state_store.h"

namespace tandem::search {

struct StateKey {
  uint64_t id = UINT64_MAX;  // kNoKey: none (the parent of an initial state)
  uint32_t aux = 0;          // the tree store: the state's length
  bool operator==(const StateKey&) const = default;
};
inline constexpr StateKey kNoKey{};

enum class StoreKind : uint8_t { Exact, Tree, HashCompaction, Bitstate };
const char* storeKindName(StoreKind k);  // exact, tree, hc, bitstate
inline bool lossyStore(StoreKind k) {
  return k == StoreKind::HashCompaction || k == StoreKind::Bitstate;
}

// A lossy store's estimate of the states it wrongly took for stored ones (and so never
// explored): the expected number, and the probability that there is at least one.
struct Omission {
  double expected = 0, probability = 0;
};

class VisitedSet {
 public:
  struct Insert {
    StateKey key;
    bool isNew;
  };
  // Whether a table may double, given the bytes it would allocate (thread-safe).
  using MayAllocate = std::function<bool(size_t)>;

  virtual ~VisitedSet() = default;
  virtual StoreKind kind() const = 0;
  // False (and outside) when the store is full and cannot take another batch.
  virtual bool enter(unsigned w, const MayAllocate& may) = 0;
  virtual void leave(unsigned w) = 0;
  // Grows a table that is due (outside enter/leave); false when the store is full.
  virtual bool growIfDue(unsigned w, const MayAllocate& may) = 0;
  virtual bool full() const = 0;
  virtual void prefetch(uint64_t hash) const = 0;
  virtual void prefetchState(uint64_t hash) const = 0;
  // Adds the state unless it is stored. `parent`: the key of the state being expanded (recorded
  // by a store with parents; the tree store compresses the successor against it).
  virtual Insert insert(unsigned w, std::string_view state, uint64_t hash, StateKey parent) = 0;
  // The bytes of a stored state; valid until worker w's next get(). Not for a lossy store.
  virtual std::string_view get(unsigned w, StateKey key) = 0;
  // --por's cycle proviso (por_reducer.h): a mark on a state once its successors are computed.
  // markExpanded and isExpanded (of a state known by its bytes, false when not stored) are
  // sequentially consistent, so of two workers expanding neighbours at once one sees the
  // other's mark; both inside enter/leave.
  // A store without marks (tree, hc, bitstate: no room in a root or a signature) says so, and
  // check refuses --por with it.
  virtual bool marksExpanded() const { return false; }
  virtual void markExpanded(StateKey) { throw std::logic_error("this store keeps no marks"); }
  virtual bool isExpanded(std::string_view, uint64_t) const {
    throw std::logic_error("this store keeps no marks");
  }
  // False for a lossy store: it cannot give a state back (get()), and may omit states.
  virtual bool keepsStates() const { return true; }
  virtual std::optional<Omission> omission() const { return std::nullopt; }
  virtual bool hasParents() const = 0;
  virtual StateKey parent(StateKey key) const = 0;  // hasParents()
  virtual uint64_t size() const = 0;
  virtual size_t memoryBytes() const = 0;
  virtual StateStore::Memory memory() const = 0;
};

// A lossy store (bitstate, hash compaction): it keeps a trace of each state, enough to say whether
// a state is new, but neither the state nor its parent.
class LossySet : public VisitedSet {
 public:
  void prefetchState(uint64_t) const override {}  // there are no states to compare with
  std::string_view get(unsigned, StateKey) override {
    throw std::logic_error("a lossy store keeps no states");
  }
  bool keepsStates() const override { return false; }
  bool hasParents() const override { return false; }
  StateKey parent(StateKey) const override { return kNoKey; }
};

}  // namespace tandem::search
