#include "mc/search/stores/bitstate_store.h"

#include "mc/expr/hash_mix.h"

#include <cmath>
#include <stdexcept>

namespace tandem::search {

namespace {
// A second hash of the state from its first: the step of double hashing.
uint64_t remix(uint64_t x) { return splitmix64(x); }
unsigned checked(unsigned bits) {
  if (bits < BitstateStore::kMinBits || bits > BitstateStore::kMaxBits)
    throw std::invalid_argument("the bitstate array has 2^8 to 2^40 bits");
  return bits;
}
}  // namespace

BitstateStore::BitstateStore(unsigned workers, unsigned bits)
    : workers_(workers), log2Bits_(checked(bits)), bits_((size_t{1} << log2Bits_) / 64) {}

uint64_t BitstateStore::index(uint64_t hash, unsigned i) const {
  return (hash + i * (remix(hash) | 1)) >> (64 - log2Bits_);
}

void BitstateStore::prefetch(uint64_t hash) const {
  for (unsigned i = 0; i < kHashes; ++i) __builtin_prefetch(bits_.data() + index(hash, i) / 64);
}

VisitedSet::Insert BitstateStore::insert(unsigned w, std::string_view state, uint64_t hash,
                                         StateKey) {
  bool isNew = false;
  for (unsigned i = 0; i < kHashes; ++i) {
    const uint64_t at = index(hash, i), bit = uint64_t{1} << (at % 64);
    // A plain load first: most lookups of a visited state find every bit set and write nothing.
    if (bits_.at(at / 64).load(std::memory_order_relaxed) & bit) continue;
    isNew = !(bits_.at(at / 64).fetch_or(bit, std::memory_order_relaxed) & bit) || isNew;
  }
  if (isNew) {
    workers_[w].added(state.size());
  }
  return {kNoKey, isNew};
}

uint64_t BitstateStore::size() const { return statesOf(workers_); }

StateStore::Memory BitstateStore::memory() const {
  StateStore::Memory m;
  m.encodedBytes = encodedBytesOf(workers_);
  m.tableBytes = memoryBytes();
  m.tableSlots = size_t{1} << log2Bits_;  // bits
  return m;
}

// The i-th state stored finds a fraction 1 - e^{-k i / m} of the bits set (after k i bits were
// set at random), and all k of its bits set with that fraction to the k-th power. The sum is
// exact up to a million states, and beyond a midpoint rule over a million intervals (the terms
// vary smoothly).
Omission BitstateStore::estimate(uint64_t n, unsigned bits, unsigned k) {
  const double m = std::ldexp(1.0, static_cast<int>(bits));
  const double kd = k;
  auto term = [&](double i) { return std::pow(-std::expm1(-kd * i / m), kd); };
  constexpr uint64_t kSteps = 1'000'000;
  Omission o;
  if (n <= kSteps) {
    for (uint64_t i = 0; i < n; ++i) o.expected += term(static_cast<double>(i));
  } else {
    const double step = static_cast<double>(n) / kSteps;
    for (uint64_t s = 0; s < kSteps; ++s) o.expected += term((s + 0.5) * step) * step;
  }
  o.probability = -std::expm1(-o.expected);
  return o;
}

std::optional<Omission> BitstateStore::omission() const { return estimate(size(), log2Bits_); }

}  // namespace tandem::search
