// 64-bit finalisers: bijections that spread every input bit over the whole word, written once for
// the hash functions of the language (int_functions), BigInt's hash and the state stores.
#pragma once

#include <cstdint>

namespace tandem {

// splitmix64's finaliser (Steele, Lea, Flood).
constexpr uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// MurmurHash3's finaliser (Appleby).
constexpr uint64_t fmix64(uint64_t z) {
  z ^= z >> 33;
  z *= 0xff51afd7ed558ccdULL;
  z ^= z >> 33;
  z *= 0xc4ceb9fe1a85ec53ULL;
  z ^= z >> 33;
  return z;
}

}  // namespace tandem
