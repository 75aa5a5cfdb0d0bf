// Linear arithmetic over `int` for the default predicates (auto_predicates.h): weakest
// preconditions write `x + 1 - 1 < n` where `x < n` was meant, and `x < n` and `n <= x` are one
// predicate (a predicate and its negation split the states the same way). Bounded integers
// (i32, i64) wrap, so they are left as written.
#pragma once

#include <compare>
#include <utility>
#include <vector>

#include "mc/expr/expr.h"

namespace tandem::abstraction {

// `e` with every sum over `int` folded (`(x + 1) - 1` is `x`, `2 + 3` is `5`), `len(new T[n])`
// as `n`, `*&x` as `x`, and comparisons that do not depend on a variable (`n <= n`, `0 < 1`,
// `&x == &y`, `&x == null`) as constants.
ExprRef simplify(ExprManager& em, ExprRef e);

// Equal for two comparisons exactly when they are the same predicate up to linear arithmetic over
// `int`, swapping the sides, and negation.
struct AtomKey {
  std::vector<std::pair<ExprRef, BigInt>> terms;  // sorted, non-zero coefficients
  BigInt constant;
  // Linear: `sum <= 0` (0) or `sum == 0` (1). Otherwise `lhs < rhs` (2) or `lhs == rhs` (3).
  int relation = 0;
  ExprRef lhs = nullptr, rhs = nullptr;
  auto operator<=>(const AtomKey&) const = default;
};

// `atom` is a comparison (==, !=, <, <=, >, >=).
AtomKey atomKey(ExprRef atom);

}  // namespace tandem::abstraction
