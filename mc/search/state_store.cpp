#include "mc/search/state_store.h"

#include <xxhash.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

namespace tandem::search {

namespace {
constexpr size_t kChunkSize = size_t{1} << 26;

size_t varintSize(size_t n) {
  size_t k = 1;
  while (n >= 0x80) n >>= 7, ++k;
  return k;
}
}  // namespace

StateStore::StateStore() {
  table_.assign(size_t{1} << 16, 0);
  mask_ = table_.size() - 1;
}

std::string_view StateStore::get(Id id) const {
  uint64_t off = offsets_[id];
  const char* p = chunks_[off >> kChunkBits].get() + (off & (kChunkSize - 1));
  size_t len = 0;
  for (int shift = 0;; shift += 7) {
    auto c = static_cast<uint8_t>(*p++);
    len |= static_cast<size_t>(c & 0x7f) << shift;
    if (!(c & 0x80)) break;
  }
  return {p, len};
}

bool StateStore::equalAt(Id id, std::string_view s) const {
  auto stored = get(id);
  return stored.size() == s.size() && std::memcmp(stored.data(), s.data(), s.size()) == 0;
}

void StateStore::grow() {
  std::vector<uint32_t> bigger(table_.size() * 2, 0);
  size_t mask = bigger.size() - 1;
  for (Id id = 0; id < offsets_.size(); ++id) {
    // Only 32 hash bits are kept; the slot order needs no more than the table size.
    size_t h = XXH3_64bits(get(id).data(), get(id).size());
    for (size_t i = h & mask;; i = (i + 1) & mask)
      if (bigger[i] == 0) {
        bigger[i] = id + 1;
        break;
      }
  }
  table_.swap(bigger);
  mask_ = mask;
}

StateStore::Insert StateStore::insert(std::string_view s, Id parent) {
  uint64_t h = XXH3_64bits(s.data(), s.size());
  auto h32 = static_cast<uint32_t>(h);
  size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    uint32_t slot = table_[i];
    if (slot == 0) break;
    Id id = slot - 1;
    if (hashes_[id] == h32 && equalAt(id, s)) return {id, false};
  }
  if (offsets_.size() >= UINT32_MAX - 1)
    throw std::length_error("state store is full (2^32 states)");
  size_t need = varintSize(s.size()) + s.size();
  assert(need <= kChunkSize && "a state larger than an arena chunk");
  if (chunks_.empty() || chunkUsed_ + need > chunkCap_) {
    chunkCap_ = std::min(kChunkSize, std::max<size_t>(chunkCap_ * 2, size_t{1} << 16));
    while (chunkCap_ < need) chunkCap_ *= 2;
    chunks_.push_back(std::make_unique<char[]>(chunkCap_));
    arenaFull_ += chunkUsed_;
    chunkUsed_ = 0;
  }
  char* p = chunks_.back().get() + chunkUsed_;
  uint64_t off = (uint64_t{chunks_.size() - 1} << kChunkBits) | chunkUsed_;
  size_t n = s.size();
  while (n >= 0x80) *p++ = static_cast<char>((n & 0x7f) | 0x80), n >>= 7;
  *p++ = static_cast<char>(n);
  std::memcpy(p, s.data(), s.size());
  chunkUsed_ += need;
  auto id = static_cast<Id>(offsets_.size());
  offsets_.push_back(off);
  hashes_.push_back(h32);
  parents_.push_back(parent);
  table_[i] = id + 1;
  if (offsets_.size() * 2 > table_.size()) grow();
  return {id, true};
}

size_t StateStore::memoryBytes() const {
  size_t arena = arenaFull_ + chunkUsed_;
  return arena + offsets_.capacity() * 8 + hashes_.capacity() * 4 + parents_.capacity() * 4 +
         table_.size() * 4;
}

}  // namespace tandem::search
