// The tree store's set of roots for states of four words or more, whose root is a pair of node
// ids, in 4 bytes a root instead of 8 (Cleary's compact hashing, as in Laarman's compact tree
// tables; Cleary, "Compact hash tables using bidirectional linear probing", 1984). While every
// node id is below 2^n, a root (left, right) is a 2n-bit key; a bijection p on 2n bits mixes
// it, the top b bits of p(key) are its home slot (2^b slots) and only the other 2n - b bits, the
// quotient, are stored, with the distance from home: a slot is (distance + 1) << 24 | quotient,
// 0 when empty. n is chosen so that the quotient fits 24 bits (2n <= 24 + b), so each doubling
// of the table lets ids grow by half a bit; roots whose ids are too wide, or whose home's run of
// full slots is longer than the 8-bit distance can say, go to a small exact overflow set.
//
// Lookups and inserts are lock-free but for the overflow (a mutex; at 90% load about 0.1% of the
// roots land there). Doubling is single-threaded, inside the store's growth gate: when n stays,
// p stays and slot i goes to 2i or 2i + 1, so the old slots are read in order and released.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "mc/search/stores/word_array.h"

namespace tandem::search {

class CompactRootTable {
 public:
  static constexpr unsigned kQuotientBits = 24;
  static constexpr unsigned kMaxDistance = 254;  // (distance + 1) fits the slot's top 8 bits

  explicit CompactRootTable(unsigned bits);
  // Adds the root (left, right); true if it was not there. Thread-safe.
  bool insert(uint32_t left, uint32_t right);
  size_t slots() const { return size_t{1} << bits_; }
  // The ids below 2^idBits() are stored compactly; wider ones go to the overflow.
  unsigned idBits() const { return idBits_; }
  size_t overflowed() const;
  size_t memoryBytes() const;
  // Twice the slots (and, every other time, ids half a bit wider): single-threaded.
  void doubleSize();

 private:
  static unsigned idBitsFor(unsigned bits);
  // The bijection on keys of `width` bits, and its inverse.
  static uint64_t permute(uint64_t key, unsigned width);
  static uint64_t unpermute(uint64_t mixed, unsigned width);
  std::atomic_ref<uint32_t> slot(size_t i) const {
    return std::atomic_ref<uint32_t>(reinterpret_cast<uint32_t*>(words_.data())[i]);
  }
  // Inserts a key known to be absent without atomics (while doubling).
  void place(uint32_t left, uint32_t right);
  bool insertOverflow(uint32_t left, uint32_t right);

  unsigned bits_, idBits_;
  WordArray words_;  // 2^bits 32-bit slots, two to a word
  mutable std::mutex overflowMutex_;
  std::unordered_set<uint64_t> overflow_;  // left | right << 32
};

}  // namespace tandem::search
