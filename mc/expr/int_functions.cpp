#include "mc/expr/int_functions.h"

#include "mc/expr/hash_mix.h"

#include <cassert>
#include <cmath>
#include <string>

namespace tandem {
namespace intfn {

BigInt abs(const BigInt& x) { return x.abs(); }
BigInt min(const BigInt& a, const BigInt& b) { return b < a ? b : a; }
BigInt max(const BigInt& a, const BigInt& b) { return a < b ? b : a; }

namespace {

// base^exp by squaring, with no size check.
BigInt powUnchecked(BigInt base, uint64_t exp) {
  BigInt result(1);
  while (exp != 0) {
    if (exp & 1) result *= base;
    exp >>= 1;
    if (exp != 0) base *= base;
  }
  return result;
}

uint64_t isqrtSmall(uint64_t x) {
  // std::sqrt of the rounded double may land one off either way; fix it up exactly rather than
  // rely on rounding details. r <= 2^32, so (r+1)^2 cannot overflow uint64.
  uint64_t r = static_cast<uint64_t>(std::sqrt(static_cast<double>(x)));
  while (r * r > x) --r;
  while ((r + 1) * (r + 1) <= x) ++r;
  return r;
}

// The 64-bit input of hash1/hash2 (see int_functions.h).
uint64_t hashInput(const BigInt& x) {
  if (x.isSmall()) return static_cast<uint64_t>(x.small());
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : x.toString()) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::optional<BigInt> isqrt(const BigInt& x) {
  if (x.sign() < 0) return std::nullopt;
  if (x.isSmall())
    return BigInt(static_cast<int64_t>(isqrtSmall(static_cast<uint64_t>(x.small()))));
  // Newton's iteration from 2^ceil(bits/2) >= sqrt(x) decreases monotonically to floor(sqrt(x)).
  BigInt r = powUnchecked(BigInt(2), (x.bitLength() + 1) / 2);
  for (;;) {
    BigInt next = BigInt::div(r + BigInt::div(x, r), BigInt(2));
    if (next >= r) return r;
    r = std::move(next);
  }
}

std::optional<BigInt> ipow(const BigInt& base, const BigInt& exp) {
  if (exp.sign() < 0) return std::nullopt;
  if (exp.sign() == 0) return BigInt(1);
  // |base| <= 1: the result is 0, 1 or -1 whatever the size of exp.
  if (base == 0 || base == 1) return base;
  if (base == -1) return BigInt(BigInt::mod(exp, 2) == 0 ? 1 : -1);
  // 2^(L-1) <= |base| < 2^L, so |base|^exp has at least exp*(L-1)+1 bits: refuse early when
  // that is already too many. Otherwise the result has at most exp*L <= 2*kMaxPowBits bits and
  // computing it is cheap; then check exactly.
  const uint64_t len = base.bitLength();
  const std::optional<int64_t> e = exp.toInt64();
  if (!e || static_cast<uint64_t>(*e) > kMaxPowBits / (len - 1)) return std::nullopt;
  BigInt r = powUnchecked(base, static_cast<uint64_t>(*e));
  if (r.bitLength() > kMaxPowBits) return std::nullopt;
  return r;
}

BigInt gcd(const BigInt& a, const BigInt& b) {
  BigInt x = a.abs(), y = b.abs();
  while (y.sign() != 0) {
    BigInt r = BigInt::mod(x, y);
    x = std::move(y);
    y = std::move(r);
  }
  return x;
}

int64_t hash1(const BigInt& x) {
  return static_cast<int64_t>(splitmix64(hashInput(x) + 0x9e3779b97f4a7c15ULL) >> 33);
}

int64_t hash2(const BigInt& x) {
  return static_cast<int64_t>(fmix64(hashInput(x) + 0xc2b2ae3d27d4eb4fULL) >> 33);
}

bool noOverflowAdd(const BigInt& a, const BigInt& b, unsigned bits) { return (a + b).fitsIn(bits); }

bool noOverflowMul(const BigInt& a, const BigInt& b, unsigned bits) {
  // Skip the multiplication of huge operands: the product of two nonzero values has at least
  // (bits(a)-1)+(bits(b)-1)+1 bits, which is beyond 64 when the operands are that large.
  if (a.sign() == 0 || b.sign() == 0) return true;
  if (a.bitLength() + b.bitLength() > 66) return false;
  return (a * b).fitsIn(bits);
}

}  // namespace intfn

namespace {

using Args = std::span<const BigInt>;

std::optional<BigInt> callAbs(Args a) { return intfn::abs(a[0]); }
std::optional<BigInt> callMin(Args a) { return intfn::min(a[0], a[1]); }
std::optional<BigInt> callMax(Args a) { return intfn::max(a[0], a[1]); }
std::optional<BigInt> callIsqrt(Args a) { return intfn::isqrt(a[0]); }
std::optional<BigInt> callIpow(Args a) { return intfn::ipow(a[0], a[1]); }
std::optional<BigInt> callGcd(Args a) { return intfn::gcd(a[0], a[1]); }
std::optional<BigInt> callHash1(Args a) { return BigInt(intfn::hash1(a[0])); }
std::optional<BigInt> callHash2(Args a) { return BigInt(intfn::hash2(a[0])); }

constexpr IntFunction kBuiltins[] = {
    {"abs", 1, callAbs},   {"min", 2, callMin}, {"max", 2, callMax},     {"isqrt", 1, callIsqrt},
    {"ipow", 2, callIpow}, {"gcd", 2, callGcd}, {"hash1", 1, callHash1}, {"hash2", 1, callHash2},
};

}  // namespace

std::span<const IntFunction> builtinIntFunctions() { return kBuiltins; }

const IntFunction* findIntFunction(std::string_view name) {
  for (const IntFunction& f : kBuiltins)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace tandem
