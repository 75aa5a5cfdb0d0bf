// An open-addressing table of nonzero 64-bit words (0 is empty) whose home slot is the top bits
// of the word's hash, over a WordArray. Both multi-core stores index with it. Because the home
// is the top bits, doubling sends slot i to about 2i: the old table is read in order and its
// pages are released as read, so the peak stays near the new table's size.
#pragma once

#include <algorithm>
#include <cstdint>

#include "mc/search/stores/word_array.h"

namespace tandem::search {

struct TopBitsTable {
  WordArray slots;
  unsigned bits = 0;

  TopBitsTable() = default;
  explicit TopBitsTable(unsigned b) : slots(size_t{1} << b), bits(b) {}
  size_t size() const { return slots.size(); }
  size_t mask() const { return slots.size() - 1; }
  size_t home(uint64_t hash) const { return hash >> (64 - bits); }

  // Twice the slots; single-threaded (nobody else may read the table meanwhile). hashOf(word)
  // gives back the hash a word was put with.
  template <typename HashOf>
  void doubleSize(HashOf&& hashOf) {
    TopBitsTable bigger(bits + 1);
    constexpr size_t kStep = size_t{1} << 18;  // 2 MiB of words between releases
    for (size_t from = 0; from < size(); from += kStep) {
      const size_t to = std::min(size(), from + kStep);
      for (size_t i = from; i < to; ++i) {
        const uint64_t e = slots.data()[i];
        if (e == 0) continue;
        for (size_t j = bigger.home(hashOf(e));; j = (j + 1) & bigger.mask())
          if (bigger.slots.data()[j] == 0) {
            bigger.slots.data()[j] = e;
            break;
          }
      }
      slots.release(from, to);
    }
    *this = std::move(bigger);
  }
};

}  // namespace tandem::search
