#include "mc/expr/bigint.h"

#include <doctest/doctest.h>

#include <limits>
#include <sstream>
#include <unordered_set>

using tandem::BigInt;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

BigInt big(const char* s) {
  std::optional<BigInt> v = BigInt::parse(s);
  REQUIRE(v.has_value());
  return *v;
}

}  // namespace

TEST_CASE("BigInt: small values stay on the fast path") {
  BigInt a = 40, b = 2;
  CHECK((a + b).isSmall());
  CHECK((a + b).small() == 42);
  CHECK((a - b).small() == 38);
  CHECK((a * b).small() == 80);
  CHECK((-a).small() == -40);
  CHECK(BigInt().small() == 0);
  CHECK(BigInt(kMax).isSmall());
  CHECK(BigInt(kMin).isSmall());
  CHECK(BigInt(kMax).toInt64() == kMax);
  CHECK(BigInt(kMin).toInt64() == kMin);
}

TEST_CASE("BigInt: promotion at the int64 edges") {
  const BigInt maxPlus1 = BigInt(kMax) + 1;
  CHECK_FALSE(maxPlus1.isSmall());
  CHECK(maxPlus1.toString() == "9223372036854775808");
  CHECK_FALSE(maxPlus1.toInt64().has_value());

  const BigInt minMinus1 = BigInt(kMin) - 1;
  CHECK_FALSE(minMinus1.isSmall());
  CHECK(minMinus1.toString() == "-9223372036854775809");

  const BigInt negMin = BigInt(kMin) * -1;
  CHECK_FALSE(negMin.isSmall());
  CHECK(negMin == maxPlus1);
  CHECK(-BigInt(kMin) == maxPlus1);
  CHECK((BigInt(kMin) - BigInt(kMin)).small() == 0);
  CHECK(BigInt(kMax) * 2 == big("18446744073709551614"));
  CHECK(BigInt(kMin) + BigInt(kMin) == big("-18446744073709551616"));

  // Unsigned sources above INT64_MAX are not wrapped negative.
  CHECK(BigInt(std::numeric_limits<uint64_t>::max()) == big("18446744073709551615"));
  CHECK(BigInt(uint64_t{7}).small() == 7);
}

TEST_CASE("BigInt: big * big and results that shrink back to small") {
  const BigInt x = BigInt(kMax) + 1;  // 2^63
  const BigInt sq = x * x;
  CHECK(sq.toString() == "85070591730234615865843651857942052864");  // 2^126
  CHECK((sq * sq).toString() ==
        "7237005577332262213973186563042994240829374041602535252466099000494570602496");  // 2^252
  CHECK(sq * -1 == -sq);
  CHECK((-sq) * (-sq) == sq * sq);

  const BigInt back = x - 1;
  CHECK(back.isSmall());
  CHECK(back == BigInt(kMax));
  CHECK(back.hash() == BigInt(kMax).hash());
  CHECK((sq - sq).isSmall());
  CHECK(sq - sq == 0);
  CHECK(BigInt::div(sq, x) == x);
  const BigInt y = -(BigInt(kMin) - 1);  // 2^63 + 1, big
  CHECK((y - 2).isSmall());
  CHECK(y - 2 == BigInt(kMax));
  CHECK(-x == BigInt(kMin));
  CHECK((-x).isSmall());
}

TEST_CASE("BigInt: copies are deep, moves leave zero") {
  BigInt a = big("123456789012345678901234567890");
  BigInt b = a;
  b += 1;
  CHECK(a.toString() == "123456789012345678901234567890");
  CHECK(b.toString() == "123456789012345678901234567891");
  BigInt c = std::move(b);
  CHECK(c.toString() == "123456789012345678901234567891");
  CHECK(b == 0);  // NOLINT(bugprone-use-after-move): moved-from is specified as 0
  a = c;          // big into big reuses the allocation
  CHECK(a == c);
  a = 5;  // small into big
  CHECK(a.isSmall());
  CHECK(a == 5);
  a = c;  // big into small
  CHECK(a == c);
  a = a;  // self-assignment
  CHECK(a == c);
  a = std::move(c);
  CHECK(a.toString() == "123456789012345678901234567891");
}

