#include "mc/smt/minimize_model.h"

#include <cmath>

#include "mc/expr/float64.h"
#include "mc/smt/smt_error.h"

namespace tandem::smt {

CheckResult Minimizer::start() {
  CheckResult r = s_.check();
  if (r.isSat()) model_ = s_.model();
  return r;
}

void Minimizer::pin(ExprRef t) {
  if (t->type->kind == TypeKind::Array) {
    pin(em_.mk(Op::Len, em_.types().intType(), {t}));
    const BigInt n = value(em_.mk(Op::Len, em_.types().intType(), {t}));
    for (int64_t i = 0; BigInt(i) < n && i < kMaxPinnedElements; ++i)
      pin(em_.mk(Op::Select, t->type->elem, {t, em_.intConst(BigInt(i))}));
    return;
  }
  if (t->type->kind == TypeKind::Bool) {
    const bool holds = value(t).sign() != 0;
    s_.add(holds && !trySat(em_.mkNot(t)) ? t : em_.mkNot(t));
    return;
  }
  if (t->type->kind == TypeKind::F64) {
    pinFloat(t);
    return;
  }
  if (!t->type->isIntegral() && t->type->kind != TypeKind::Enum)
    throw SmtError("minimizeModel: cannot minimise a value of type " + typeToString(t->type));
  // Invariant: |t| <= hi holds in model_; |t| < lo is unsatisfiable (or unknown).
  BigInt lo(0), hi = value(t).abs();
  for (BigInt b(0); b < hi; b = b.sign() == 0 ? BigInt(1) : b * BigInt(2)) {
    if (trySat(atMost(t, b))) {
      hi = boundedValue(t, b);
      break;
    }
    lo = b + BigInt(1);
  }
  while (lo < hi) {
    const BigInt mid = lo + BigInt::div(hi - lo, BigInt(2));
    if (trySat(atMost(t, mid)))
      hi = boundedValue(t, mid);
    else
      lo = mid + BigInt(1);
  }
  // Prefer the non-negative value; the current model may hold the other one.
  const bool positive = t->type->kind == TypeKind::Enum || hi.sign() == 0 || value(t).sign() > 0 ||
                        trySat(equals(t, hi));
  s_.add(equals(t, positive ? hi : -hi));
}

// f64: a number before NaN, zero when it can be, else the back end's value. The least magnitude
// would be a binary search over 2^63 bit patterns: up to 63 queries, each bit-blasting the path
// condition's floating-point arithmetic, which took TSAFE-like models past minutes. The sign of
// a zero is the back end's too: only a division (1 / t) tells +0.0 from -0.0 to a solver, and
// bit-blasting that divider took 2.5 s per query on the TSAFE model (three such pins per path).
// So two back ends may choose different nonzero values, or zeros of different signs.
void Minimizer::pinFloat(ExprRef t) {
  auto bitsOf = [&](ExprRef x) { return static_cast<uint64_t>(value(x).wrapTo(64)); };
  if (std::isnan(f64::fromBits(bitsOf(t))) && !trySat(cmp(Op::Eq, t, t))) {
    s_.add(cmp(Op::Ne, t, t));  // only NaN satisfies the assertions
    return;
  }
  const ExprRef zero = cmp(Op::Eq, t, em_.floatConst(0.0));
  if (f64::fromBits(bitsOf(t)) == 0.0 || trySat(zero)) {
    s_.add(zero);
    return;
  }
  s_.add(cmp(Op::Eq, t, em_.floatConst(f64::fromBits(bitsOf(t)))));
}

BigInt Minimizer::boundedValue(ExprRef t, const BigInt& bound) const {
  BigInt v = value(t).abs();
  if (v > bound)
    throw SmtError("minimizeModel: a model violates the bound |t| <= " + bound.toString());
  return v;
}

bool Minimizer::trySat(ExprRef extra) {
  s_.push();
  s_.add(extra);
  CheckResult r = s_.check();
  if (r.isSat()) model_ = s_.model();
  s_.pop();
  return r.isSat();
}

ExprRef Minimizer::constant(ExprRef t, const BigInt& v) {
  if (t->type->kind == TypeKind::Enum)
    return em_.enumConst(t->type, static_cast<uint32_t>(v.small()));
  return em_.intConst(v, t->type);
}

ExprRef Minimizer::cmp(Op op, ExprRef a, ExprRef b) {
  return em_.mk(op, em_.types().boolType(), {a, b});
}

ExprRef Minimizer::atMost(ExprRef t, const BigInt& b) {
  if (t->type->kind == TypeKind::Enum) return cmp(Op::Le, t, constant(t, b));
  if (t->type->isBitVector() && !b.fitsIn(t->type->bitWidth())) return em_.trueExpr();
  return em_.mkAnd(cmp(Op::Le, constant(t, -b), t), cmp(Op::Le, t, constant(t, b)));
}

ExprRef Minimizer::equals(ExprRef t, const BigInt& v) { return em_.mkEq(t, constant(t, v)); }

MinimizedModel minimizeModel(Solver& solver, ExprManager& exprs, std::span<const ExprRef> terms) {
  const unsigned base = solver.level();
  solver.push();
  try {
    Minimizer m(solver, exprs);
    CheckResult r = m.start();
    // Every pin was checked satisfiable with its model kept, so the last model found is a model
    // of the assertions and the pins: no confirming check.
    if (r.isSat())
      for (ExprRef t : terms) m.pin(t);
    solver.pop(solver.level() - base);
    if (!r.isSat()) return {r, std::nullopt};
    return {r, m.takeModel()};
  } catch (...) {
    solver.pop(solver.level() - base);
    throw;
  }
}

}  // namespace tandem::smt
