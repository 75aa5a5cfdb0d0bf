#include "mc/expr/int_functions.h"

#include <doctest/doctest.h>

#include <limits>
#include <set>
#include <string>
#include <vector>

using tandem::BigInt;
namespace intfn = tandem::intfn;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

BigInt big(const char* s) {
  std::optional<BigInt> v = BigInt::parse(s);
  REQUIRE(v.has_value());
  return *v;
}

}  // namespace

TEST_CASE("intfn: abs, min, max") {
  CHECK(intfn::abs(-5) == 5);
  CHECK(intfn::abs(5) == 5);
  CHECK(intfn::abs(kMin) == BigInt(kMax) + 1);
  CHECK(intfn::abs(big("-100000000000000000000")) == big("100000000000000000000"));
  CHECK(intfn::min(3, -4) == -4);
  CHECK(intfn::max(3, -4) == 3);
  CHECK(intfn::min(BigInt(kMin) - 1, kMin) == BigInt(kMin) - 1);
  CHECK(intfn::max(BigInt(kMax) + 1, kMax) == BigInt(kMax) + 1);
}

TEST_CASE("intfn: isqrt") {
  CHECK_FALSE(intfn::isqrt(-1).has_value());
  CHECK_FALSE(intfn::isqrt(big("-100000000000000000000")).has_value());
  CHECK(intfn::isqrt(0) == BigInt(0));
  CHECK(intfn::isqrt(1) == BigInt(1));
  CHECK(intfn::isqrt(15) == BigInt(3));
  CHECK(intfn::isqrt(16) == BigInt(4));
  CHECK(intfn::isqrt(17) == BigInt(4));
  CHECK(intfn::isqrt(kMax) == BigInt(3037000499));
  // Squares and their neighbours around the double-precision boundary.
  for (int64_t r : {int64_t{94906265}, int64_t{3037000499}, int64_t{1} << 26}) {
    CHECK(intfn::isqrt(BigInt(r) * r) == BigInt(r));
    CHECK(intfn::isqrt(BigInt(r) * r - 1) == BigInt(r - 1));
  }
  CHECK(intfn::isqrt(big("10000000000000000000000000000000000000000")) ==
        big("100000000000000000000"));
  CHECK(intfn::isqrt(big("9999999999999999999999999999999999999999")) ==
        big("99999999999999999999"));
  CHECK(intfn::isqrt(big("170141183460469231731687303715884105728")) ==  // 2^127
        big("13043817825332782212"));
}

TEST_CASE("intfn: ipow") {
  CHECK_FALSE(intfn::ipow(2, -1).has_value());
  CHECK_FALSE(intfn::ipow(0, -1).has_value());
  CHECK(intfn::ipow(0, 0) == BigInt(1));
  CHECK(intfn::ipow(big("123456789012345678901234567890"), 0) == BigInt(1));
  CHECK(intfn::ipow(0, 5) == BigInt(0));
  CHECK(intfn::ipow(2, 10) == BigInt(1024));
  CHECK(intfn::ipow(-2, 3) == BigInt(-8));
  CHECK(intfn::ipow(-3, 4) == BigInt(81));
  CHECK(intfn::ipow(2, 63) == BigInt(kMax) + 1);
  CHECK(intfn::ipow(-2, 63) == BigInt(kMin));
  CHECK(intfn::ipow(10, 40) == big("10000000000000000000000000000000000000000"));
  // |base| <= 1 is fine for any exponent, however large.
  const BigInt huge = big("1000000000000000000000000000001");
  CHECK(intfn::ipow(1, huge) == BigInt(1));
  CHECK(intfn::ipow(0, huge) == BigInt(0));
  CHECK(intfn::ipow(-1, huge) == BigInt(-1));
  CHECK(intfn::ipow(-1, huge + 1) == BigInt(1));
  CHECK_FALSE(intfn::ipow(2, huge).has_value());
  // The cap is exact: results of up to kMaxPowBits bits are allowed.
  const std::optional<BigInt> p = intfn::ipow(2, intfn::kMaxPowBits - 1);
  REQUIRE(p.has_value());
  CHECK(p->bitLength() == intfn::kMaxPowBits);
  CHECK_FALSE(intfn::ipow(2, intfn::kMaxPowBits).has_value());
  CHECK_FALSE(intfn::ipow(-2, intfn::kMaxPowBits).has_value());
  CHECK(intfn::ipow(3, 63092).has_value());        // 99999 bits
  CHECK_FALSE(intfn::ipow(3, 63093).has_value());  // 100001 bits
  CHECK_FALSE(intfn::ipow(*p * 2, 1).has_value());
}

TEST_CASE("intfn: gcd") {
  CHECK(intfn::gcd(0, 0) == BigInt(0));
  CHECK(intfn::gcd(0, -7) == BigInt(7));
  CHECK(intfn::gcd(12, 18) == BigInt(6));
  CHECK(intfn::gcd(-12, 18) == BigInt(6));
  CHECK(intfn::gcd(-12, -18) == BigInt(6));
  CHECK(intfn::gcd(17, 5) == BigInt(1));
  CHECK(intfn::gcd(kMin, 0) == BigInt(kMax) + 1);
  CHECK(intfn::gcd(kMin, kMin) == BigInt(kMax) + 1);
  const BigInt two64 = big("18446744073709551616");
  CHECK(intfn::gcd(two64, two64 * 6 * 64) == two64);
  CHECK(intfn::gcd(big("12345678901234567890123") * 7, 77) == BigInt(7));
}

