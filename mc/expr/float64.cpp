#include "mc/expr/float64.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace tandem::f64 {

uint64_t toBits(double d) { return std::bit_cast<uint64_t>(d); }
double fromBits(uint64_t bits) { return std::bit_cast<double>(bits); }

std::optional<double> parse(std::string_view text) {
  // from_chars is exact (round to nearest even) and ignores the locale; it refuses a result out
  // of range, which for a literal means +inf (overflow) or 0 (underflow below the subnormals).
  double d = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (end != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    const std::string s(text);
    return std::strtod(s.c_str(), nullptr);  // strtod gives inf or the rounded tiny value
  }
  if (ec != std::errc()) return std::nullopt;
  return d;
}

std::string format(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string sourceText(double d) {
  if (std::isnan(d)) return "(0.0 / 0.0)";
  if (std::isinf(d)) return d < 0 ? "(-1.0 / 0.0)" : "(1.0 / 0.0)";
  return format(d);
}

double arith(Arith op, double a, double b) {
  switch (op) {
    case Arith::Add:
      return a + b;
    case Arith::Sub:
      return a - b;
    case Arith::Mul:
      return a * b;
    case Arith::Div:
      return a / b;
  }
  return std::nan("");
}

bool compare(Compare op, double a, double b) {
  switch (op) {
    case Compare::Eq:
      return a == b;
    case Compare::Ne:
      return a != b;
    case Compare::Lt:
      return a < b;
    case Compare::Le:
      return a <= b;
    case Compare::Gt:
      return a > b;
    case Compare::Ge:
      return a >= b;
  }
  return false;
}

double fromInteger(const BigInt& n) {
  // int64 -> double is the IEEE conversion (current rounding mode: nearest even); a bigger
  // integer goes through its decimal text, which strtod rounds correctly (or to +-inf).
  if (auto s = n.toInt64()) return static_cast<double>(*s);
  const std::string text = n.toString();
  return std::strtod(text.c_str(), nullptr);
}

std::optional<BigInt> toInteger(double d) {
  // The range of `int(e)` is that of a 64-bit integer, as C's (long long)x and SMT's
  // fp.to_sbv 64: a model whose doubles leave it is almost always wrong, so it is an error.
  if (std::isnan(d)) return std::nullopt;
  const double t = std::trunc(d);
  if (t < -0x1p63 || t >= 0x1p63) return std::nullopt;
  return BigInt(static_cast<int64_t>(t));
}

namespace {

double unary(double (*f)(double), std::span<const double> a) { return f(a[0]); }

const MathFunction kFunctions[] = {
    {"sqrt", 1, [](std::span<const double> a) { return unary(std::sqrt, a); }},
    {"sin", 1, [](std::span<const double> a) { return unary(std::sin, a); }},
    {"cos", 1, [](std::span<const double> a) { return unary(std::cos, a); }},
    {"tan", 1, [](std::span<const double> a) { return unary(std::tan, a); }},
    {"atan", 1, [](std::span<const double> a) { return unary(std::atan, a); }},
    {"atan2", 2, [](std::span<const double> a) { return std::atan2(a[0], a[1]); }},
    {"exp", 1, [](std::span<const double> a) { return unary(std::exp, a); }},
    {"log", 1, [](std::span<const double> a) { return unary(std::log, a); }},
    {"pow", 2, [](std::span<const double> a) { return std::pow(a[0], a[1]); }},
    {"floor", 1, [](std::span<const double> a) { return unary(std::floor, a); }},
    {"ceil", 1, [](std::span<const double> a) { return unary(std::ceil, a); }},
    {"fabs", 1, [](std::span<const double> a) { return unary(std::fabs, a); }},
};

}  // namespace

std::span<const MathFunction> mathFunctions() { return kFunctions; }

const MathFunction* findMathFunction(std::string_view name) {
  auto it = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                         [&](const MathFunction& f) { return f.name == name; });
  return it == std::end(kFunctions) ? nullptr : &*it;
}

}  // namespace tandem::f64
