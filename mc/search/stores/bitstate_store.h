// `--store bitstate`: supertrace (Holzmann, "On limits and possibilities of automated protocol
// analysis", PSTV 1987; "An analysis of bitstate hashing", FMSD 1998; SPIN's -DBITSTATE). The
// visited set is an array of m = 2^b bits; a state sets k bits chosen by k hash functions and is
// taken as stored when all k were set already (a Bloom filter). A new state is omitted that way
// with probability about (1 - e^{-k i / m})^k after i states; summed over the n states stored,
// that is the expected number of omissions. k = 3 and b = 27 (16 MiB) are SPIN 6's defaults
// (pan -k3 -w27). The k indices come from the state's one 64-bit hash by double hashing
// (Kirsch and Mitzenmacher, "Less hashing, same performance", ESA 2006): h1 + i h2. The bits
// are set by atomic or, without a lock: two workers inserting one new state at the same moment
// may both find a bit of it clear, and both explore it (a state counted twice, never one lost).
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include "mc/search/stores/visited_set.h"
#include "mc/search/stores/word_array.h"
#include "mc/search/stores/worker_counts.h"

namespace tandem::search {

class BitstateStore final : public LossySet {
 public:
  static constexpr unsigned kDefaultBits = 27, kMinBits = 8, kMaxBits = 40, kHashes = 3;
  // An array of 2^bits bits (mmap: pages are mapped as bits in them are set).
  BitstateStore(unsigned workers, unsigned bits);

  StoreKind kind() const override { return StoreKind::Bitstate; }
  // The array never grows: nothing waits, nothing is ever full.
  bool enter(unsigned, const MayAllocate&) override { return true; }
  void leave(unsigned) override {}
  bool growIfDue(unsigned, const MayAllocate&) override { return true; }
  bool full() const override { return false; }
  void prefetch(uint64_t hash) const override;
  // New when one of the state's k bits was clear (all are set now).
  Insert insert(unsigned w, std::string_view state, uint64_t hash, StateKey parent) override;
  std::optional<Omission> omission() const override;
  uint64_t size() const override;
  size_t memoryBytes() const override { return bits_.size() * sizeof(uint64_t); }
  StateStore::Memory memory() const override;

  // The bytes of an array of 2^bits bits.
  static size_t arrayBytes(unsigned bits) { return (size_t{1} << bits) / 8; }
  // Holzmann's estimate for n states in 2^bits bits with k hash functions.
  static Omission estimate(uint64_t n, unsigned bits, unsigned k = kHashes);

 private:
  uint64_t index(uint64_t hash, unsigned i) const;
  std::vector<WorkerCounts> workers_;
  unsigned log2Bits_;
  WordArray bits_;
};

}  // namespace tandem::search
