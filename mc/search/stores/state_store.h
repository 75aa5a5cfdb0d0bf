// The visited set: exact (every state's bytes are kept and compared), with a parent pointer per
// state for counterexamples. States live in an arena of large chunks (no allocation per state),
// each record holding its id, its length and its bytes; an open-addressing table of arena
// positions, tagged with hash bits, finds them by their XXH3 hash. A lookup touches the table
// and (on a tag match) the record: two cache misses, where the state is found or added.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace tandem::search {

class StateStore {
 public:
  using Id = uint32_t;
  static constexpr Id kNoParent = UINT32_MAX;
  struct Insert {
    Id id;
    bool isNew;
  };

  StateStore();
  // Adds a state unless an equal one is stored; `parent` is recorded for a new state only.
  Insert insert(std::string_view state, Id parent) { return insert(state, parent, hash(state)); }
  // The same in steps, so that a caller holding several states overlaps their cache misses:
  // hash and prefetch each, then insert each with its hash.
  static uint64_t hash(std::string_view state);
  void prefetch(uint64_t hash) const { __builtin_prefetch(&table_[hash & mask_]); }
  // Once the table slot is cached: prefetches the stored state the lookup will compare with.
  void prefetchState(uint64_t hash) const;
  Insert insert(std::string_view state, Id parent, uint64_t hash);
  // The id of the stored state equal to `state`, or kNoParent (partial-order reduction's proviso).
  Id find(std::string_view state, uint64_t hash) const;
  std::string_view get(Id id) const;
  Id parent(Id id) const { return parents_[id]; }
  size_t size() const { return parents_.size(); }
  // Bytes the table's next doubling allocates, if inserting `adding` more states may trigger it
  // (0 otherwise): callers with a memory limit check before the allocation, not after.
  size_t growthBytes(size_t adding) const {
    return (parents_.size() + adding) * 10 > tableSize_ * 7 ? tableSize_ * 2 * sizeof(uint64_t) : 0;
  }
  // Bytes held by the store (arena, table, per-state arrays): for bytes-per-state figures.
  size_t memoryBytes() const;
  // The same by part, for --stats (SPIN's memory summary): state bytes as stored, the records'
  // headers, the hash table and the parent pointers; and the table's slots.
  struct Memory {
    size_t stateBytes = 0, recordBytes = 0, tableBytes = 0, parentBytes = 0, tableSlots = 0;
    size_t encodedBytes = 0;  // the states' encodings, summed (SPIN's state vector)
  };
  Memory memory() const;

 private:
  static constexpr size_t kChunkBits = 26;  // chunks start small and double up to 64 MiB
  static constexpr unsigned kPosBits = 40;  // a table entry: hash tag << 40 | (position + 1)
  static constexpr Id kSparse = 16;         // the arena position of every 16th id is kept
  const char* at(uint64_t pos) const {
    return chunks_[pos >> kChunkBits].get() + (pos & ((uint64_t{1} << kChunkBits) - 1));
  }
  std::string_view bytesAt(uint64_t pos) const;
  uint64_t nextRecord(uint64_t pos) const;  // the position of the record after the one at pos
  void grow();
  // Memory from aligned_alloc, advised to use huge pages: the table and the arena are read at
  // random, and 4 KiB pages would cost a TLB miss on almost every lookup.
  struct Free {
    void operator()(void* p) const noexcept;
  };
  template <typename T>
  using Buffer = std::unique_ptr<T[], Free>;
  template <typename T>
  static Buffer<T> allocate(size_t n, bool zero);
  std::vector<Buffer<char>> chunks_;
  std::vector<size_t> chunkUsed_;  // bytes used in each chunk
  size_t chunkCap_ = 0;            // size of the last chunk
  size_t arenaBytes_ = 0;
  size_t stateBytes_ = 0;         // the states' own bytes (arenaBytes_ less the record headers)
  std::vector<uint64_t> sparse_;  // arena position of ids 0, kSparse, 2 * kSparse, ...
  std::vector<Id> parents_;
  Buffer<uint64_t> table_;  // 0 = empty
  size_t tableSize_ = 0, mask_ = 0;
};

}  // namespace tandem::search
