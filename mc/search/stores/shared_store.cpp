#include "mc/search/stores/shared_store.h"
#include "mc/search/stores/varint.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <thread>

namespace tandem::search {

namespace {

constexpr size_t kHuge = size_t{1} << 21;

// Memory read at random (the table, the arena): huge pages spare a TLB miss per lookup.
void* allocateRaw(size_t bytes) {
  const size_t align = bytes >= kHuge ? kHuge : 64;
  bytes = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, bytes);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= kHuge) madvise(p, bytes, MADV_HUGEPAGE);  // only advice
#endif
  return p;
}

constexpr size_t kParentBytes = 5;  // a record: parent (5 bytes), length (varint), bytes

}  // namespace

SharedStateStore::SharedStateStore(unsigned workers)
    : workers_(workers), chunks_(new std::atomic<char*>[kMaxChunks]), gate_(workers) {
  for (unsigned i = 0; i < kMaxChunks; ++i) chunks_[i].store(nullptr, std::memory_order_relaxed);
  table_ = TopBitsTable(16);
  slotCount_.store(table_.size(), std::memory_order_release);
}

SharedStateStore::~SharedStateStore() {
  for (uint32_t c = 1; c < nextChunk_.load() && c < kMaxChunks; ++c)
    std::free(chunks_[c].load(std::memory_order_relaxed));
}

char* SharedStateStore::chunk(uint64_t ref) const {
  return chunks_[ref >> kChunkBits].load(std::memory_order_relaxed);
}

void SharedStateStore::prefetch(uint64_t hash) const {
  __builtin_prefetch(table_.slots.data() + table_.home(hash));
}

void SharedStateStore::prefetchState(uint64_t hash) const {
  const uint64_t tag = hash >> kPosBits;
  for (size_t i = table_.home(hash);; i = (i + 1) & table_.mask()) {
    const uint64_t e = table_.slots.at(i).load(std::memory_order_acquire);
    if (e == 0) return;
    if (e >> kPosBits == tag) {
      const Ref pos = (e & kNoParent) - 1;
      __builtin_prefetch(chunk(pos) + (pos & ((Ref{1} << kChunkBits) - 1)));
      return;
    }
  }
}

std::string_view SharedStateStore::get(Ref ref) const {
  const char* p = chunk(ref) + (ref & ((Ref{1} << kChunkBits) - 1)) + kParentBytes;
  size_t len = 0;
  p = readVarint(p, len);
  return {p, len};
}

StateKey SharedStateStore::parent(StateKey key) const {
  const char* p = chunk(key.id) + (key.id & ((Ref{1} << kChunkBits) - 1));
  Ref r = 0;
  std::memcpy(&r, p, kParentBytes);  // little-endian, as every target we build for
  r &= kNoParent;                    // without the expanded mark
  return r == kNoParent ? kNoKey : StateKey{r};
}

SharedStateStore::Ref SharedStateStore::find(std::string_view s, uint64_t hash) const {
  const uint64_t tag = hash >> kPosBits;
  for (size_t i = table_.home(hash), probes = 0; probes < table_.size();
       i = (i + 1) & table_.mask(), ++probes) {
    const uint64_t e = table_.slots.at(i).load(std::memory_order_acquire);
    if (e == 0) return kNoParent;
    if (e >> kPosBits != tag) continue;
    const Ref pos = (e & kNoParent) - 1;
    if (sameBytes(get(pos), s)) return pos;
  }
  return kNoParent;
}

std::atomic_ref<uint8_t> SharedStateStore::expandedByte(Ref ref) const {
  auto* record = reinterpret_cast<uint8_t*>(chunk(ref) + (ref & ((Ref{1} << kChunkBits) - 1)));
  return std::atomic_ref<uint8_t>(record[kParentBytes - 1]);
}

void SharedStateStore::markExpanded(StateKey key) {
  expandedByte(key.id).fetch_or(kExpandedBit, std::memory_order_seq_cst);
}

bool SharedStateStore::isExpanded(std::string_view s, uint64_t hash) const {
  const Ref pos = find(s, hash);
  return pos != kNoParent &&
         (expandedByte(pos).load(std::memory_order_seq_cst) & kExpandedBit) != 0;
}

bool SharedStateStore::sameBytes(std::string_view stored, std::string_view s) {
  return stored.size() == s.size() &&
         (s.empty() || std::memcmp(stored.data(), s.data(), s.size()) == 0);
}