TEST_CASE("BigInt: comparisons across representations") {
  const BigInt pos = BigInt(kMax) + 1, neg = BigInt(kMin) - 1;
  CHECK(pos > BigInt(kMax));
  CHECK(neg < BigInt(kMin));
  CHECK(BigInt(kMin) > neg);
  CHECK(neg < pos);
  CHECK(pos * 2 > pos);
  CHECK(neg * 2 < neg);
  CHECK(pos != BigInt(kMax));
  CHECK(pos == -(-pos));
  CHECK(BigInt(3) < 4);
  CHECK(BigInt(-3) >= -3);
  CHECK((BigInt(1) <=> BigInt(2)) == std::strong_ordering::less);
  CHECK(pos.sign() == 1);
  CHECK(neg.sign() == -1);
  CHECK(BigInt(0).sign() == 0);
  CHECK(BigInt(-9).sign() == -1);
  CHECK(neg.abs() == -neg);
  CHECK(BigInt(kMin).abs() == pos);
  CHECK(BigInt(-5).abs() == 5);
}

TEST_CASE("BigInt: hash agrees with equality") {
  const BigInt a = big("99999999999999999999999"), b = big("99999999999999999999999");
  CHECK(a.hash() == b.hash());
  CHECK(std::hash<BigInt>()(a) == std::hash<BigInt>()(b));
  CHECK((a - a + 7).hash() == BigInt(7).hash());
  std::unordered_set<BigInt> set;
  for (int i = -100; i < 100; ++i) set.insert(BigInt(i));
  for (int i = -100; i < 100; ++i) set.insert(BigInt(kMax) * 3 + i);
  CHECK(set.size() == 400);
  CHECK(set.count(BigInt(kMax) * 3 - 100) == 1);
  CHECK(set.count(BigInt(kMax) * 3 + 100) == 0);
  CHECK(set.count(BigInt(-100)) == 1);
}

TEST_CASE("BigInt: distinct values rarely share a hash") {
  std::unordered_set<size_t> smallHashes, bigHashes;
  for (int i = 0; i < 200; ++i) {
    smallHashes.insert(BigInt(i).hash());
    bigHashes.insert((BigInt(kMax) * 5 + i).hash());
    bigHashes.insert((BigInt(kMin) * 5 - i).hash());
  }
  CHECK(smallHashes.size() > 195);
  CHECK(bigHashes.size() > 390);
}

TEST_CASE("BigInt: parse and toString") {
  const char* lit = "1234567890123456789012345678901234567890";  // 40 digits
  const BigInt v = big(lit);
  CHECK_FALSE(v.isSmall());
  CHECK(v.toString() == lit);
  CHECK(big("-1234567890123456789012345678901234567890").toString() ==
        "-1234567890123456789012345678901234567890");
  CHECK(big("-1234567890123456789012345678901234567890") == -v);
  CHECK(big("0") == 0);
  CHECK(big("-0") == 0);
  CHECK(big("007").small() == 7);
  // A leading zero must not switch the big path to octal.
  CHECK(big("0001234567890123456789012345678901234567890") == v);
  CHECK(big("9223372036854775807").small() == kMax);
  CHECK(big("-9223372036854775808").small() == kMin);
  CHECK(big("9223372036854775808") == BigInt(kMax) + 1);
  CHECK(big("-9223372036854775809") == BigInt(kMin) - 1);
  CHECK(BigInt(kMin).toString() == "-9223372036854775808");
  for (const char* bad : {"", "-", "+5", "12a", " 1", "1 ", "--1", "0x10", "1-"})
    CHECK_MESSAGE(!BigInt::parse(bad).has_value(), "accepted: '" << bad << "'");

  std::ostringstream os;
  os << v << ' ' << BigInt(-3);
  CHECK(os.str() == "1234567890123456789012345678901234567890 -3");
}