TEST_CASE("intfn: hash1 and hash2 follow their documented definitions") {
  // Golden values from an independent implementation of the definitions in int_functions.h.
  struct Row {
    BigInt x;
    int64_t h1, h2;
  };
  const std::vector<Row> rows = {
      {0, 1896895516, 133788491},
      {1, 1216681718, 1513897488},
      {-1, 1919727803, 1617031407},
      {42, 1592498451, 1961078533},
      {kMax, 355724202, 1263119565},
      {kMin, 604987473, 1571959618},
      {BigInt(kMax) + 1, 2091239393, 1290479994},
      {BigInt(kMin) - 1, 769619928, 1468559418},
      {big("10000000000000000000000000000000000000000"), 1140271847, 810878688},
  };
  for (const Row& r : rows) {
    CAPTURE(r.x);
    CHECK(intfn::hash1(r.x) == r.h1);
    CHECK(intfn::hash2(r.x) == r.h2);
  }
}

TEST_CASE("intfn: hashes are in range and well mixed") {
  std::set<int64_t> seen1, seen2;
  int equal = 0;
  for (int64_t i = -500; i < 500; ++i) {
    const int64_t a = intfn::hash1(i), b = intfn::hash2(i);
    CHECK(a >= 0);
    CHECK(a < (int64_t{1} << 31));
    CHECK(b >= 0);
    CHECK(b < (int64_t{1} << 31));
    seen1.insert(a);
    seen2.insert(b);
    equal += a == b;
  }
  CHECK(seen1.size() > 990);
  CHECK(seen2.size() > 990);
  CHECK(equal < 5);
  // Consecutive inputs should differ in about half of the 31 bits.
  int flipped = 0;
  for (int64_t i = 0; i < 100; ++i)
    flipped += __builtin_popcountll(static_cast<uint64_t>(intfn::hash1(i) ^ intfn::hash1(i + 1)));
  CHECK(flipped > 100 * 12);
  CHECK(flipped < 100 * 19);
  // Equal values hash equally whichever way they were computed.
  CHECK(intfn::hash1((BigInt(kMax) + 10) - 11) == intfn::hash1(kMax - 1));
}

TEST_CASE("intfn: noOverflowAdd and noOverflowMul") {
  CHECK(intfn::noOverflowAdd(kMax - 1, 1, 64));
  CHECK_FALSE(intfn::noOverflowAdd(kMax, 1, 64));
  CHECK(intfn::noOverflowAdd(kMin, 0, 64));
  CHECK_FALSE(intfn::noOverflowAdd(kMin, -1, 64));
  CHECK(intfn::noOverflowAdd(BigInt(kMax) + 5, -10, 64));
  CHECK(intfn::noOverflowAdd(2147483646, 1, 32));
  CHECK_FALSE(intfn::noOverflowAdd(2147483647, 1, 32));
  CHECK(intfn::noOverflowAdd(-2147483647, -1, 32));
  CHECK_FALSE(intfn::noOverflowAdd(-2147483647, -2, 32));

  CHECK(intfn::noOverflowMul(65536, 32767, 32));
  CHECK_FALSE(intfn::noOverflowMul(65536, 32768, 32));
  CHECK(intfn::noOverflowMul(-65536, 32768, 32));
  CHECK(intfn::noOverflowMul(kMin, 1, 64));
  CHECK_FALSE(intfn::noOverflowMul(kMin, -1, 64));
  CHECK(intfn::noOverflowMul(big("100000000000000000000000"), 0, 32));
  CHECK_FALSE(intfn::noOverflowMul(big("100000000000000000000000"), 1, 64));
  CHECK_FALSE(intfn::noOverflowMul(int64_t{1} << 32, int64_t{1} << 31, 64));
  CHECK(intfn::noOverflowMul(int64_t{1} << 32, -(int64_t{1} << 31), 64));
}

TEST_CASE("builtinIntFunctions table") {
  const std::vector<std::string> names = {"abs",  "min", "max",   "isqrt",
                                          "ipow", "gcd", "hash1", "hash2"};
  const auto table = tandem::builtinIntFunctions();
  REQUIRE(table.size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(table[i].name == names[i]);
    CHECK(tandem::findIntFunction(names[i]) == &table[i]);
  }
  CHECK(tandem::findIntFunction("sqrt") == nullptr);

  auto call = [](std::string_view name, std::vector<BigInt> args) {
    const tandem::IntFunction* f = tandem::findIntFunction(name);
    REQUIRE(f != nullptr);
    REQUIRE(f->arity == args.size());
    return f->fn(args);
  };
  CHECK(call("abs", {-3}) == BigInt(3));
  CHECK(call("min", {2, 9}) == BigInt(2));
  CHECK(call("max", {2, 9}) == BigInt(9));
  CHECK(call("isqrt", {99}) == BigInt(9));
  CHECK_FALSE(call("isqrt", {-4}).has_value());
  CHECK(call("ipow", {3, 4}) == BigInt(81));
  CHECK_FALSE(call("ipow", {3, -4}).has_value());
  CHECK(call("gcd", {-4, 6}) == BigInt(2));
  CHECK(call("hash1", {42}) == BigInt(1592498451));
  CHECK(call("hash2", {42}) == BigInt(1961078533));
}
