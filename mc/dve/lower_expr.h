// Internal to the DVE importer: DVE expressions to IR expressions.
//
// DVE has one value type: integers, with 0 false and anything else true. The IR is typed, so
// every lowered expression is either `bool` (comparisons, logic, `P.s`) or `int`, and the two
// convert where an operator needs the other (`b` as int is `b ? 1 : 0`, `x` as bool is `x != 0`).
// Arithmetic is C's: `/` and `%` truncate toward zero (the IR's are Euclidean, so a dividend that
// may be negative gets a case split). The IR has no bitwise operations; `~x` is `-x - 1` and
// `<< k`, `>> k` (constant k) are a multiplication and a floor division by 2^k, both exact. `|`,
// `&`, `^` are encoded exactly where the operands allow it (constants, 0/1 values, masks 2^k-1,
// 0/1 multiples of a mask such as fischer's `(t-1) | ((t==255)*255)`); anything else is reported
// as unsupported. Constant operands are folded, so constant expressions become literals.
#pragma once

#include <optional>
#include <unordered_map>

#include "mc/dve/ast.h"
#include "mc/dve/symbols.h"
#include "mc/lang/diagnostics.h"

namespace tandem::dve {

// A closed interval of values, or unbounded.
struct Range {
  bool bounded = false;
  BigInt lo, hi;
  bool within(int64_t a, int64_t b) const { return bounded && lo >= BigInt(a) && hi <= BigInt(b); }
};

class ExprLowerer {
 public:
  ExprLowerer(ir::Program& p, const Symbols& syms, Diagnostics& d);

  // In process `self` (null: the global scope, where only constants have values).
  ExprRef condition(const Expr& e, const ProcSym* self);  // bool
  ExprRef value(const Expr& e, const ProcSym* self);      // int
  // A constant expression folded to its value; reports `what` must be constant otherwise.
  std::optional<int64_t> constant(const Expr& e, const ProcSym* self, const std::string& what);
  // The effect `lhs = rhs` of process `self`, its value wrapped into the target's type.
  std::optional<ir::Assignment> assignment(const Effect& eff, const ProcSym& self);
  // The variable or array element `l` assigned by `what` (an effect, a receive) of `self`, and
  // whether it is a byte; null (reported) when `l` cannot be assigned there.
  std::optional<std::pair<ExprRef, bool>> target(const Expr& l, const ProcSym& self,
                                                 const std::string& what);

  // DiVinE's storage semantics: a byte holds (v mod 256), an int (v mod 65536) shifted into
  // -32768..32767. Leaves `e` alone when its range already fits.
  ExprRef wrap(ExprRef e, bool isByte);
  static int64_t wrapConstant(const BigInt& v, bool isByte);

 private:
  ExprRef lower(const Expr& e);
  ExprRef name(const Expr& e);
  ExprRef member(const Expr& e, bool indexed);
  ExprRef index(const Expr& e);
  ExprRef unary(const Expr& e);
  ExprRef binary(const Expr& e);
  ExprRef arith(BinOp op, ExprRef a, ExprRef b);
  ExprRef divide(BinOp op, ExprRef a, ExprRef b);
  const VarSym* lookupVar(const std::string& n) const;
  const int64_t* lookupConst(const std::string& n) const;
  ExprRef bad() { return em_.intConst(BigInt(0)); }  // stands in after an error

  // Conversions between DVE's integers-as-truth-values and the IR's bool.
  ExprRef asBool(ExprRef e);
  ExprRef asInt(ExprRef e);
  static std::optional<BigInt> constOf(ExprRef e);
  ExprRef mk(Op op, ExprRef a, ExprRef b);   // int-typed
  ExprRef cmp(Op op, ExprRef a, ExprRef b);  // bool-typed

  // lower_bits.cpp: value ranges and the bitwise operators.
  Range rangeOf(ExprRef e);
  Range computeRange(ExprRef e);
  bool in01(ExprRef e) { return rangeOf(e).within(0, 1); }
  ExprRef bitwise(const Expr& e, ExprRef a, ExprRef b);
  // `a op b` (|, &, ^) over `w` bits, two's complement when `sign`.
  ExprRef bitByBit(BinOp op, ExprRef a, ExprRef b, unsigned w, bool sign);
  ExprRef shift(const Expr& e, ExprRef a, ExprRef b);
  // x | (2^n - 1), x & (2^n - 1), x ^ (2^n - 1), exact on all integers (two's complement).
  ExprRef orMask(ExprRef x, unsigned n);
  ExprRef andMask(ExprRef x, unsigned n);
  ExprRef xorMask(ExprRef x, unsigned n);
  // `y * (2^n - 1)` with y in 0..1: the condition y != 0 and n.
  std::optional<std::pair<ExprRef, unsigned>> maskMultiple(ExprRef e);

  ir::Program& p_;
  ExprManager& em_;
  const Symbols& syms_;
  Diagnostics& diags_;
  const ProcSym* self_ = nullptr;
  std::unordered_map<ExprRef, Range> ranges_;
};

// n when v == 2^n - 1 for some n in 1..62, else 0.
unsigned maskBits(const BigInt& v);
// C's `a op b` on constants (truncating `/` and `%`, two's complement bitwise operators), or
// nullopt when it is undefined or not representable (division by zero, shifts outside 0..62,
// bitwise operators beyond int64).
std::optional<BigInt> foldBinary(BinOp op, const BigInt& a, const BigInt& b);

}  // namespace tandem::dve
