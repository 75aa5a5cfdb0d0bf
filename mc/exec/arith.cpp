#include "mc/exec/arith.h"

#include <compare>
#include <cstdint>
#include <string>

#include "mc/expr/float64.h"
#include "mc/expr/int_functions.h"

namespace tandem::exec {

namespace {

ExecError internal(const std::string& what) {
  return ExecError::limitReached(ir::ErrorKind::Assert, "evaluator: " + what);
}

ExecError divByZero(const Value& a) {
  return ExecError{ir::ErrorKind::DivByZero, SourceLoc{},
                   "division by zero (" + a.toString() + " / 0)", false};
}

// Two's-complement arithmetic in 64 bits, then sign-extended from `w` bits: exact modulo 2^w.
Value wrapped(unsigned w, uint64_t bits) { return Value::bits(w, static_cast<int64_t>(bits)); }

Result<Value> bitsBinary(Op op, const Value& a, const Value& b) {
  const unsigned w = a.bitWidth();
  const int64_t x = a.asBits(), y = b.asBits();
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case Op::Add:
      return wrapped(w, ux + uy);
    case Op::Sub:
      return wrapped(w, ux - uy);
    case Op::Mul:
      return wrapped(w, ux * uy);
    case Op::Div:
      if (y == 0) return divByZero(a);
      return wrapped(w, static_cast<uint64_t>(truncDiv(x, y)));  // INT_MIN / -1 wraps to INT_MIN
    case Op::Mod:
      if (y == 0) return divByZero(a);
      return Value::bits(w, truncRem(x, y));
    case Op::Min:
      return x <= y ? a : b;
    case Op::Max:
      return x >= y ? a : b;
    case Op::NoOverflowAdd:
      return Value::boolean(intfn::noOverflowAdd(BigInt(x), BigInt(y), w));
    case Op::NoOverflowMul:
      return Value::boolean(intfn::noOverflowMul(BigInt(x), BigInt(y), w));
    default:
      return internal(std::string("bit-vector operator ") + opName(op));
  }
}

Result<Value> intBinary(Op op, const BigInt& x, const BigInt& y, const Value& a, const Value& b) {
  switch (op) {
    case Op::Add:
      return Value::integer(x + y);
    case Op::Sub:
      return Value::integer(x - y);
    case Op::Mul:
      if (x.bitLength() + y.bitLength() > kMaxIntBits + 1)
        return ExecError::limitReached(
            ir::ErrorKind::Assert,
            "integer product of more than " + std::to_string(kMaxIntBits) + " bits");
      return Value::integer(x * y);
    case Op::Div:
      if (y.sign() == 0) return divByZero(a);
      return Value::integer(BigInt::div(x, y));
    case Op::Mod:
      if (y.sign() == 0) return divByZero(a);
      return Value::integer(BigInt::mod(x, y));
    case Op::Min:
      return x <= y ? a : b;
    case Op::Max:
      return x >= y ? a : b;
    // Mathematical integers never overflow.
    case Op::NoOverflowAdd:
    case Op::NoOverflowMul:
      return Value::boolean(true);
    default:
      return internal(std::string("integer operator ") + opName(op));
  }
}

// f64 operands: IEEE, with no error (x / 0 is an infinity or NaN).
Result<Value> floatBinary(Op op, double x, double y) {
  if (auto k = f64ArithOf(op)) return Value::f64(f64::arith(*k, x, y));
  if (auto k = f64CompareOf(op)) return Value::boolean(f64::compare(*k, x, y));
  return internal(std::string("f64 operator ") + opName(op));
}

// `int(x)`, `i32(x)`, `i64(x)` of an f64: truncation toward zero, then the integral conversion.
Result<Value> floatToIntegral(double x, TypeRef t) {
  auto n = f64::toInteger(x);
  if (!n)
    return ExecError{ir::ErrorKind::FloatConversion, SourceLoc{},
                     "f64 value " + f64::format(x) + " has no integer conversion", false};
  return integralValue(t, *n);
}

// The order of two values of one scalar kind, for < <= > >=.
Result<std::strong_ordering> compare(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return internal("comparison of different kinds");
  switch (a.kind()) {
    case ValueKind::Int:
      return a.asInt() <=> b.asInt();
    case ValueKind::I32:
    case ValueKind::I64:
      return a.asBits() <=> b.asBits();
    case ValueKind::Enum:
      return a.enumIndex() <=> b.enumIndex();
    case ValueKind::Bool:
      return a.asBool() <=> b.asBool();
    default:
      return internal(std::string("ordering of ") + valueKindName(a.kind()) + " values");
  }
}

}  // namespace

std::string overflowMessage(Op op, unsigned width) {
  const char* what = op == Op::Add   ? "addition"
                     : op == Op::Sub ? "subtraction"
                     : op == Op::Mul ? "multiplication"
                     : op == Op::Div ? "division"
                     : op == Op::Mod ? "remainder"
                     : op == Op::Neg ? "negation"
                                     : "abs";
  return "i" + std::to_string(width) + " " + what + " overflows";
}

