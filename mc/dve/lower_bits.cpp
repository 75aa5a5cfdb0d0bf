// Value ranges of lowered expressions, constant folding with C semantics, and the exact
// arithmetic encodings of DVE's bitwise operators (the IR has none).
#include <algorithm>

#include "mc/dve/lower_expr.h"

namespace tandem::dve {

namespace {

BigInt pow2(unsigned n) { return BigInt(int64_t{1} << n); }

Range bounded(BigInt lo, BigInt hi) { return Range{true, std::move(lo), std::move(hi)}; }

Range hull(const Range& a, const Range& b) {
  if (!a.bounded || !b.bounded) return {};
  return bounded(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

constexpr const char kBitwiseHelp[] =
    " needs operands of bounded range (62 bits at most): the IR has no bitwise operations, so "
    "they are encoded bit by bit";

// The number of bits of a non-negative range's values (at least 1).
unsigned unsignedWidth(const Range& r) { return std::max(1u, r.hi.bitLength()); }

// The two's complement width holding every value of `r`, or 0 beyond 62 bits.
unsigned signedWidth(const Range& r) {
  for (unsigned w = 1; w <= 62; ++w) {
    BigInt half = pow2(w - 1);
    if (r.lo >= -half && r.hi < half) return w;
  }
  return 0;
}

}  // namespace

unsigned maskBits(const BigInt& v) {
  if (v.sign() <= 0) return 0;
  unsigned n = v.bitLength();
  if (n > 62) return 0;
  return v == pow2(n) - BigInt(1) ? n : 0;
}

std::optional<BigInt> foldBinary(BinOp op, const BigInt& a, const BigInt& b) {
  switch (op) {
    case BinOp::Add:
      return a + b;
    case BinOp::Sub:
      return a - b;
    case BinOp::Mul:
      return a * b;
    case BinOp::Div:
    case BinOp::Mod: {
      if (b.sign() == 0) return std::nullopt;
      BigInt q = BigInt::div(a.abs(), b.abs());  // truncation toward zero
      if (a.sign() * b.sign() < 0) q = -q;
      return op == BinOp::Div ? q : a - b * q;
    }
    case BinOp::Shl:
    case BinOp::Shr: {
      auto k = b.toInt64();
      if (!k || *k < 0 || *k > 62) return std::nullopt;
      BigInt p = pow2(static_cast<unsigned>(*k));
      return op == BinOp::Shl ? a * p : BigInt::div(a, p);  // div by p > 0 is floor: `>>`
    }
    case BinOp::BitOr:
    case BinOp::BitAnd:
    case BinOp::BitXor: {
      auto x = a.toInt64(), y = b.toInt64();
      if (!x || !y) return std::nullopt;
      if (op == BinOp::BitOr) return BigInt(*x | *y);
      if (op == BinOp::BitAnd) return BigInt(*x & *y);
      return BigInt(*x ^ *y);
    }
    default:
      return std::nullopt;
  }
}

// ---------------------------------------------------------------------------------------------
// Ranges.

Range ExprLowerer::rangeOf(ExprRef e) {
  auto it = ranges_.find(e);
  if (it != ranges_.end()) return it->second;
  Range r = computeRange(e);
  ranges_.emplace(e, r);
  return r;
}

Range ExprLowerer::computeRange(ExprRef e) {
  if (e->type == p_.types->boolType()) return bounded(BigInt(0), BigInt(1));
  auto varRange = [&](uint64_t id) -> Range {
    if (id >= syms_.isByte.size()) return {};
    return syms_.isByte[id] ? bounded(BigInt(0), BigInt(255))
                            : bounded(BigInt(-32768), BigInt(32767));
  };
  switch (e->op) {
    case Op::IntConst:
      return bounded(e->value, e->value);
    case Op::Var:
      return varRange(e->payload);
    case Op::ProcLocal:
      return varRange(static_cast<uint64_t>(e->value.toInt64().value_or(-1)));
    case Op::Select: {
      ExprRef arr = e->kid(0);
      if (arr->op == Op::Var) return varRange(arr->payload);
      if (arr->op == Op::ProcLocal)
        return varRange(static_cast<uint64_t>(arr->value.toInt64().value_or(-1)));
      return {};
    }
    case Op::Neg: {
      Range a = rangeOf(e->kid(0));
      return a.bounded ? bounded(-a.hi, -a.lo) : Range{};
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      Range a = rangeOf(e->kid(0)), b = rangeOf(e->kid(1));
      if (!a.bounded || !b.bounded) return {};
      if (e->op == Op::Add) return bounded(a.lo + b.lo, a.hi + b.hi);
      if (e->op == Op::Sub) return bounded(a.lo - b.hi, a.hi - b.lo);
      BigInt p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      return bounded(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
    }
    case Op::Mod: {  // Euclidean: 0 <= r < |c|
      auto c = constOf(e->kid(1));
      if (!c || c->sign() == 0) return {};
      return bounded(BigInt(0), c->abs() - BigInt(1));
    }
    case Op::Div: {  // floor division by a positive constant is monotone
      auto c = constOf(e->kid(1));
      Range a = rangeOf(e->kid(0));
      if (!c || c->sign() <= 0 || !a.bounded) return {};
      return bounded(BigInt::div(a.lo, *c), BigInt::div(a.hi, *c));
    }
    case Op::Ite:
      return hull(rangeOf(e->kid(1)), rangeOf(e->kid(2)));
    case Op::Min:
    case Op::Max: {
      Range a = rangeOf(e->kid(0)), b = rangeOf(e->kid(1));
      if (!a.bounded || !b.bounded) return {};
      if (e->op == Op::Min) return bounded(std::min(a.lo, b.lo), std::min(a.hi, b.hi));
      return bounded(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
    }
    default:
      return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Bitwise operators. With x = q * 2^n + r (0 <= r < 2^n, the IR's Euclidean mod), the low n bits
// of x are r in two's complement, so for K = 2^n - 1: x | K = x - r + K, x & K = r and
// x ^ K = x - 2r + K, on every integer.

ExprRef ExprLowerer::orMask(ExprRef x, unsigned n) {
  BigInt k = pow2(n) - BigInt(1);
  if (rangeOf(x).within(0, *k.toInt64())) return em_.intConst(k);
  ExprRef r = mk(Op::Mod, x, em_.intConst(pow2(n)));
  return mk(Op::Add, mk(Op::Sub, x, r), em_.intConst(k));
}

ExprRef ExprLowerer::andMask(ExprRef x, unsigned n) {
  BigInt k = pow2(n) - BigInt(1);
  if (rangeOf(x).within(0, *k.toInt64())) return x;
  return mk(Op::Mod, x, em_.intConst(pow2(n)));
}

ExprRef ExprLowerer::xorMask(ExprRef x, unsigned n) {
  BigInt k = pow2(n) - BigInt(1);
  if (rangeOf(x).within(0, *k.toInt64())) return mk(Op::Sub, em_.intConst(k), x);
  ExprRef r = mk(Op::Mod, x, em_.intConst(pow2(n)));
  ExprRef twoR = mk(Op::Mul, em_.intConst(BigInt(2)), r);
  return mk(Op::Add, mk(Op::Sub, x, twoR), em_.intConst(k));
}

std::optional<std::pair<ExprRef, unsigned>> ExprLowerer::maskMultiple(ExprRef e) {
  if (e->op != Op::Mul) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    ExprRef k = e->kid(i), y = e->kid(1 - i);
    if (k->op != Op::IntConst) continue;
    unsigned n = maskBits(k->value);
    if (n && in01(y)) return std::make_pair(asBool(y), n);
  }
  return std::nullopt;
}

ExprRef ExprLowerer::bitwise(const Expr& e, ExprRef a, ExprRef b) {
  auto ca = constOf(a), cb = constOf(b);
  if (ca && cb)
    if (auto v = foldBinary(e.binop, *ca, *cb)) return em_.intConst(*v);
  if (ca && !cb) {  // `|`, `&`, `^` commute: keep a constant on the right
    std::swap(a, b);
    std::swap(ca, cb);
  }
  BinOp op = e.binop;
  ExprRef zero = em_.intConst(BigInt(0));
  auto masked = [&](ExprRef x, unsigned n) {
    return op == BinOp::BitOr ? orMask(x, n) : op == BinOp::BitAnd ? andMask(x, n) : xorMask(x, n);
  };
  if (cb) {
    if (cb->sign() == 0) return op == BinOp::BitAnd ? zero : a;
    if (*cb == BigInt(-1)) {  // all ones
      if (op == BinOp::BitOr) return em_.intConst(BigInt(-1));
      if (op == BinOp::BitAnd) return a;
      return mk(Op::Sub, em_.mk(Op::Neg, p_.types->intType(), {a}), em_.intConst(BigInt(1)));
    }
    if (unsigned n = maskBits(*cb)) return masked(a, n);
  }
  if (in01(a) && in01(b)) {
    if (op == BinOp::BitOr) return mk(Op::Max, a, b);
    if (op == BinOp::BitAnd) return mk(Op::Min, a, b);
    return asInt(em_.mk(Op::Ne, p_.types->boolType(), {a, b}));
  }
  for (int side = 0; side < 2; ++side) {
    ExprRef x = side ? b : a, y = side ? a : b;
    if (auto mm = maskMultiple(y)) {
      ExprRef off = op == BinOp::BitAnd ? zero : x;
      return em_.mk(Op::Ite, p_.types->intType(), {mm->first, masked(x, mm->second), off});
    }
  }
  Range ra = rangeOf(a), rb = rangeOf(b);
  if (ra.bounded && rb.bounded) {
    bool na = ra.lo.sign() >= 0, nb = rb.lo.sign() >= 0;
    unsigned w = 0;
    bool sign = false;
    if (na && nb) {  // unsigned bits; `&` needs only the narrower operand's
      w = op == BinOp::BitAnd ? std::min(unsignedWidth(ra), unsignedWidth(rb))
                              : std::max(unsignedWidth(ra), unsignedWidth(rb));
    } else if (op == BinOp::BitAnd && (na || nb)) {  // the non-negative one bounds the result
      w = unsignedWidth(na ? ra : rb);
    } else {
      w = std::max(signedWidth(ra), signedWidth(rb));
      sign = true;
      if (std::min(signedWidth(ra), signedWidth(rb)) == 0) w = 0;
    }
    if (w > 0 && w <= 62) return bitByBit(op, a, b, w, sign);
  }
  diags_.error(e.loc, std::string("operator '") + binOpText(op) + "'" + kBitwiseHelp);
  return bad();
}

// bit_k(x) = (x div 2^k) mod 2 with the IR's floor division: the two's complement bits of any
// integer (the sign bit repeats above its width). So over w bits, a op b is the sum of
// 2^k * f(a_k, b_k), the top bit weighing -2^(w-1) when the operands may be negative.
ExprRef ExprLowerer::bitByBit(BinOp op, ExprRef a, ExprRef b, unsigned w, bool sign) {
  auto bit = [&](ExprRef x, unsigned k) {
    ExprRef shifted = k == 0 ? x : mk(Op::Div, x, em_.intConst(pow2(k)));
    return mk(Op::Mod, shifted, em_.intConst(BigInt(2)));
  };
  ExprRef sum = nullptr;
  for (unsigned k = 0; k < w; ++k) {
    ExprRef x = bit(a, k), y = bit(b, k);
    ExprRef f = op == BinOp::BitOr    ? mk(Op::Max, x, y)
                : op == BinOp::BitAnd ? mk(Op::Min, x, y)
                                      : asInt(em_.mk(Op::Ne, p_.types->boolType(), {x, y}));
    BigInt weight = sign && k + 1 == w ? -pow2(k) : pow2(k);
    ExprRef term = weight == BigInt(1) ? f : mk(Op::Mul, em_.intConst(weight), f);
    sum = sum ? mk(Op::Add, sum, term) : term;
  }
  ranges_[sum] = sign ? bounded(-pow2(w - 1), pow2(w - 1) - BigInt(1))
                      : bounded(BigInt(0), pow2(w) - BigInt(1));
  return sum;
}

ExprRef ExprLowerer::shift(const Expr& e, ExprRef a, ExprRef b) {
  auto ca = constOf(a), cb = constOf(b);
  if (ca && cb)
    if (auto v = foldBinary(e.binop, *ca, *cb)) return em_.intConst(*v);
  auto k = cb ? cb->toInt64() : std::nullopt;
  if (!cb) {
    // 2^b from a table of 2^0 .. 2^30, the amounts C's 32-bit int shifts without overflow; any
    // other amount is an index error of the model (undefined behaviour in C).
    std::vector<ExprRef> powers;
    for (unsigned i = 0; i <= 30; ++i) powers.push_back(em_.intConst(pow2(i)));
    TypeRef t = p_.types->arrayOf(p_.types->intType(), 31);
    ExprRef table = em_.mk(Op::ArrayLit, t, std::move(powers));
    ExprRef p = em_.mk(Op::Select, p_.types->intType(), {table, b});
    Range rb = rangeOf(b);
    if (rb.bounded) {
      auto lo = std::max<int64_t>(0, rb.lo.toInt64().value_or(0));
      auto hi = std::min<int64_t>(30, rb.hi.toInt64().value_or(30));
      if (lo <= hi)
        ranges_[p] = bounded(pow2(static_cast<unsigned>(lo)), pow2(static_cast<unsigned>(hi)));
    }
    return mk(e.binop == BinOp::Shl ? Op::Mul : Op::Div, a, p);
  }
  if (!k || *k < 0 || *k > 62) {
    diags_.error(
        e.loc, std::string("operator '") + binOpText(e.binop) + "' needs a shift amount in 0..62");
    return bad();
  }
  if (*k == 0) return a;
  ExprRef p = em_.intConst(pow2(static_cast<unsigned>(*k)));
  // Euclidean division by a positive divisor is floor division: an arithmetic shift right.
  return mk(e.binop == BinOp::Shl ? Op::Mul : Op::Div, a, p);
}

}  // namespace tandem::dve
