// Which rank of a distributed search owns a state: a function of its StateStore::hash, so that
// every rank computes the same owner from the bytes alone.
#pragma once

#include <cstdint>

namespace tandem::search {

// hash mod K, of the hash remixed first (splitmix64's finaliser) and reduced by a multiply
// (Lemire's fastrange) rather than `%`: the store indexes its table by the low bits of the same
// hash and tags entries with the high bits, and owners taken from either would leave part of
// every rank's table unused (half of it for K = 2) or its tags less telling.
inline int ownerOf(uint64_t hash, int ranks) {
  uint64_t x = hash ^ (hash >> 31);
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return static_cast<int>(((x >> 32) * static_cast<uint64_t>(ranks)) >> 32);
}

}  // namespace tandem::search
