#include "mc/search/stores/compact_root_table.h"

#include <algorithm>

namespace tandem::search {

namespace {

constexpr uint64_t kMul1 = 0xff51afd7ed558ccdULL, kMul2 = 0xc4ceb9fe1a85ec53ULL;

// The inverse of an odd number modulo 2^64 (Newton's iteration: each step doubles the bits).
constexpr uint64_t inverse(uint64_t a) {
  uint64_t x = a;  // right in the low 3 bits
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
static_assert(kMul1 * inverse(kMul1) == 1 && kMul2 * inverse(kMul2) == 1);

uint64_t maskOf(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace

CompactRootTable::CompactRootTable(unsigned bits)
    : bits_(bits), idBits_(idBitsFor(bits)), words_(std::max<size_t>(1, slots() / 2)) {}

unsigned CompactRootTable::idBitsFor(unsigned bits) {
  return std::min(32u, (kQuotientBits + bits) / 2);
}

// xorshift-multiply rounds modulo 2^width: each step is invertible, so p is a bijection and a
// stored (home, quotient) names exactly one key.
uint64_t CompactRootTable::permute(uint64_t k, unsigned width) {
  const uint64_t mask = maskOf(width);
  const unsigned s = (width + 1) / 2;
  k ^= k >> s;
  k = (k * kMul1) & mask;
  k ^= k >> s;
  k = (k * kMul2) & mask;
  k ^= k >> s;
  return k;
}

uint64_t CompactRootTable::unpermute(uint64_t k, unsigned width) {
  const uint64_t mask = maskOf(width);
  const unsigned s = (width + 1) / 2;
  auto unshift = [&](uint64_t y) {  // x ^= x >> s, undone: s more top bits are right each turn
    uint64_t x = y;
    for (unsigned done = s; done < width; done += s) x = y ^ (x >> s);
    return x;
  };
  k = unshift(k);
  k = (k * inverse(kMul2)) & mask;
  k = unshift(k);
  k = (k * inverse(kMul1)) & mask;
  return unshift(k);
}

bool CompactRootTable::insert(uint32_t left, uint32_t right) {
  if (((uint64_t{left} | right) >> idBits_) != 0) return insertOverflow(left, right);
  const unsigned width = 2 * idBits_, qBits = width - bits_;
  const uint64_t p = permute(uint64_t{left} | uint64_t{right} << idBits_, width);
  const size_t home = p >> qBits, mask = slots() - 1;
  const auto q = static_cast<uint32_t>(p & maskOf(qBits));
  for (uint32_t d = 0; d <= kMaxDistance; ++d) {
    const uint32_t want = (d + 1) << kQuotientBits | q;
    auto s = slot((home + d) & mask);
    uint32_t v = s.load(std::memory_order_acquire);
    if (v == 0 && s.compare_exchange_strong(v, want, std::memory_order_acq_rel)) return true;
    if (v == want) return false;
  }
  // Every slot within reach is taken, and slots are never emptied: if the root is stored, it is
  // in the overflow.
  return insertOverflow(left, right);
}

bool CompactRootTable::insertOverflow(uint32_t left, uint32_t right) {
  std::lock_guard lock(overflowMutex_);
  return overflow_.insert(uint64_t{left} | uint64_t{right} << 32).second;
}

void CompactRootTable::place(uint32_t left, uint32_t right) {
  if (((uint64_t{left} | right) >> idBits_) != 0) {
    overflow_.insert(uint64_t{left} | uint64_t{right} << 32);
    return;
  }
  const unsigned width = 2 * idBits_, qBits = width - bits_;
  const uint64_t p = permute(uint64_t{left} | uint64_t{right} << idBits_, width);
  const size_t home = p >> qBits, mask = slots() - 1;
  auto* s = reinterpret_cast<uint32_t*>(words_.data());
  for (uint32_t d = 0; d <= kMaxDistance; ++d) {
    uint32_t& v = s[(home + d) & mask];
    if (v == 0) {
      v = (d + 1) << kQuotientBits | static_cast<uint32_t>(p & maskOf(qBits));
      return;
    }
  }
  overflow_.insert(uint64_t{left} | uint64_t{right} << 32);
}

void CompactRootTable::doubleSize() {
  const unsigned oldBits = bits_, oldIdBits = idBits_, oldWidth = 2 * oldIdBits;
  const unsigned oldQBits = oldWidth - oldBits;
  const size_t oldSlots = slots();
  WordArray old = std::move(words_);
  std::unordered_set<uint64_t> oldOverflow;
  oldOverflow.swap(overflow_);
  bits_ = oldBits + 1;
  idBits_ = idBitsFor(bits_);
  words_ = WordArray(slots() / 2);
  const auto* s = reinterpret_cast<const uint32_t*>(old.data());
  constexpr size_t kStep = size_t{1} << 18;  // slots read before their pages are released
  for (size_t from = 0; from < oldSlots; from += kStep) {
    const size_t to = std::min(oldSlots, from + kStep);
    for (size_t i = from; i < to; ++i) {
      const uint32_t v = s[i];
      if (v == 0) continue;
      const size_t home = (i - ((v >> kQuotientBits) - 1)) & (oldSlots - 1);
      const uint64_t key =
          unpermute(uint64_t{home} << oldQBits | (v & maskOf(kQuotientBits)), oldWidth);
      place(static_cast<uint32_t>(key & maskOf(oldIdBits)),
            static_cast<uint32_t>(key >> oldIdBits));
    }
    old.release(from / 2, to / 2);
  }
  for (uint64_t key : oldOverflow)
    place(static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32));
}

size_t CompactRootTable::overflowed() const {
  std::lock_guard lock(overflowMutex_);
  return overflow_.size();
}

size_t CompactRootTable::memoryBytes() const {
  // An unordered_set node is about a key, a next pointer and a bucket: 32 bytes.
  return words_.size() * sizeof(uint64_t) + overflowed() * 32;
}

}  // namespace tandem::search
