// The pure integer functions behind the language's builtins and native library, over BigInt.
// A function that is undefined for some input returns std::nullopt there; the evaluator turns
// that into an error at the call site.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "mc/expr/bigint.h"

namespace tandem {

// The functions live in their own namespace so that `abs`, `min` and `max` do not hide the
// standard ones for code elsewhere in namespace tandem.
namespace intfn {

BigInt abs(const BigInt& x);
BigInt min(const BigInt& a, const BigInt& b);
BigInt max(const BigInt& a, const BigInt& b);
// floor(sqrt(x)); nullopt for x < 0.
std::optional<BigInt> isqrt(const BigInt& x);
// Results larger than this many bits (|result| >= 2^kMaxPowBits) are refused, so a model cannot
// ask for 10^(10^9) and exhaust memory.
inline constexpr unsigned kMaxPowBits = 100000;
// base^exp, with 0^0 = 1. nullopt for exp < 0 and for results of more than kMaxPowBits bits.
std::optional<BigInt> ipow(const BigInt& base, const BigInt& exp);
// Greatest common divisor, always >= 0; gcd(0, 0) = 0 and gcd(x, 0) = |x|.
BigInt gcd(const BigInt& a, const BigInt& b);

// Two independent deterministic hashes with results in [0, 2^31). Users see these values, so the
// definitions are fixed:
//   u = x as uint64 (two's complement) when x fits in int64; otherwise u = the 64-bit FNV-1a of
//       x's decimal string (with its '-'): h = 0xcbf29ce484222325, for each byte c:
//       h = (h ^ c) * 0x100000001b3 (mod 2^64).
//   hash1(x) = splitmix64(u + 0x9e3779b97f4a7c15) >> 33, where
//       splitmix64(z): z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) *
//       0x94d049bb133111eb; return z ^ z >> 31.
//   hash2(x) = fmix64(u + 0xc2b2ae3d27d4eb4f) >> 33, where fmix64 is MurmurHash3's finalizer:
//       z ^= z >> 33; z *= 0xff51afd7ed558ccd; z ^= z >> 33; z *= 0xc4ceb9fe1a85ec53;
//       z ^= z >> 33.
// All arithmetic is mod 2^64.
int64_t hash1(const BigInt& x);
int64_t hash2(const BigInt& x);

// Whether the exact a+b (a*b) lies in the signed range of `bits` bits (1..64).
bool noOverflowAdd(const BigInt& a, const BigInt& b, unsigned bits);
bool noOverflowMul(const BigInt& a, const BigInt& b, unsigned bits);

}  // namespace intfn

// The builtins by name, for the evaluator. `fn` expects exactly `arity` arguments.
struct IntFunction {
  std::string_view name;
  unsigned arity;
  std::optional<BigInt> (*fn)(std::span<const BigInt>);
};
// abs, min, max, isqrt, ipow, gcd, hash1, hash2 (in that order).
std::span<const IntFunction> builtinIntFunctions();
// The entry called `name`, or nullptr.
const IntFunction* findIntFunction(std::string_view name);

}  // namespace tandem
