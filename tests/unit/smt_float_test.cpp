// f64 in the SMT layer: concrete evaluation (mc/expr/float64, what `run` and `check` compute) and
// the Float64 translation of both back ends agree, value by value and bit by bit, on random
// expressions over special values (NaN, infinities, signed zeros, subnormals) and values whose
// sums and products round.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mc/expr/float64.h"
#include "smt_test_support.h"

namespace {

using namespace smt_test;

const std::vector<double> kSpecial = {0.0,
                                      -0.0,
                                      1.0,
                                      -1.5,
                                      0.1,
                                      0.2,
                                      0.3,
                                      1.0 / 3.0,
                                      3.0,
                                      9007199254740993.0,  // 2^53 + 1 rounds to 2^53
                                      1e308,
                                      -1e308,
                                      5e-324,                   // least subnormal
                                      2.2250738585072014e-308,  // least normal
                                      1e-310,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN()};

// x is exactly v: IEEE == for numbers, the sign of 1/x for zeros, x != x for NaN.
ExprRef identical(Ctx& c, ExprRef x, double v) {
  if (std::isnan(v)) return c.ne(x, x);
  ExprRef eq = c.eq(x, c.em.floatConst(v));
  if (v != 0.0) return eq;
  ExprRef reciprocal = c.div(c.em.floatConst(1.0), x);
  ExprRef zero = c.em.floatConst(0.0);
  return c.land(eq, std::signbit(v) ? c.lt(reciprocal, zero) : c.gt(reciprocal, zero));
}

// A random f64 expression over the leaves, with its concrete value.
class Generator {
 public:
  Generator(Ctx& c, uint32_t seed) : c_(c), rng_(seed) {
    for (const char* n : {"x", "y", "z"}) leaves_.push_back(c.sym(n, c.types.f64Type()));
  }

  // Leaves read as literals of their values (the back ends' own IEEE arithmetic folds them) or as
  // symbols pinned to them (their bit-blasting decides).
  bool literals = false;

  void drawValues() {
    values_.clear();
    for (size_t i = 0; i < leaves_.size(); ++i) {
      double v = draw();
      // A zero symbol is pinned with a quotient (its sign): seconds of bit-blasting. Signed zeros
      // meet literals only.
      while (!literals && v == 0.0) v = draw();
      values_.push_back(v);
    }
  }
  const std::vector<ExprRef>& leaves() const { return leaves_; }
  const std::vector<double>& values() const { return values_; }

  std::pair<ExprRef, double> term(int depth) {
    if (depth == 0 || pick(5) == 0) {
      if (pick(3) == 0) {
        const double v = draw();
        return {c_.em.floatConst(v), v};
      }
      const size_t i = pick(static_cast<unsigned>(leaves_.size()));
      return {literals ? c_.em.floatConst(values_[i]) : leaves_[i], values_[i]};
    }
    using f64::Arith;
    // Over symbols, no quotient or conversion: bit-blasting them takes seconds (they meet literals
    // here, and symbols in the directed cases below).
    const unsigned choice = literals ? pick(7) : std::array<unsigned, 5>{0, 1, 2, 4, 5}[pick(5)];
    switch (choice) {
      case 0:
      case 1:
      case 2:
      case 3: {
        const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div};
        const Arith ariths[] = {Arith::Add, Arith::Sub, Arith::Mul, Arith::Div};
        const unsigned k = literals ? pick(4) : pick(3);
        auto [a, va] = term(depth - 1);
        auto [b, vb] = term(depth - 1);
        return {c_.bin(ops[k], a, b), f64::arith(ariths[k], va, vb)};
      }
      case 4: {
        auto [a, va] = term(depth - 1);
        return {c_.unary(Op::Neg, a), -va};
      }
      case 5: {  // ite on a comparison
        auto [p, vp] = formula(depth - 1);
        auto [a, va] = term(depth - 1);
        auto [b, vb] = term(depth - 1);
        return {c_.ite(p, a, b), vp ? va : vb};
      }
      default: {  // f64(i64(t)) of a value in range, or f64 of an i32 constant
        auto [a, va] = term(depth - 1);
        auto n = f64::toInteger(va);
        if (!n || std::fabs(va) >= 9.2e18) {
          const int32_t k = static_cast<int32_t>(rng_());
          return {c_.cast(c_.num(k, c_.i32T()), c_.types.f64Type()),
                  f64::fromInteger(BigInt(int64_t{k}))};
        }
        ExprRef asI64 = c_.cast(a, c_.i64T());
        return {c_.cast(asI64, c_.types.f64Type()), f64::fromInteger(*n)};
      }
    }
  }

  std::pair<ExprRef, bool> formula(int depth) {
    using f64::Compare;
    const Op ops[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    const Compare cmps[] = {Compare::Eq, Compare::Ne, Compare::Lt,
                            Compare::Le, Compare::Gt, Compare::Ge};
    const unsigned k = pick(6);
    auto [a, va] = term(depth);
    auto [b, vb] = term(depth);
    return {c_.bin(ops[k], a, b), f64::compare(cmps[k], va, vb)};
  }

 private:
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }
  double draw() {
    switch (pick(3)) {
      case 0:
        return kSpecial[pick(static_cast<unsigned>(kSpecial.size()))];
      case 1:  // any bit pattern: subnormals, huge exponents, NaN payloads
        return f64::fromBits(static_cast<uint64_t>(rng_()) << 32 | rng_());
      default:
        return static_cast<double>(static_cast<int>(pick(2001)) - 1000) / 8.0;
    }
  }

  Ctx& c_;
  std::mt19937 rng_;
  std::vector<ExprRef> leaves_;
  std::vector<double> values_;
};

