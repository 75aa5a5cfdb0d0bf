#include "mc/search/stores/tree_store.h"

#include "mc/expr/enum_names.h"
#include "mc/expr/hash_mix.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tandem::search {

namespace {

// MurmurHash3's finaliser: a bijection, so distinct pairs never share a hash.
uint64_t mix(uint64_t x) { return fmix64(x); }

uint64_t pairOf(uint32_t left, uint32_t right) { return uint64_t{left} | uint64_t{right} << 32; }
// The leaves of a longer state: its words, then its length (states of all lengths share one
// table of roots), padded to four, so that both halves of the root are nodes and it fits the
// compact table (a half of one distinct value costs one node).
size_t wordsOf(size_t length) { return std::max<size_t>(4, (length + 3) / 4 + 1); }
// The left half of a range of m > 1 leaves has (m + 1) / 2 of them.
size_t middle(size_t lo, size_t hi) { return lo + (hi - lo + 1) / 2; }

constexpr EnumName<StoreKind> kStoreKindNames[] = {{StoreKind::Tree, "tree"},
                                                   {StoreKind::HashCompaction, "hc"},
                                                   {StoreKind::Bitstate, "bitstate"},
                                                   {StoreKind::Exact, "exact"}};
}  // namespace

const char* storeKindName(StoreKind k) { return enumName(kStoreKindNames, k, "exact"); }

TreeStore::TreeStore(unsigned workers)
    : workers_(workers),
      gate_(workers),
      segments_(new std::atomic<uint64_t*>[kMaxSegments]),
      nodeIndex_(16) {
  for (unsigned i = 0; i < kMaxSegments; ++i) segments_[i].store(nullptr);
  nodeSlots_.store(nodeIndex_.size());
  for (size_t i = 0; i <= kShortState; ++i) {
    roots_[i].plain = TopBitsTable(12);  // mmap'd: a table for a length never met costs nothing
    roots_[i].slots.store(roots_[i].plain.size());
  }
  Roots& longer = roots_[kShortState + 1];
  longer.compact = std::make_unique<CompactRootTable>(12);
  longer.slots.store(longer.compact->slots());
  longer.idBits.store(longer.compact->idBits());
}

TreeStore::~TreeStore() = default;

uint64_t TreeStore::nodeContent(uint32_t id) const {
  const uint64_t* seg = segments_[id >> kSegmentBits].load(std::memory_order_acquire);
  return seg[id & ((1u << kSegmentBits) - 1)];
}

uint32_t TreeStore::findOrPutNode(uint64_t pair) {
  const uint64_t h = mix(pair);
  const uint64_t tag = h >> 32;
  uint32_t mine = UINT32_MAX;  // an id taken for the pair, once its content is written
  for (size_t i = nodeIndex_.home(h), probes = 0;; i = (i + 1) & nodeIndex_.mask()) {
    if (++probes > nodeIndex_.size())
      throw std::length_error("the tree store's node table is full");
    uint64_t e = nodeIndex_.slots.at(i).load(std::memory_order_acquire);
    if (e == 0) {
      if (mine == UINT32_MAX) {
        mine = nextNode_.fetch_add(1, std::memory_order_relaxed);
        const uint32_t seg = mine >> kSegmentBits;
        if (seg >= kMaxSegments) throw std::length_error("the tree store is full (2^32 nodes)");
        uint64_t* mem = segments_[seg].load(std::memory_order_acquire);
        if (!mem) {
          std::lock_guard lock(segmentMutex_);
          mem = segments_[seg].load(std::memory_order_acquire);
          if (!mem) {
            segmentMemory_.emplace_back(size_t{1} << kSegmentBits);
            mem = segmentMemory_.back().data();
            segments_[seg].store(mem, std::memory_order_release);
          }
        }
        mem[mine & ((1u << kSegmentBits) - 1)] = pair;  // published by the CAS below
      }
      if (nodeIndex_.slots.at(i).compare_exchange_strong(e, tag << 32 | (uint64_t{mine} + 1),
                                                         std::memory_order_acq_rel,
                                                         std::memory_order_acquire))
        return mine;
    }
    if (e >> 32 == tag) {
      const auto id = static_cast<uint32_t>((e & 0xffffffffu) - 1);
      if (nodeContent(id) == pair) return id;  // `mine`, if taken, stays unused
    }
  }
}

