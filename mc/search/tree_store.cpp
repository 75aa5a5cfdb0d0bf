#include "mc/search/tree_store.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tandem::search {

namespace {

// MurmurHash3's finaliser: a bijection, so distinct pairs never share a hash.
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t pairOf(uint32_t left, uint32_t right) { return uint64_t{left} | uint64_t{right} << 32; }
size_t wordsOf(size_t length) { return std::max<size_t>(1, (length + 3) / 4); }
// The left half of a range of m > 1 leaves has (m + 1) / 2 of them.
size_t middle(size_t lo, size_t hi) { return lo + (hi - lo + 1) / 2; }

}  // namespace

const char* storeKindName(StoreKind k) {
  switch (k) {
    case StoreKind::Tree:
      return "tree";
    case StoreKind::HashCompaction:
      return "hc";
    case StoreKind::Bitstate:
      return "bitstate";
    case StoreKind::Exact:
      break;
  }
  return "exact";
}

TreeStore::Table TreeStore::makeTable(unsigned bits) {
  Table t;
  t.bits = bits;
  t.slots = WordArray(size_t{1} << bits);
  return t;
}

TreeStore::TreeStore(unsigned workers)
    : workers_(workers),
      gate_(workers),
      segments_(new std::atomic<uint64_t*>[kMaxSegments]),
      nodeIndex_(makeTable(16)),
      roots_(new std::atomic<Roots*>[kMaxLength + 1]),
      active_(new std::atomic<Roots*>[kMaxLength + 1]) {
  for (unsigned i = 0; i < kMaxSegments; ++i) segments_[i].store(nullptr);
  for (size_t i = 0; i <= kMaxLength; ++i) roots_[i].store(nullptr), active_[i].store(nullptr);
  for (Worker& w : workers_) w.unpublished.assign(kMaxLength + 1, 0);
  nodeSlots_.store(nodeIndex_.size());
}

TreeStore::~TreeStore() = default;

TreeStore::Roots* TreeStore::roots(size_t length) {
  if (Roots* r = roots_[length].load(std::memory_order_acquire)) return r;
  std::lock_guard lock(rootsMutex_);
  if (Roots* r = roots_[length].load(std::memory_order_acquire)) return r;
  auto made = std::make_unique<Roots>();
  made->table = makeTable(12);
  made->slots.store(made->table.size());
  Roots* r = made.get();
  rootsMemory_.push_back(std::move(made));
  const size_t n = activeCount_.load(std::memory_order_relaxed);
  active_[n].store(r, std::memory_order_release);
  activeCount_.store(n + 1, std::memory_order_release);
  roots_[length].store(r, std::memory_order_release);
  return r;
}

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
  if (s.size() > kMaxLength)
    throw std::length_error("--store tree takes states of at most 4096 bytes");
  Worker& me = workers_[w];
  const size_t n = wordsOf(s.size());
  me.scratch.assign(n, 0);
  if (!s.empty()) std::memcpy(me.scratch.data(), s.data(), s.size());
  // The parent's tree is the one this worker decoded last (to expand it), if of the same size.
  const bool reuse = parent == me.decoded && parent != kNoKey && parent.aux == s.size();
  uint64_t pair = me.scratch[0];
  if (n > 1) {
    const size_t mid = middle(0, n);
    pair = pairOf(ref(me, me.scratch.data(), 0, mid, 1, reuse),
                  ref(me, me.scratch.data(), mid, n, mid, reuse));
  }
  Roots& r = *roots(s.size());
  const StateKey key{pair, static_cast<uint32_t>(s.size())};
  bool isNew = false;
  if (pair == 0) {
    isNew = !r.zero.exchange(true);
  } else {
    for (size_t i = r.table.home(mix(pair)), probes = 0;; i = (i + 1) & r.table.mask()) {
      if (++probes > r.table.size()) throw std::length_error("the tree store's root table is full");
      uint64_t e = r.table.slots.at(i).load(std::memory_order_acquire);
      if (e == pair) break;
      if (e == 0) {
        if (r.table.slots.at(i).compare_exchange_strong(e, pair, std::memory_order_acq_rel)) {
          isNew = true;
          break;
        }
        if (e == pair) break;
      }
    }
  }
  if (isNew) {
    me.states.store(me.states.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    me.encodedBytes += s.size();
    if (++me.unpublished[s.size()] == kCountStep) {
      r.count.fetch_add(kCountStep, std::memory_order_relaxed);
      me.unpublished[s.size()] = 0;
    }
  }
  return {key, isNew};
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
  const size_t n = wordsOf(key.aux);
  me.words.assign(n, 0);
  me.refs.assign(n, 0);
  if (n == 1) {
    me.words[0] = static_cast<uint32_t>(key.id);
  } else {
    const size_t mid = middle(0, n);
    expand(me, static_cast<uint32_t>(key.id), 0, mid, 1);
    expand(me, static_cast<uint32_t>(key.id >> 32), mid, n, mid);
  }
  me.decoded = key;
  me.bytes.assign(reinterpret_cast<const char*>(me.words.data()), key.aux);
  return me.bytes;
}

