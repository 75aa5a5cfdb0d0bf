// LEB128 lengths of the state stores' records (StateStore, SharedStateStore): 7 bits a byte, the
// high bit set on every byte but the last. One definition for both stores' writers and readers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tandem::search {

inline size_t varintSize(size_t n) {
  size_t k = 1;
  while (n >= 0x80) n >>= 7, ++k;
  return k;
}

// Writes n at p; returns the byte after it.
inline char* writeVarint(char* p, size_t n) {
  while (n >= 0x80) *p++ = static_cast<char>((n & 0x7f) | 0x80), n >>= 7;
  *p++ = static_cast<char>(n);
  return p;
}

// Reads a length at p into len; returns the byte after it.
inline const char* readVarint(const char* p, size_t& len) {
  len = 0;
  for (int shift = 0;; shift += 7) {
    auto c = static_cast<uint8_t>(*p++);
    len |= static_cast<size_t>(c & 0x7f) << shift;
    if (!(c & 0x80)) return p;
  }
}

}  // namespace tandem::search
