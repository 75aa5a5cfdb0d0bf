// The operators of the language on concrete values: mathematical on `int` (Euclidean / and %, as
// SMT-LIB's div and mod), two's-complement wrapping on i32/i64 (C-like truncating / and %).
// Operands are already evaluated: the short-circuit operators and `?:` live in the evaluator.
#pragma once

#include <optional>
#include <string>

#include "mc/exec/result.h"
#include "mc/exec/value.h"
#include "mc/expr/expr.h"

namespace tandem::exec {

// Neg, Not, Abs, Cast (to `resultType`). A Cast of an f64 to an integral type that is NaN or out
// of range is ErrorKind::FloatConversion.
Result<Value> applyUnary(Op op, const Value& a, TypeRef resultType);

// Products of `int`s longer than this many bits are refused with a limit error: a model that
// squares in a loop would otherwise exhaust memory (the same bound as intfn::kMaxPowBits).
inline constexpr unsigned kMaxIntBits = 100000;

// Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, Min, Max, NoOverflowAdd, NoOverflowMul.
// On f64 operands: IEEE (f64::arith, f64::compare), never an error.
// Integer division by zero is ErrorKind::DivByZero (without a location: the caller knows the edge).
Result<Value> applyBinary(Op op, const Value& a, const Value& b, TypeRef resultType);

// Program::checkOverflow: the error of an i32/i64 operation (Add, Sub, Mul, Div, Mod; Neg and Abs
// with `b` null) whose exact result does not fit its width; nullopt when it fits, or for `int`.
std::optional<ExecError> overflowOf(Op op, const Value& a, const Value* b);
// The message of that error, the same in every engine: "i32 addition overflows".
std::string overflowMessage(Op op, unsigned width);
// The one wording of an index error: `index 2 out of bounds for length 2` with the values
// (concrete runs), `index out of bounds` without (a symbolic obligation, a potential error).
std::string indexMessage(const std::string& index = "", const std::string& length = "");

}  // namespace tandem::exec
