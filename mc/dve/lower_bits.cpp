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
    " is supported only on constants, on 0/1 operands, and with a mask 2^k-1 or a 0/1 multiple of "
    "one (x | 255, x & 1, x | ((c) * 255)): the IR has no bitwise operations";

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
  diags_.error(e.loc, std::string("operator '") + binOpText(op) + "'" + kBitwiseHelp);
  return bad();
}

ExprRef ExprLowerer::shift(const Expr& e, ExprRef a, ExprRef b) {
  auto ca = constOf(a), cb = constOf(b);
  if (ca && cb)
    if (auto v = foldBinary(e.binop, *ca, *cb)) return em_.intConst(*v);
  auto k = cb ? cb->toInt64() : std::nullopt;
  if (!k || *k < 0 || *k > 62) {
    diags_.error(e.loc, std::string("operator '") + binOpText(e.binop) +
                            "' needs a constant shift amount in 0..62");
    return bad();
  }
  if (*k == 0) return a;
  ExprRef p = em_.intConst(pow2(static_cast<unsigned>(*k)));
  // Euclidean division by a positive divisor is floor division: an arithmetic shift right.
  return mk(e.binop == BinOp::Shl ? Op::Mul : Op::Div, a, p);
}

}  // namespace tandem::dve
