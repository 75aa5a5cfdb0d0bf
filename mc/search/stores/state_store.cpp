#include "mc/search/stores/state_store.h"
#include "mc/search/stores/varint.h"

#define XXH_INLINE_ALL  // the hash of a short state is a few instructions: let them inline
#include <xxhash.h>

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace tandem::search {

namespace {
constexpr size_t kChunkSize = size_t{1} << 26;
constexpr uint64_t kPosMask = (uint64_t{1} << 40) - 1;

// A record: the id (4 bytes), the length (varint.h), the bytes.
}  // namespace

void StateStore::Free::operator()(void* p) const noexcept { std::free(p); }

template <typename T>
StateStore::Buffer<T> StateStore::allocate(size_t n, bool zero) {
  constexpr size_t kHuge = size_t{1} << 21;
  const bool huge = n * sizeof(T) >= kHuge;
  const size_t align = huge ? kHuge : 64;
  size_t bytes = (n * sizeof(T) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, bytes);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (huge) madvise(p, bytes, MADV_HUGEPAGE);  // only advice: without it, lookups are slower
#endif
  if (zero) std::memset(p, 0, bytes);
  return Buffer<T>(static_cast<T*>(p));
}

StateStore::StateStore() {
  tableSize_ = size_t{1} << 16;
  table_ = allocate<uint64_t>(tableSize_, true);
  mask_ = tableSize_ - 1;
}

std::string_view StateStore::bytesAt(uint64_t pos) const {
  size_t len = 0;
  const char* p = readVarint(at(pos) + sizeof(Id), len);
  return {p, len};
}

uint64_t StateStore::nextRecord(uint64_t pos) const {
  auto s = bytesAt(pos);
  uint64_t end = static_cast<uint64_t>(s.data() + s.size() - chunks_[pos >> kChunkBits].get());
  uint64_t chunk = pos >> kChunkBits;
  // A record that did not fit opened the next chunk.
  if (end == chunkUsed_[chunk]) return (chunk + 1) << kChunkBits;
  return (chunk << kChunkBits) | end;
}

std::string_view StateStore::get(Id id) const {
  uint64_t pos = sparse_[id / kSparse];
  for (Id k = id % kSparse; k > 0; --k) pos = nextRecord(pos);
  return bytesAt(pos);
}

void StateStore::grow() {
  size_t size = tableSize_ * 2;
  Buffer<uint64_t> bigger = allocate<uint64_t>(size, true);
  size_t mask = size - 1;
  uint64_t pos = 0;  // records in id order, sequentially through the arena
  for (Id id = 0; id < parents_.size(); ++id) {
    if (id > 0) pos = nextRecord(pos);
    auto s = bytesAt(pos);
    uint64_t h = XXH3_64bits(s.data(), s.size());
    for (size_t i = h & mask;; i = (i + 1) & mask)
      if (bigger[i] == 0) {
        bigger[i] = (h >> 40) << 40 | (pos + 1);
        break;
      }
  }
  table_ = std::move(bigger);
  tableSize_ = size;
  mask_ = mask;
}

uint64_t StateStore::hash(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }

void StateStore::prefetchState(uint64_t h) const {
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    uint64_t e = table_[i];
    if (e == 0) return;
    if (e >> 40 == h >> 40) {
      __builtin_prefetch(at((e & kPosMask) - 1));
      return;
    }
  }
}

StateStore::Id StateStore::find(std::string_view s, uint64_t h) const {
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    const uint64_t e = table_[i];
    if (e == 0) return kNoParent;
    if (e >> 40 != h >> 40) continue;
    const uint64_t pos = (e & kPosMask) - 1;
    auto stored = bytesAt(pos);
    if (stored.size() == s.size() &&
        (s.empty() || std::memcmp(stored.data(), s.data(), s.size()) == 0)) {
      Id id;
      std::memcpy(&id, at(pos), sizeof id);
      return id;
    }
  }
}

StateStore::Insert StateStore::insert(std::string_view s, Id parent, uint64_t h) {
  uint64_t tag = h >> 40;
  size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    uint64_t e = table_[i];
    if (e == 0) break;
    if (e >> 40 != tag) continue;
    uint64_t pos = (e & kPosMask) - 1;
    auto stored = bytesAt(pos);
    if (stored.size() == s.size() &&
        (s.empty() || std::memcmp(stored.data(), s.data(), s.size()) == 0)) {
      Id id;
      std::memcpy(&id, at(pos), sizeof id);
      return {id, false};
    }
  }
  if (parents_.size() >= UINT32_MAX - 1)
    throw std::length_error("state store is full (2^32 states)");
  size_t need = sizeof(Id) + varintSize(s.size()) + s.size();
  assert(need <= kChunkSize && "a state larger than an arena chunk");
  if (chunks_.empty() || chunkUsed_.back() + need > chunkCap_) {
    chunkCap_ = std::min(kChunkSize, std::max<size_t>(chunkCap_ * 2, size_t{1} << 16));
    while (chunkCap_ < need) chunkCap_ *= 2;
    chunks_.push_back(allocate<char>(chunkCap_, false));  // untouched pages stay unmapped
    chunkUsed_.push_back(0);
  }
  uint64_t pos = (uint64_t{chunks_.size() - 1} << kChunkBits) | chunkUsed_.back();
  assert(pos + 1 <= kPosMask && "the arena outgrew the table's position bits");
  auto id = static_cast<Id>(parents_.size());
  char* p = chunks_.back().get() + chunkUsed_.back();
  std::memcpy(p, &id, sizeof id);
  p += sizeof id;
  p = writeVarint(p, s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());  // an empty view may have no data
  chunkUsed_.back() += need;
  arenaBytes_ += need;
  stateBytes_ += s.size();
  if (id % kSparse == 0) sparse_.push_back(pos);
  parents_.push_back(parent);
  table_[i] = tag << 40 | (pos + 1);
  if (parents_.size() * 10 > tableSize_ * 7) grow();  // load factor at most 0.7
  return {id, true};
}

StateStore::Memory StateStore::memory() const {
  Memory m;
  m.stateBytes = m.encodedBytes = stateBytes_;
  m.recordBytes = arenaBytes_ - stateBytes_ + sparse_.capacity() * 8;
  m.tableBytes = tableSize_ * 8;
  m.parentBytes = parents_.capacity() * 4;
  m.tableSlots = tableSize_;
  return m;
}

size_t StateStore::memoryBytes() const {
  return arenaBytes_ + sparse_.capacity() * 8 + parents_.capacity() * 4 + tableSize_ * 8 +
         chunkUsed_.capacity() * 8 + chunks_.capacity() * 8;
}

}  // namespace tandem::search
