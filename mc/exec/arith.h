// The operators of the language on concrete values: mathematical on `int` (Euclidean / and %, as
// SMT-LIB's div and mod), two's-complement wrapping on i32/i64 (C-like truncating / and %).
// Operands are already evaluated: the short-circuit operators and `?:` live in the evaluator.
#pragma once

#include "mc/exec/result.h"
#include "mc/exec/value.h"
#include "mc/expr/expr.h"

namespace tandem::exec {

// Neg, Not, Abs, Cast (to `resultType`).
Result<Value> applyUnary(Op op, const Value& a, TypeRef resultType);

// Products of `int`s longer than this many bits are refused with a limit error: a model that
// squares in a loop would otherwise exhaust memory (the same bound as intfn::kMaxPowBits).
inline constexpr unsigned kMaxIntBits = 100000;

// Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, Min, Max, NoOverflowAdd, NoOverflowMul.
// Division by zero is ErrorKind::DivByZero (without a location: the caller knows the edge).
Result<Value> applyBinary(Op op, const Value& a, const Value& b, TypeRef resultType);

}  // namespace tandem::exec