TEST_CASE("BigInt: Euclidean div and mod") {
  struct Row {
    int64_t a, b, q, r;
  };
  for (const Row& t :
       {Row{7, 2, 3, 1}, Row{-7, 2, -4, 1}, Row{7, -2, -3, 1}, Row{-7, -2, 4, 1}, Row{6, 3, 2, 0},
        Row{-6, 3, -2, 0}, Row{6, -3, -2, 0}, Row{0, -5, 0, 0}, Row{kMin, 1, kMin, 0},
        Row{kMin, kMax, -2, kMax - 1}, Row{-1, kMin, 1, kMax}}) {
    CAPTURE(t.a);
    CAPTURE(t.b);
    CHECK(BigInt::div(t.a, t.b) == t.q);
    CHECK(BigInt::mod(t.a, t.b) == t.r);
  }
  // INT64_MIN div -1 leaves int64.
  CHECK(BigInt::div(kMin, -1) == BigInt(kMax) + 1);
  CHECK(BigInt::mod(kMin, -1) == 0);

  // Big operands: the invariant a = b*q + r, 0 <= r < |b| for every sign combination.
  const BigInt m = big("123456789012345678901234567890"), d = big("98765432109876543210");
  for (const BigInt& a : {m, -m, BigInt(-7), BigInt(kMin)})
    for (const BigInt& b : {d, -d, BigInt(3), BigInt(-3)}) {
      const BigInt q = BigInt::div(a, b), r = BigInt::mod(a, b);
      CHECK(b * q + r == a);
      CHECK(r >= 0);
      CHECK(r < b.abs());
    }
  CHECK(BigInt::div(-m, d).toString() == "-1249999989");
  CHECK(BigInt::mod(-m, d).toString() == "38580246902623456800");
}

TEST_CASE("BigInt: fitsIn and wrapTo") {
  const BigInt two31 = BigInt(int64_t{1} << 31);
  CHECK(two31.wrapTo(32) == -(int64_t{1} << 31));
  CHECK((two31 * 2 + 5).wrapTo(32) == 5);  // 2^32 + 5
  CHECK(BigInt(-1).wrapTo(32) == -1);
  CHECK(BigInt(0xFFFFFFFF).wrapTo(32) == -1);
  CHECK((BigInt(kMax) + 1).wrapTo(64) == kMin);
  CHECK((BigInt(kMin) - 1).wrapTo(64) == kMax);
  CHECK(big("-18446744073709551621").wrapTo(64) == -5);  // -(2^64 + 5)
  CHECK(big("18446744073709551621").wrapTo(32) == 5);
  CHECK(BigInt(kMax).wrapTo(64) == kMax);
  CHECK(BigInt(3).wrapTo(1) == -1);

  CHECK(BigInt((int64_t{1} << 31) - 1).fitsIn(32));
  CHECK_FALSE(two31.fitsIn(32));
  CHECK(BigInt(-(int64_t{1} << 31)).fitsIn(32));
  CHECK_FALSE(BigInt(-(int64_t{1} << 31) - 1).fitsIn(32));
  CHECK(BigInt(kMin).fitsIn(64));
  CHECK_FALSE((BigInt(kMax) + 1).fitsIn(64));
  CHECK(BigInt(-1).fitsIn(1));
  CHECK_FALSE(BigInt(1).fitsIn(1));
}

TEST_CASE("BigInt: bitLength") {
  CHECK(BigInt(0).bitLength() == 0);
  CHECK(BigInt(1).bitLength() == 1);
  CHECK(BigInt(-255).bitLength() == 8);
  CHECK(BigInt(kMin).bitLength() == 64);
  CHECK((BigInt(kMax) + 1).bitLength() == 64);
  CHECK((BigInt(kMax) * 4).bitLength() == 65);
}

TEST_CASE("truncDiv and truncRem") {
  CHECK(tandem::truncDiv(-7, 2) == -3);
  CHECK(tandem::truncRem(-7, 2) == -1);
  CHECK(tandem::truncDiv(7, -2) == -3);
  CHECK(tandem::truncRem(7, -2) == 1);
  CHECK(tandem::truncDiv(kMin, -1) == kMin);
  CHECK(tandem::truncRem(kMin, -1) == 0);
  CHECK(tandem::truncDiv(5, -1) == -5);
  CHECK(tandem::truncDiv(kMin, 2) == kMin / 2);
}
