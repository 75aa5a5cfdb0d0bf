#include "mc/expr/bigint.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <ostream>

namespace tandem {

using boost::multiprecision::cpp_int;

struct BigInt::Big {
  cpp_int v;
};

// Everything that crosses between BigInt's representation and cpp_int goes through here.
struct BigIntAccess {
  static cpp_int toCpp(const BigInt& x) { return x.big_ ? x.big_->v : cpp_int(x.small_); }

  // Restores the canonical form: a result that fits in int64 is stored small.
  static BigInt fromCpp(cpp_int v) {
    BigInt r;
    if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) {
      r.small_ = static_cast<int64_t>(v);
    } else {
      r.small_ = v.sign();
      r.big_ = new BigInt::Big{std::move(v)};
    }
    return r;
  }
};

namespace {
cpp_int toCpp(const BigInt& x) { return BigIntAccess::toCpp(x); }
BigInt fromCpp(cpp_int v) { return BigIntAccess::fromCpp(std::move(v)); }
}  // namespace

std::optional<BigInt> BigInt::parse(std::string_view s) {
  const bool neg = !s.empty() && s.front() == '-';
  const std::string_view digits = neg ? s.substr(1) : s;
  if (digits.empty()) return std::nullopt;
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  // Accumulate negatively so INT64_MIN, whose magnitude has no positive int64, parses small.
  int64_t acc = 0;
  bool overflow = false;
  for (char c : digits) {
    if (__builtin_mul_overflow(acc, 10, &acc) || __builtin_sub_overflow(acc, c - '0', &acc)) {
      overflow = true;
      break;
    }
  }
  if (!overflow) {
    if (neg) return BigInt(acc);
    if (acc != std::numeric_limits<int64_t>::min()) return BigInt(-acc);
  }
  // cpp_int reads a leading 0 as an octal prefix; the value is large here, so a nonzero digit
  // remains after dropping the zeros.
  cpp_int v(std::string(digits.substr(digits.find_first_not_of('0'))));
  if (neg) v = -v;
  return fromCpp(std::move(v));
}

std::string BigInt::toString() const { return big_ ? big_->v.str() : std::to_string(small_); }

std::ostream& operator<<(std::ostream& os, const BigInt& v) {
  if (v.big_) return os << v.big_->v.str();
  return os << v.small_;
}

BigInt BigInt::fromUint64(uint64_t v) { return fromCpp(cpp_int(v)); }

BigInt::Big* BigInt::cloneBig(const Big* b) { return new Big{b->v}; }

void BigInt::freeBig(Big* b) noexcept { delete b; }

void BigInt::assignSlow(const BigInt& o) {
  if (!o.big_) {
    freeBig(big_);
    big_ = nullptr;
  } else if (big_) {
    big_->v = o.big_->v;  // reuse the allocation
  } else {
    big_ = cloneBig(o.big_);
  }
  small_ = o.small_;
}

uint64_t BigInt::low64Slow() const {
  // Reduce into [0, 2^64) first: converting a cpp_int out of uint64's range does not wrap.
  static const cpp_int kTwo64 = cpp_int(1) << 64;
  cpp_int r = big_->v % kTwo64;
  if (r < 0) r += kTwo64;
  return static_cast<uint64_t>(r);
}

unsigned BigInt::bitLengthSlow() const {
  return static_cast<unsigned>(boost::multiprecision::msb(boost::multiprecision::abs(big_->v))) + 1;
}

size_t BigInt::hashSlow() const { return boost::multiprecision::hash_value(big_->v); }

BigInt BigInt::addSlow(const BigInt& a, const BigInt& b) { return fromCpp(toCpp(a) + toCpp(b)); }
BigInt BigInt::subSlow(const BigInt& a, const BigInt& b) { return fromCpp(toCpp(a) - toCpp(b)); }
BigInt BigInt::mulSlow(const BigInt& a, const BigInt& b) { return fromCpp(toCpp(a) * toCpp(b)); }
BigInt BigInt::negSlow(const BigInt& a) { return fromCpp(-toCpp(a)); }

namespace {
// cpp_int's / and % truncate like C; shift to the Euclidean pair (see BigInt::div).
void euclidean(const cpp_int& a, const cpp_int& b, cpp_int& q, cpp_int& r) {
  boost::multiprecision::divide_qr(a, b, q, r);
  truncatedToEuclidean(b, q, r);
}
}  // namespace

BigInt BigInt::divSlow(const BigInt& a, const BigInt& b) {
  cpp_int q, r;
  euclidean(toCpp(a), toCpp(b), q, r);
  return fromCpp(std::move(q));
}

BigInt BigInt::modSlow(const BigInt& a, const BigInt& b) {
  cpp_int q, r;
  euclidean(toCpp(a), toCpp(b), q, r);
  return fromCpp(std::move(r));
}

bool BigInt::equalSlow(const BigInt& a, const BigInt& b) { return a.big_->v == b.big_->v; }

std::strong_ordering BigInt::compareSlow(const BigInt& a, const BigInt& b) {
  const int c = a.big_->v.compare(b.big_->v);
  return c < 0   ? std::strong_ordering::less
         : c > 0 ? std::strong_ordering::greater
                 : std::strong_ordering::equal;
}

}  // namespace tandem