uint32_t TreeStore::ref(Worker& me, const uint32_t* w, size_t lo, size_t hi, size_t pos,
                        bool reuse) {
  if (hi - lo == 1) return w[lo];
  if (reuse && std::memcmp(w + lo, me.words.data() + lo, (hi - lo) * sizeof(uint32_t)) == 0)
    return me.refs[pos];
  const size_t mid = middle(lo, hi);
  const uint32_t left = ref(me, w, lo, mid, pos + 1, reuse);
  const uint32_t right = ref(me, w, mid, hi, pos + (mid - lo), reuse);
  return findOrPutNode(pairOf(left, right));
}

VisitedSet::Insert TreeStore::insert(unsigned w, std::string_view s, uint64_t, StateKey parent) {
  Worker& me = workers_[w];
  const size_t table = rootTable(s.size());
  Roots& r = roots_[table];
  StateKey key{0, static_cast<uint32_t>(s.size())};
  bool isNew = false;
  if (s.size() <= kShortState) {
    if (!s.empty()) std::memcpy(&key.id, s.data(), s.size());
    isNew = insertPlain(r, key.id);
  } else {
    const size_t n = wordsOf(s.size());
    me.scratch.assign(n, 0);
    std::memcpy(me.scratch.data(), s.data(), s.size());
    me.scratch[n - 1] = static_cast<uint32_t>(s.size());
    // The parent's tree is the one this worker decoded last (to expand it), if of the same size.
    const bool reuse = parent == me.decoded && parent != kNoKey && parent.aux == s.size();
    const size_t mid = middle(0, n);
    const uint32_t left = ref(me, me.scratch.data(), 0, mid, 1, reuse);
    const uint32_t right = ref(me, me.scratch.data(), mid, n, mid, reuse);
    key.id = pairOf(left, right);
    isNew = r.compact->insert(left, right);
  }
  if (isNew) {
    if (!r.used.load(std::memory_order_relaxed)) r.used.store(true, std::memory_order_relaxed);
    me.added(s.size());
    if (++me.unpublished[table] == kCountStep) {
      r.count.fetch_add(kCountStep, std::memory_order_relaxed);
      me.unpublished[table] = 0;
    }
  }
  return {key, isNew};
}

bool TreeStore::insertPlain(Roots& r, uint64_t v) {
  if (v == 0) return !r.zero.exchange(true);
  for (size_t i = r.plain.home(mix(v)), probes = 0;; i = (i + 1) & r.plain.mask()) {
    if (++probes > r.plain.size()) throw std::length_error("the tree store's root table is full");
    uint64_t e = r.plain.slots.at(i).load(std::memory_order_acquire);
    if (e == v) return false;
    if (e == 0) {
      if (r.plain.slots.at(i).compare_exchange_strong(e, v, std::memory_order_acq_rel)) return true;
      if (e == v) return false;
    }
  }
}

void TreeStore::expand(Worker& me, uint32_t r, size_t lo, size_t hi, size_t pos) {
  if (hi - lo == 1) {
    me.words[lo] = r;
    return;
  }
  me.refs[pos] = r;
  const uint64_t c = nodeContent(r);
  const size_t mid = middle(lo, hi);
  expand(me, static_cast<uint32_t>(c), lo, mid, pos + 1);
  expand(me, static_cast<uint32_t>(c >> 32), mid, hi, pos + (mid - lo));
}

std::string_view TreeStore::get(unsigned w, StateKey key) {
  Worker& me = workers_[w];
  me.decoded = key;
  if (key.aux <= kShortState) {
    me.bytes.assign(reinterpret_cast<const char*>(&key.id), key.aux);
    return me.bytes;
  }
  const size_t n = wordsOf(key.aux);
  me.words.assign(n, 0);
  me.refs.assign(n, 0);
  const size_t mid = middle(0, n);
  expand(me, static_cast<uint32_t>(key.id), 0, mid, 1);
  expand(me, static_cast<uint32_t>(key.id >> 32), mid, n, mid);
  me.bytes.assign(reinterpret_cast<const char*>(me.words.data()), key.aux);
  return me.bytes;
}