// Rounds of random expressions: `literals` as in Generator, `rounds` of them.
void agreementRounds(bool literals, int rounds, uint32_t seed) {
  Ctx c;
  Generator gen(c, seed);
  int nan = 0, zero = 0, inf = 0, numbers = 0;
  gen.literals = literals;
  // Bit-blasting a product or quotient of symbols takes seconds: symbols meet one operator.
  const int depth = literals ? 3 : 1;
  for (int i = 0; i < rounds; ++i) {
    CAPTURE(i);
    gen.drawValues();
    std::vector<ExprRef> pins;
    for (size_t k = 0; k < gen.leaves().size() && !gen.literals; ++k)
      pins.push_back(identical(c, gen.leaves()[k], gen.values()[k]));
    auto [t, expected] = gen.term(depth);
    auto [p, truth] = gen.formula(depth - 1);
    const std::string value = f64::format(expected);
    CAPTURE(value);
    nan += std::isnan(expected);
    inf += std::isinf(expected);
    zero += expected == 0.0;
    numbers += std::isfinite(expected) && expected != 0.0;
    for (Backend b : allBackends()) {
      const std::string backend = backendName(b);
      CAPTURE(backend);
      auto s = c.backend(b);
      s->setTimeout(20000);
      for (ExprRef pin : pins) s->add(pin);
      // The term is exactly the concrete value: its being anything else is unsatisfiable.
      s->push();
      s->add(c.lnot(identical(c, t, expected)));
      CHECK(s->check().status == SatStatus::Unsat);
      s->pop();
      // A comparison has the concrete truth value.
      s->push();
      s->add(truth ? c.lnot(p) : p);
      CHECK(s->check().status == SatStatus::Unsat);
      s->pop();
      // The model holds the pinned values, bit for bit up to NaN payloads, and satisfies them.
      REQUIRE(s->check().isSat());
      checkModelSatisfies(*s, pins);
      for (size_t k = 0; k < pins.size(); ++k) {
        const double want = gen.values()[k];
        const double got =
            f64::fromBits(static_cast<uint64_t>(s->model().evalInt(gen.leaves()[k])->wrapTo(64)));
        if (std::isnan(want))
          CHECK(std::isnan(got));
        else
          CHECK(f64::toBits(got) == f64::toBits(want));
      }
    }
  }
  // The generator must reach the special results to mean anything.
  if (!literals) return;
  CHECK(nan > 0);
  CHECK(inf > 0);
  CHECK(zero > 0);
  CHECK(numbers > 10);
}

}  // namespace

TEST_CASE("smt f64: concrete and symbolic evaluation agree on random expressions of literals") {
  agreementRounds(true, 120, 20261128);
}

TEST_CASE("smt f64: concrete and symbolic evaluation agree on one operator over symbols") {
  agreementRounds(false, 24, 20261129);
}

TEST_CASE("smt f64: the floating-point theory, not the reals") {
  Ctx c;
  ExprRef x = c.sym("x", c.types.f64Type());
  auto f = [&](double d) { return c.em.floatConst(d); };
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    auto s = c.backend(b);
    // 0.1 + 0.2 == 0.3 is false in binary64 (true over the reals).
    s->push();
    s->add(c.eq(c.add(f(0.1), f(0.2)), f(0.3)));
    CHECK(s->check().status == SatStatus::Unsat);
    s->pop();
    // x + 0.1 == 0.3 && x != 0.2: x = 0.19999999999999998 (no solution over the reals).
    s->push();
    s->add(c.eq(c.add(x, f(0.1)), f(0.3)));
    s->add(c.ne(x, f(0.2)));
    REQUIRE(s->check().isSat());
    const double got = f64::fromBits(static_cast<uint64_t>(s->model().evalInt(x)->wrapTo(64)));
    CHECK(f64::arith(f64::Arith::Add, got, 0.1) == 0.3);
    CHECK(got != 0.2);
    s->pop();
    // int(x) truncates toward zero: int(x) == -3 with -3 < x < -2 has no solution, -2.5 gives -2.
    // Z3 may answer unknown where an int meets an f64 (never a wrong answer); cvc5 decides.
    const auto unsatOrUnknown = b == Backend::Z3
                                    ? std::vector<SatStatus>{SatStatus::Unsat, SatStatus::Unknown}
                                    : std::vector<SatStatus>{SatStatus::Unsat};
    auto decided = [&](SatStatus st) {
      return std::find(unsatOrUnknown.begin(), unsatOrUnknown.end(), st) != unsatOrUnknown.end();
    };
    s->push();
    s->add(c.eq(c.cast(x, c.intT()), c.num(-3)));
    s->add(c.lt(x, f(-2.0)));
    s->add(c.gt(x, f(-3.0)));
    CHECK(decided(s->check().status));
    s->pop();
    s->push();
    s->add(c.eq(x, f(-2.5)));
    s->add(c.ne(c.cast(x, c.intT()), c.num(-2)));
    CHECK(decided(s->check().status));
    s->pop();
    // f64(n) of an int rounds to nearest even: 2^53 + 1 -> 2^53.
    ExprRef n = c.sym("n", c.intT());
    s->push();
    s->add(c.eq(n, c.big(BigInt(int64_t{9007199254740993}))));
    s->add(c.ne(c.cast(n, c.types.f64Type()), f(9007199254740992.0)));
    CHECK(decided(s->check().status));
    s->pop();
    // i32(x) wraps after truncating: i32(2^32 + 5.5) == 5.
    s->push();
    s->add(c.eq(x, f(4294967301.5)));
    s->add(c.ne(c.cast(x, c.i32T()), c.num(5, c.i32T())));
    CHECK(s->check().status == SatStatus::Unsat);
    s->pop();
  }
}