SharedStateStore::Ref SharedStateStore::writeRecord(Worker& w, std::string_view s, Ref parent) {
  const size_t need = kParentBytes + varintSize(s.size()) + s.size();
  const size_t chunkSize = size_t{1} << kChunkBits;
  if (w.chunk == 0 || w.used + need > w.cap) {
    const uint32_t c = nextChunk_.fetch_add(1, std::memory_order_relaxed);
    if (c >= kMaxChunks) throw std::length_error("the state store is full (64 GiB of states)");
    // A state larger than a chunk gets a chunk of its own (positions start at its offset 0).
    w.cap = std::max(chunkSize, need);
    chunks_[c].store(static_cast<char*>(allocateRaw(w.cap)), std::memory_order_release);
    w.chunk = c;
    w.used = 0;
  }
  char* p = chunks_[w.chunk].load(std::memory_order_relaxed) + w.used;
  std::memcpy(p, &parent, kParentBytes);
  p += kParentBytes;
  p = writeVarint(p, s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return (Ref{w.chunk} << kChunkBits) | w.used;
}

void SharedStateStore::commit(Worker& w, std::string_view s) {
  const size_t need = kParentBytes + varintSize(s.size()) + s.size();
  w.used += need;
  w.arenaBytes += need;
  w.added(s.size());
  if (++w.unpublished == kCountStep) {
    approxStates_.fetch_add(kCountStep, std::memory_order_relaxed);
    w.unpublished = 0;
  }
}

VisitedSet::Insert SharedStateStore::insert(unsigned w, std::string_view s, uint64_t hash,
                                            StateKey parentKey) {
  const Ref parent = parentKey == kNoKey ? kNoParent : parentKey.id;
  Worker& me = workers_[w];
  const uint64_t tag = hash >> kPosBits;
  Ref mine = kNoParent;  // this worker's unpublished record of `s`, once written
  for (size_t i = table_.home(hash), probes = 0;; i = (i + 1) & table_.mask()) {
    if (++probes > table_.size()) throw std::length_error("the state store's table is full");
    uint64_t e = table_.slots.at(i).load(std::memory_order_acquire);
    if (e == 0) {
      if (mine == kNoParent) mine = writeRecord(me, s, parent);
      // Release: the record's bytes are visible to whoever reads the word.
      if (table_.slots.at(i).compare_exchange_strong(e, tag << kPosBits | (mine + 1),
                                                     std::memory_order_acq_rel,
                                                     std::memory_order_acquire)) {
        commit(me, s);
        return {{mine}, true};
      }
      // Another worker took the slot first: `e` is its word, compared below.
    }
    if (e >> kPosBits != tag) continue;
    const Ref pos = (e & kNoParent) - 1;
    if (sameBytes(get(pos), s)) return {{pos}, false};  // `mine`, if written, is overwritten later
  }
}

bool SharedStateStore::grow(unsigned self, bool allowed) {
  return gate_.grow(
      self, allowed, full_, [&] { return growthDue(kGrowAt); },
      [&] {
        // Up to 2^28 slots the home is in the word's tag (the hash's top bits); beyond, the
        // record's hash is computed again.
        const bool tagEnough = table_.bits + 1 <= kTagBits;
        table_.doubleSize(
            [&](uint64_t e) { return tagEnough ? e : StateStore::hash(get((e & kNoParent) - 1)); });
        slotCount_.store(table_.size(), std::memory_order_release);
      });
}

uint64_t SharedStateStore::size() const { return statesOf(workers_); }

StateStore::Memory SharedStateStore::memory() const {
  StateStore::Memory m;
  for (const Worker& w : workers_) m.recordBytes += w.arenaBytes - w.encodedBytes;
  m.stateBytes = m.encodedBytes = encodedBytesOf(workers_);
  // The parents are inside the records here: count them apart, as the sequential store does.
  const uint64_t n = size();
  m.recordBytes -= n * kParentBytes;
  m.parentBytes = n * kParentBytes;
  m.tableBytes = table_.size() * sizeof(uint64_t);
  m.tableSlots = table_.size();
  return m;
}

size_t SharedStateStore::memoryBytes() const {
  size_t arena = 0;
  for (const Worker& w : workers_) arena += w.arenaBytes;
  return arena + table_.size() * sizeof(uint64_t) + kMaxChunks * sizeof(char*);
}

}  // namespace tandem::search