bool TreeStore::due(double slack) const {
  const uint64_t unpublished = kCountStep * workers_.size();
  if (static_cast<double>(nextNode_.load(std::memory_order_relaxed)) >
      std::min(kNodesGrowAt * slack, 0.99) * static_cast<double>(nodeSlots_.load()))
    return true;
  const auto nodes = static_cast<double>(nextNode_.load(std::memory_order_relaxed));
  const double at = std::min(kRootsGrowAt * slack, 0.99);
  bool any = false;
  forEachRoots([&](const Roots& r) { any = any || rootsDue(r, unpublished, nodes, at); });
  return any;
}

// Past the load, or the node ids near the width it keeps compactly: wider ids
// would go to its overflow.
bool TreeStore::rootsDue(const Roots& r, uint64_t unpublished, double nodes, double at) {
  const auto slots = static_cast<double>(r.slots.load(std::memory_order_acquire));
  if (static_cast<double>(r.count.load(std::memory_order_relaxed) + unpublished) > at * slots)
    return true;
  const unsigned idBits = r.idBits.load(std::memory_order_acquire);
  return idBits < 32 && nodes > at * static_cast<double>(uint64_t{1} << idBits);
}

bool TreeStore::enter(unsigned w, const MayAllocate& may) {
  for (unsigned rounds = 0;;) {
    if (gate_.tryEnter(w, [&] { return due(kBlockAt / kRootsGrowAt); })) return true;
    if (full()) return false;
    if (due(kBlockAt / kRootsGrowAt) && !gate_.growing())
      growIfDue(w, may);  // overdue: grow it now
    else
      GrowthGate::pause(rounds);
  }
}

bool TreeStore::growIfDue(unsigned w, const MayAllocate& may) {
  if (!due(1)) return !full();
  size_t bytes = nodeSlots_.load() * 2 * sizeof(uint64_t);  // at most: every table doubles
  forEachRoots([&](const Roots& r) {
    bytes += r.slots.load() * 2 * (r.compact ? sizeof(uint32_t) : sizeof(uint64_t));
  });
  return grow(w, may(bytes));
}

bool TreeStore::grow(unsigned self, bool allowed) {
  return gate_.grow(
      self, allowed, full_, [&] { return due(1); },
      [&] {
        if (static_cast<double>(nextNode_.load()) >
            kNodesGrowAt * static_cast<double>(nodeIndex_.size()))
          nodeIndex_.doubleSize([](uint64_t e) { return e & ~uint64_t{0xffffffffu}; });  // the tag
        nodeSlots_.store(nodeIndex_.size());
        const uint64_t unpublished = kCountStep * workers_.size();
        const auto nodes = static_cast<double>(nextNode_.load());
        for (Roots& r : roots_) {
          if (!rootsDue(r, unpublished, nodes, kRootsGrowAt)) continue;
          if (r.compact) {
            r.compact->doubleSize();
            r.slots.store(r.compact->slots(), std::memory_order_release);
            r.idBits.store(r.compact->idBits(), std::memory_order_release);
          } else {
            r.plain.doubleSize(mix);
            r.slots.store(r.plain.size(), std::memory_order_release);
          }
        }
      });
}

uint64_t TreeStore::size() const { return statesOf(workers_); }

StateStore::Memory TreeStore::memory() const {
  StateStore::Memory m;
  forEachRoots([&](const Roots& r) {  // the roots are the states
    if (!r.used.load(std::memory_order_relaxed)) return;
    m.stateBytes += r.compact ? r.compact->memoryBytes() : r.plain.size() * sizeof(uint64_t);
    m.tableSlots += r.slots.load();
  });
  m.recordBytes = nodes() * sizeof(uint64_t);  // the nodes
  m.encodedBytes = encodedBytesOf(workers_);
  m.tableBytes = nodeIndex_.size() * sizeof(uint64_t);
  return m;
}

size_t TreeStore::memoryBytes() const {
  const StateStore::Memory m = memory();
  return m.stateBytes + m.recordBytes + m.tableBytes;
}

}  // namespace tandem::search
