// BigInt: the value of the language's mathematical `int` (the SMT Int sort). Unbounded, so it
// never silently overflows. Values that fit in int64 are stored inline and every operation on
// them is an inline, allocation-free fast path; only values outside int64 live in a heap-allocated
// boost::multiprecision::cpp_int. The representation is canonical (a value that fits in int64 is
// always small), so equality and hashing may look at the representation.
#pragma once

#include <cassert>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mc/expr/euclidean.h"
#include "mc/expr/hash_mix.h"

namespace tandem {

class BigInt {
 public:
  BigInt() noexcept = default;  // 0
  BigInt(int64_t v) noexcept : small_(v) {}
  // Unsigned sources get their own overload so that values above INT64_MAX are not wrapped
  // negative by the implicit conversion to int64_t.
  template <std::unsigned_integral U>
  requires(!std::same_as<U, bool>) BigInt(U v) {
    if (v <= static_cast<U>(std::numeric_limits<int64_t>::max()))
      small_ = static_cast<int64_t>(v);
    else
      *this = fromUint64(static_cast<uint64_t>(v));
  }

  BigInt(const BigInt& o) : small_(o.small_), big_(o.big_ ? cloneBig(o.big_) : nullptr) {}
  BigInt(BigInt&& o) noexcept : small_(o.small_), big_(std::exchange(o.big_, nullptr)) {
    o.small_ = 0;
  }
  BigInt& operator=(const BigInt& o) {
    if (this == &o) return *this;
    if (o.big_ || big_)
      assignSlow(o);
    else
      small_ = o.small_;
    return *this;
  }
  BigInt& operator=(BigInt&& o) noexcept {
    if (this == &o) return *this;
    if (big_) freeBig(big_);
    small_ = std::exchange(o.small_, 0);
    big_ = std::exchange(o.big_, nullptr);
    return *this;
  }
  ~BigInt() {
    if (big_) freeBig(big_);
  }

  // Decimal literal: an optional '-' then one or more digits (leading zeros allowed, no '+', no
  // spaces). nullopt for anything else.
  static std::optional<BigInt> parse(std::string_view decimal);
  std::string toString() const;

  bool isSmall() const { return big_ == nullptr; }
  int64_t small() const {
    assert(isSmall() && "BigInt::small() on a value outside int64");
    return small_;
  }
  std::optional<int64_t> toInt64() const {
    if (big_) return std::nullopt;
    return small_;
  }
  // Whether the value is in the signed two's complement range of `bits` bits (1..64).
  bool fitsIn(unsigned bits) const {
    assert(bits >= 1 && bits <= 64 && "BigInt::fitsIn: bits must be in 1..64");
    if (big_) return false;
    if (bits == 64) return true;
    const int64_t half = int64_t{1} << (bits - 1);
    return small_ >= -half && small_ < half;
  }
  // The value modulo 2^bits, sign-extended from bit bits-1: what an i32/i64 holds after
  // wrap-around. bits in 1..64.
  int64_t wrapTo(unsigned bits) const {
    assert(bits >= 1 && bits <= 64 && "BigInt::wrapTo: bits must be in 1..64");
    return signExtend(big_ ? low64Slow() : static_cast<uint64_t>(small_), bits);
  }

  int sign() const { return big_ ? static_cast<int>(small_) : (small_ > 0) - (small_ < 0); }
  BigInt abs() const { return sign() < 0 ? -*this : *this; }
  // Bits needed for |value| (0 for 0); e.g. 1 -> 1, 255 -> 8, INT64_MIN -> 64.
  unsigned bitLength() const {
    if (big_) return bitLengthSlow();
    const uint64_t u =
        small_ < 0 ? 0 - static_cast<uint64_t>(small_) : static_cast<uint64_t>(small_);
    return u == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(u));
  }

  size_t hash() const { return big_ ? hashSlow() : static_cast<size_t>(mix64(small_)); }