bool TreeStore::due(double slack) const {
  const uint64_t unpublished = kCountStep * workers_.size();
  if (static_cast<double>(nextNode_.load(std::memory_order_relaxed)) >
      std::min(kNodesGrowAt * slack, 0.99) * static_cast<double>(nodeSlots_.load()))
    return true;
  bool any = false;
  forEachRoots([&](const Roots& r) {
    any = any || static_cast<double>(r.count.load(std::memory_order_relaxed) + unpublished) >
                     std::min(kRootsGrowAt * slack, 0.99) * static_cast<double>(r.slots.load());
  });
  return any;
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
  forEachRoots([&](const Roots& r) { bytes += r.slots.load() * 2 * sizeof(uint64_t); });
  return grow(w, may(bytes));
}

bool TreeStore::grow(unsigned self, bool allowed) {
  if (!gate_.acquire()) return !full();
  if (!due(1) || full()) {
    gate_.release();
    return !full();
  }
  if (!allowed) {
    full_.store(true, std::memory_order_release);
    gate_.release();
    return false;
  }
  gate_.drain(self);
  // Nobody is inside. A table's slot i goes to about 2i: its pages are released as read.
  auto doubled = [](Table& t, auto&& hashOf) {
    Table bigger = makeTable(t.bits + 1);
    constexpr size_t kStep = size_t{1} << 18;
    for (size_t from = 0; from < t.size(); from += kStep) {
      const size_t to = std::min(t.size(), from + kStep);
      for (size_t i = from; i < to; ++i) {
        const uint64_t e = t.slots.data()[i];
        if (e == 0) continue;
        for (size_t j = bigger.home(hashOf(e));; j = (j + 1) & bigger.mask())
          if (bigger.slots.data()[j] == 0) {
            bigger.slots.data()[j] = e;
            break;
          }
      }
      t.slots.release(from, to);
    }
    t = std::move(bigger);
  };
  if (static_cast<double>(nextNode_.load()) > kNodesGrowAt * static_cast<double>(nodeIndex_.size()))
    doubled(nodeIndex_, [](uint64_t e) { return e & ~uint64_t{0xffffffffu}; });  // the tag
  nodeSlots_.store(nodeIndex_.size());
  const uint64_t unpublished = kCountStep * workers_.size();
  for (size_t i = 0, n = activeCount_.load(); i < n; ++i) {
    Roots& r = *active_[i].load();
    if (static_cast<double>(r.count.load() + unpublished) >
        kRootsGrowAt * static_cast<double>(r.table.size()))
      doubled(r.table, mix);
    r.slots.store(r.table.size());
  }
  gate_.release();
  return true;
}

uint64_t TreeStore::size() const {
  uint64_t n = 0;
  for (const Worker& w : workers_) n += w.states.load(std::memory_order_relaxed);
  return n;
}

StateStore::Memory TreeStore::memory() const {
  StateStore::Memory m;
  forEachRoots([&](const Roots& r) {
    m.stateBytes += r.table.size() * sizeof(uint64_t);  // the roots are the states
    m.tableSlots += r.table.size();
  });
  m.recordBytes = nodes() * sizeof(uint64_t);  // the nodes
  for (const Worker& w : workers_) m.encodedBytes += w.encodedBytes;
  m.tableBytes = nodeIndex_.size() * sizeof(uint64_t);
  return m;
}

size_t TreeStore::memoryBytes() const {
  const StateStore::Memory m = memory();
  return m.stateBytes + m.recordBytes + m.tableBytes;
}

}  // namespace tandem::search
