// Hash combining for values and states (boost::hash_combine's mixing, 64-bit constant).
#pragma once

#include <cstddef>

namespace tandem::exec {

inline void hashMix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

}  // namespace tandem::exec
