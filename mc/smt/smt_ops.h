// The SMT-LIB vocabulary the encoder (encoder.h) needs from a back end: a few sorts and the core
// operations of Int, BitVec, FloatingPoint, ArraysEx and their conversions. Each back end (Z3,
// cvc5, SMT-LIB text) implements it once; the mapping from Tandem expressions lives only in the
// encoder.
#pragma once

#include <cstdint>
#include <vector>

namespace tandem::smt {

// Sorts of scalar values: bool, int and enums (Int), i32 and i64 (bit-vectors), f64 (Float64).
enum class ScalarSort : uint8_t { Bool, Int, Bv32, Bv64, F64 };

inline unsigned bvWidthOf(ScalarSort s) {
  return s == ScalarSort::Bv32 ? 32 : s == ScalarSort::Bv64 ? 64 : 0;
}

// A value sort: a scalar, or (Array Int scalar) for the element part of an array value.
struct SmtSort {
  bool array = false;
  ScalarSort elem = ScalarSort::Int;
};

enum class SmtOp : uint8_t {
  Not,
  And,  // n-ary, n >= 2
  Or,   // n-ary, n >= 2
  Implies,
  Ite,
  Eq,
  Neg,
  Add,
  Sub,
  Mul,
  IntDiv,  // SMT-LIB div: Euclidean
  IntMod,  // SMT-LIB mod: Euclidean
  Lt,
  Le,
  Gt,
  Ge,
  BvNeg,
  BvAdd,
  BvSub,
  BvMul,
  BvSdiv,  // truncating, SMT-LIB semantics for a zero divisor
  BvSrem,
  BvSlt,
  BvSle,
  BvSgt,
  BvSge,
  Select,
  Store,
  IntToBv,     // param: width; the value modulo 2^width
  BvToNat,     // unsigned value
  SignExtend,  // param: number of added bits
  Extract,     // param: the high bit; the low bit is 0
  // Float64 (IEEE binary64); the rounding mode is always round-to-nearest-even (RNE).
  FpNeg,
  FpAdd,
  FpSub,
  FpMul,
  FpDiv,
  FpEq,  // IEEE equality: false with a NaN, true for 0.0 and -0.0
  FpLt,
  FpLe,
  FpGt,
  FpGe,
  IntToFp,  // the nearest Float64 to an Int (RNE)
  BvToFp,   // the nearest Float64 to a signed bit-vector (RNE)
  FpToSbv,  // param: width; truncation toward zero, as a signed bit-vector; unspecified for NaN,
            // infinities and values out of range
  // Truncation toward zero, as an Int, for values in [-2^63, 2^63) (else unspecified). Each back
  // end picks the encoding it decides: Z3 answers unknown through fp.to_real, cvc5 does not
  // finish through bv2nat.
  FpToInt,
};

// A quantified formula and the side constraints (enum ranges, lengths) of the free leaves in its
// body, which hold outside the quantifier and must be asserted with it.
template <class Term>
struct Quantified {
  Term formula;
  std::vector<Term> sides;
};

}  // namespace tandem::smt
