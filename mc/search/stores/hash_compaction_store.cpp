#include "mc/search/stores/hash_compaction_store.h"

#include <cmath>
#include <stdexcept>

namespace tandem::search {

HashCompactionStore::HashCompactionStore(unsigned workers)
    : workers_(workers), table_(size_t{1} << bits_), slots_(table_.size()), gate_(workers) {}

bool HashCompactionStore::enter(unsigned w, const MayAllocate& may) {
  for (unsigned rounds = 0;;) {
    if (gate_.tryEnter(w, [&] { return growthDue(kBlockAt); })) return true;
    if (full()) return false;
    if (growthDue(kBlockAt))
      growIfDue(w, may);  // overdue: grow it now
    else
      gate_.waitWhileGrowing(rounds);
  }
}

bool HashCompactionStore::growIfDue(unsigned w, const MayAllocate& may) {
  if (!growthDue(kGrowAt)) return !full();
  return grow(w, may(slots_.load(std::memory_order_acquire) * 2 * sizeof(uint64_t)));
}

void HashCompactionStore::prefetch(uint64_t hash) const {
  __builtin_prefetch(table_.data() + home(hash | 1));
}

VisitedSet::Insert HashCompactionStore::insert(unsigned w, std::string_view state, uint64_t hash,
                                               StateKey) {
  const uint64_t sig = hash ? hash : 1;  // 0 marks an empty slot
  const size_t mask = table_.size() - 1;
  for (size_t i = home(sig), probes = 0;; i = (i + 1) & mask) {
    if (++probes > table_.size()) throw std::length_error("the hash compaction table is full");
    uint64_t e = table_.at(i).load(std::memory_order_acquire);
    if (e == 0 && table_.at(i).compare_exchange_strong(e, sig, std::memory_order_acq_rel)) {
      Worker& me = workers_[w];
      me.added(state.size());
      if (++me.unpublished == kCountStep) {
        approxStates_.fetch_add(kCountStep, std::memory_order_relaxed);
        me.unpublished = 0;
      }
      return {kNoKey, true};
    }
    if (e == sig) return {kNoKey, false};  // e: the word another worker may have just put
  }
}

bool HashCompactionStore::grow(unsigned self, bool allowed) {
  if (!gate_.acquire()) return !full();
  if (!growthDue(kGrowAt) || full()) {  // another worker grew it meanwhile, or it is full
    gate_.release();
    return !full();
  }
  if (!allowed) {
    full_.store(true, std::memory_order_release);
    gate_.release();
    return false;
  }
  gate_.drain(self);
  // Nobody is inside: slot i goes to about 2i (the signature's top bits), so the old table's
  // pages are given back as they are read.
  WordArray bigger(table_.size() * 2);
  const unsigned bits = bits_ + 1;
  const size_t mask = bigger.size() - 1;
  constexpr size_t kStep = size_t{1} << 18;  // 2 MiB of words
  for (size_t from = 0; from < table_.size(); from += kStep) {
    const size_t to = std::min(table_.size(), from + kStep);
    for (size_t i = from; i < to; ++i) {
      const uint64_t e = table_.data()[i];
      if (e == 0) continue;
      for (size_t j = e >> (64 - bits);; j = (j + 1) & mask)
        if (bigger.data()[j] == 0) {
          bigger.data()[j] = e;
          break;
        }
    }
    table_.release(from, to);
  }
  table_ = std::move(bigger);
  bits_ = bits;
  slots_.store(table_.size(), std::memory_order_release);
  gate_.release();
  return true;
}

uint64_t HashCompactionStore::size() const { return statesOf(workers_); }

StateStore::Memory HashCompactionStore::memory() const {
  StateStore::Memory m;
  m.encodedBytes = encodedBytesOf(workers_);
  m.tableSlots = slots_.load();
  m.tableBytes = m.tableSlots * sizeof(uint64_t);
  return m;
}

// Wolper and Leroy: n signatures of b bits, uniformly distributed, hold n(n-1)/2 pairs, each
// equal with probability 2^-b; the number of collisions is about Poisson with that mean.
std::optional<Omission> HashCompactionStore::omission() const {
  const auto n = static_cast<double>(size());
  Omission o;
  o.expected = n * (n - 1) / 2 / std::ldexp(1.0, kSignatureBits);
  o.probability = -std::expm1(-o.expected);
  return o;
}

}  // namespace tandem::search