  friend BigInt operator+(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.big_ && !b.big_ && !__builtin_add_overflow(a.small_, b.small_, &r)) return BigInt(r);
    return addSlow(a, b);
  }
  friend BigInt operator-(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.big_ && !b.big_ && !__builtin_sub_overflow(a.small_, b.small_, &r)) return BigInt(r);
    return subSlow(a, b);
  }
  friend BigInt operator*(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.big_ && !b.big_ && !__builtin_mul_overflow(a.small_, b.small_, &r)) return BigInt(r);
    return mulSlow(a, b);
  }
  BigInt operator-() const {
    if (!big_ && small_ != std::numeric_limits<int64_t>::min()) return BigInt(-small_);
    return negSlow(*this);
  }
  BigInt& operator+=(const BigInt& o) { return *this = *this + o; }
  BigInt& operator-=(const BigInt& o) { return *this = *this - o; }
  BigInt& operator*=(const BigInt& o) { return *this = *this * o; }

  // Euclidean division, as SMT-LIB defines div/mod on Int: for b != 0, a = b*q + r with
  // 0 <= r < |b|. So div(-7,2) = -4, mod(-7,2) = 1, div(7,-2) = -3, mod(7,-2) = 1. There is
  // deliberately no operator/ or operator%: C++ readers would expect truncation.
  // Precondition b != 0 (the caller reports division by zero).
  static BigInt div(const BigInt& a, const BigInt& b) {
    assert(b.sign() != 0 && "BigInt::div by zero: the caller must check");
    int64_t q, r;
    if (smallDivMod(a, b, q, r)) return BigInt(q);
    return divSlow(a, b);
  }
  static BigInt mod(const BigInt& a, const BigInt& b) {
    assert(b.sign() != 0 && "BigInt::mod by zero: the caller must check");
    int64_t q, r;
    if (smallDivMod(a, b, q, r)) return BigInt(r);
    return modSlow(a, b);
  }

  friend bool operator==(const BigInt& a, const BigInt& b) {
    if (!a.big_ && !b.big_) return a.small_ == b.small_;
    if (!a.big_ || !b.big_) return false;  // canonical: a big value never equals a small one
    return equalSlow(a, b);
  }
  friend std::strong_ordering operator<=>(const BigInt& a, const BigInt& b) {
    if (!a.big_ && !b.big_) return a.small_ <=> b.small_;
    // A big value lies outside int64, so its sign alone orders it against any small value.
    if (!b.big_) return a.small_ > 0 ? std::strong_ordering::greater : std::strong_ordering::less;
    if (!a.big_) return b.small_ > 0 ? std::strong_ordering::less : std::strong_ordering::greater;
    return compareSlow(a, b);
  }

  friend std::ostream& operator<<(std::ostream& os, const BigInt& v);

 private:
  struct Big;  // wraps cpp_int; defined in bigint.cpp so this header stays light

  // splitmix64: cheap and well mixed, so small values hash well in open addressing.
  static uint64_t mix64(int64_t v) { return splitmix64(static_cast<uint64_t>(v)); }
  static int64_t signExtend(uint64_t u, unsigned bits) {
    const unsigned shift = 64 - bits;
    return static_cast<int64_t>(u << shift) >> shift;  // C++20: conversion and >> are defined
  }
  // Euclidean q and r when both operands are small and the quotient fits (not INT64_MIN / -1).
  static bool smallDivMod(const BigInt& a, const BigInt& b, int64_t& q, int64_t& r) {
    if (a.big_ || b.big_) return false;
    if (b.small_ == -1 && a.small_ == std::numeric_limits<int64_t>::min()) return false;
    q = a.small_ / b.small_;
    r = a.small_ % b.small_;
    truncatedToEuclidean(b.small_, q, r);
    return true;
  }

  static BigInt fromUint64(uint64_t v);
  static Big* cloneBig(const Big* b);
  static void freeBig(Big* b) noexcept;
  void assignSlow(const BigInt& o);
  uint64_t low64Slow() const;
  unsigned bitLengthSlow() const;
  size_t hashSlow() const;
  static BigInt addSlow(const BigInt& a, const BigInt& b);
  static BigInt subSlow(const BigInt& a, const BigInt& b);
  static BigInt mulSlow(const BigInt& a, const BigInt& b);
  static BigInt negSlow(const BigInt& a);
  static BigInt divSlow(const BigInt& a, const BigInt& b);
  static BigInt modSlow(const BigInt& a, const BigInt& b);
  static bool equalSlow(const BigInt& a, const BigInt& b);
  static std::strong_ordering compareSlow(const BigInt& a, const BigInt& b);

  friend struct BigIntAccess;  // bigint.cpp's bridge to and from cpp_int

  // When big_ is null this is the value; otherwise it is the sign (-1 or +1) of *big_, which
  // lets sign() and comparisons against small values skip the heap.
  int64_t small_ = 0;
  Big* big_ = nullptr;  // owned; non-null exactly when the value is outside int64
};

// C-style truncating division and remainder on int64, for the bit-vector types i32/i64.
// Precondition b != 0. Unlike the built-in operators they are defined for INT64_MIN / -1: the
// quotient wraps to INT64_MIN (two's complement, as the i64 result wraps) and the remainder is 0.
inline int64_t truncDiv(int64_t a, int64_t b) {
  assert(b != 0 && "truncDiv by zero: the caller must check");
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  return a / b;
}
inline int64_t truncRem(int64_t a, int64_t b) {
  assert(b != 0 && "truncRem by zero: the caller must check");
  if (b == -1) return 0;
  return a % b;
}

}  // namespace tandem

template <>
struct std::hash<tandem::BigInt> {
  size_t operator()(const tandem::BigInt& v) const noexcept { return v.hash(); }
};
