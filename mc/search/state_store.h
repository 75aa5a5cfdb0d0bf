// The visited set: exact (every state's bytes are kept and compared), with a parent pointer per
// state for counterexamples. States live in an arena of large chunks (no allocation per state);
// an open-addressing table of state ids finds them by their XXH3 hash.
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
  Insert insert(std::string_view state, Id parent);
  std::string_view get(Id id) const;
  Id parent(Id id) const { return parents_[id]; }
  size_t size() const { return offsets_.size(); }
  // Bytes held by the store (arena, table, per-state arrays): for bytes-per-state figures.
  size_t memoryBytes() const;

 private:
  static constexpr size_t kChunkBits = 26;  // 64 MiB chunks
  void grow();
  bool equalAt(Id id, std::string_view s) const;
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunkUsed_ = 0;
  size_t chunkCap_ = 0;
  size_t arenaFull_ = 0;  // bytes used in the chunks before the current one  // chunks start small
                          // and double up to 64 MiB
  std::vector<uint64_t> offsets_;  // per id: chunk << kChunkBits | position
  std::vector<uint32_t> hashes_;   // per id: low 32 bits of the hash (cheap rejects, rehash)
  std::vector<Id> parents_;
  std::vector<uint32_t> table_;  // id + 1, 0 = empty
  size_t mask_ = 0;
};

}  // namespace tandem::search
