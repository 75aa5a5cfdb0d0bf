// The SMT layer's view of an expression: its sort, whether the translation covers it, and which
// leaves and uninterpreted functions it depends on (for independence slicing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/expr/expr.h"
#include "mc/smt/smt_ops.h"

namespace tandem::smt {

// bool -> Bool; int and enums -> Int; i32/i64 -> bit-vectors; f64 -> Float64. nullopt for other
// types.
std::optional<ScalarSort> scalarSortOf(TypeRef t);
// A scalar sort, or an array of scalars. nullopt for other types (refs, classes, nested arrays).
std::optional<SmtSort> smtSortOf(TypeRef t);

// The class of a scalar type for conversions and operators: bool, a mathematical integer (int and
// enums), a bit-vector of some width or a Float64.
struct NumClass {
  bool isBool = false;
  unsigned width = 0;  // bit-vectors: 32 or 64
  bool isFloat = false;

  bool isBv() const { return width != 0; }
  friend bool operator==(const NumClass&, const NumClass&) = default;
};
NumClass numClassOf(TypeRef t);
inline constexpr NumClass kIntClass{};
inline constexpr NumClass kFloatClass{false, 0, true};
// The class in which a binary operator combines or compares `a` and `b`: a bit-vector operand
// wins, so an int literal beside an i32 reads as an i32 (as in the concrete evaluator). f64 never
// mixes with another class (the type checker's rule).
NumClass operandClass(ExprRef a, ExprRef b);

BigInt pow2(unsigned bits);  // 2^bits, bits <= 128

// Why `e` itself (not its kids) cannot be translated, or nullopt when it can.
std::optional<std::string> nodeUnsupportedReason(ExprRef e);
// The first reason found anywhere in the expression, or nullopt.
std::optional<std::string> unsupportedReason(ExprRef root);
// Throws SmtUnsupported with unsupportedReason(root).
void requireSupported(ExprRef root);

bool isLeaf(ExprRef e);  // Op::Symbol or Op::Var

// What a formula's satisfiability depends on: its leaves and the callees of its calls (an
// uninterpreted function links every formula that applies it). Sorted, unique.
std::vector<uint64_t> dependencyKeys(ExprRef root);

}  // namespace tandem::smt