std::optional<ExecError> overflowOf(Op op, const Value& a, const Value* b) {
  const unsigned w = a.bitWidth();
  if (!w || (b && b->bitWidth() != w)) return std::nullopt;
  const BigInt x(a.asBits()), y(b ? b->asBits() : 0);
  const int64_t top = w >= 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
  const BigInt lo(-top - 1), hi(top);
  BigInt exact;
  switch (op) {
    case Op::Add:
      exact = x + y;
      break;
    case Op::Sub:
      exact = x - y;
      break;
    case Op::Mul:
      exact = x * y;
      break;
    case Op::Div:
    case Op::Mod:  // C: INT_MIN % -1 is undefined with INT_MIN / -1
      if (!(x == lo && y == BigInt(-1))) return std::nullopt;
      exact = hi + BigInt(1);
      break;
    case Op::Neg:
    case Op::Abs:
      exact = BigInt(0) - x;
      if (op == Op::Abs && x.sign() >= 0) return std::nullopt;
      break;
    default:
      return std::nullopt;
  }
  if (exact >= lo && exact <= hi) return std::nullopt;
  std::string text = op == Op::Neg   ? "-" + a.toString()
                     : op == Op::Abs ? "abs(" + a.toString() + ")"
                                     : a.toString() + " " + opName(op) + " " + b->toString();
  return ExecError{ir::ErrorKind::Overflow, SourceLoc{}, overflowMessage(op, w) + " (" + text + ")",
                   false};
}

Result<Value> applyUnary(Op op, const Value& a, TypeRef resultType) {
  switch (op) {
    case Op::Not:
      if (a.kind() != ValueKind::Bool) return internal("! of a non-bool");
      return Value::boolean(!a.asBool());
    case Op::Neg:
      if (a.kind() == ValueKind::F64) return Value::f64(-a.asF64());  // flips the sign of 0, NaN
      if (a.kind() == ValueKind::Int) return Value::integer(-a.asInt());
      if (a.bitWidth()) return wrapped(a.bitWidth(), 0 - static_cast<uint64_t>(a.asBits()));
      return internal("- of a non-integer");
    case Op::Abs:
      if (a.kind() == ValueKind::Int) return Value::integer(a.asInt().abs());
      if (a.bitWidth()) {  // abs(INT_MIN) wraps to INT_MIN, as in C with -fwrapv
        int64_t x = a.asBits();
        return x < 0 ? wrapped(a.bitWidth(), 0 - static_cast<uint64_t>(x)) : a;
      }
      return internal("abs of a non-integer");
    case Op::Cast:
      if (resultType && resultType->kind == TypeKind::F64) {
        if (a.kind() == ValueKind::F64) return a;
        if (a.isIntegral()) return Value::f64(f64::fromInteger(a.toBigInt()));
        return internal("f64() of a non-number");
      }
      if (a.kind() == ValueKind::F64 && resultType && resultType->isIntegral())
        return floatToIntegral(a.asF64(), resultType);
      if (!a.isIntegral() || !resultType || !resultType->isIntegral())
        return internal("cast between non-integral types");
      return coerceIntegral(a, resultType);
    default:
      return internal(std::string("unary operator ") + opName(op));
  }
}

Result<Value> applyBinary(Op op, const Value& a, const Value& b, TypeRef resultType) {
  if (a.kind() == ValueKind::F64 || b.kind() == ValueKind::F64) {
    if (a.kind() != b.kind())  // the type checker never mixes f64 with another type
      return internal(std::string("operator ") + opName(op) + " on " + valueKindName(a.kind()) +
                      " and " + valueKindName(b.kind()));
    return floatBinary(op, a.asF64(), b.asF64());
  }
  if (a.kind() != b.kind() && a.isIntegral() && b.isIntegral()) {
    // The type checker gives both operands one type; an int literal next to an i32 is the only
    // mix worth tolerating, by reading the literal in the bit-vector type.
    Type t;
    t.kind = a.bitWidth() ? (a.bitWidth() == 32 ? TypeKind::I32 : TypeKind::I64)
                          : (b.bitWidth() == 32 ? TypeKind::I32 : TypeKind::I64);
    return applyBinary(op, coerceIntegral(a, &t), coerceIntegral(b, &t), resultType);
  }
  switch (op) {
    case Op::Eq:
      return Value::boolean(a == b);
    case Op::Ne:
      return Value::boolean(!(a == b));
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      auto c = compare(a, b);
      if (!c) return std::move(c).error();
      const std::strong_ordering o = c.value();
      bool r = op == Op::Lt ? o < 0 : op == Op::Le ? o <= 0 : op == Op::Gt ? o > 0 : o >= 0;
      return Value::boolean(r);
    }
    default:
      break;
  }
  if (a.kind() != b.kind())
    return internal(std::string("operator ") + opName(op) + " on " + valueKindName(a.kind()) +
                    " and " + valueKindName(b.kind()));
  if (a.kind() == ValueKind::Int) return intBinary(op, a.asInt(), b.asInt(), a, b);
  if (a.bitWidth()) return bitsBinary(op, a, b);
  return internal(std::string("operator ") + opName(op) + " on " + valueKindName(a.kind()));
}

std::string indexMessage(const std::string& index, const std::string& length) {
  if (index.empty()) return "index out of bounds";
  return "index " + index + " out of bounds for length " + length;
}

}  // namespace tandem::exec
