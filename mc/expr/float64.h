// IEEE 754 binary64 (`f64`): the one implementation of its semantics. The concrete evaluator
// (run, check) and the type checker's literal folding call these, so every engine that computes
// with doubles rounds, compares and prints the same way. The host's double is binary64 with
// round-to-nearest-even (checked below), so the host's operators are the IEEE operations.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mc/expr/bigint.h"

namespace tandem::f64 {

static_assert(std::numeric_limits<double>::is_iec559, "f64 needs an IEEE 754 host double");

// The quiet NaN a solver's NaN model value reads as (SMT-LIB has one NaN per sort).
inline constexpr uint64_t kQuietNaNBits = 0x7ff8000000000000;

uint64_t toBits(double d);
double fromBits(uint64_t bits);

// A literal as the lexer accepts it (`1.5`, `2.0e-3`, `1e9`): the nearest double (ties to even);
// nullopt when the text is not a literal. Overflowing literals are +inf, as in C.
std::optional<double> parse(std::string_view text);
// The shortest text that parses back to the same bits: `0.1`, `-0`, `1e+300`, `nan`, `inf`,
// `-inf`. A finite value without `.`, `e` or `n` gets `.0`, so it reads as an f64 literal.
std::string format(double d);
// The same as an expression of the language, which has no literal for the values that are not
// finite: `(0.0 / 0.0)`, `(1.0 / 0.0)`, `(-1.0 / 0.0)` (what `test` declarations are written in).
std::string sourceText(double d);

enum class Arith { Add, Sub, Mul, Div };
double arith(Arith op, double a, double b);  // IEEE: x / 0 is +-inf or NaN, never an error
enum class Compare { Eq, Ne, Lt, Le, Gt, Ge };
bool compare(Compare op, double a, double b);  // IEEE: every comparison with NaN but != is false

// `f64(n)`: the nearest double to the integer (ties to even); beyond the range, +-inf.
double fromInteger(const BigInt& n);
// `int(x)`: truncation toward zero; nullopt for NaN and +-inf (the error kind float-conversion).
std::optional<BigInt> toInteger(double d);

// The built-in natives over f64 (LANGUAGE.md): the host's libm.
struct MathFunction {
  std::string_view name;
  unsigned arity;
  double (*fn)(std::span<const double>);
};
std::span<const MathFunction> mathFunctions();
const MathFunction* findMathFunction(std::string_view name);

}  // namespace tandem::f64
