// A satisfying assignment, as a self-contained snapshot: the values of the leaves (symbols and
// variables, arrays with their lengths), of the uninterpreted-function applications and of the
// integer divisions by zero the query mentioned. Any expression over them is then evaluated by
// Tandem's own evaluator with the translation's semantics (model_eval.cpp), so a model outlives
// the solver session, models of independent slices merge, and the two back ends' models can be
// compared value by value.
//
// Model completion: a leaf, element or application the model does not fix reads as the zero of
// its type (0, false, the first enum member, the empty array or a zero-filled fixed array).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/expr/expr.h"
#include "mc/smt/leaf_key.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

// An array value: scalar elements by index (only the ones known), the rest read as `fill`.
struct ArrayValue {
  BigInt length;
  std::map<BigInt, BigInt> elements;
  BigInt fill;

  const BigInt& at(const BigInt& index) const;
  bool operator==(const ArrayValue& o) const = default;
};

// Scalars as BigInt: bool 0/1, enum member index, i32/i64 signed.
struct ModelValue {
  BigInt scalar;
  std::shared_ptr<const ArrayValue> array;  // non-null for array values

  bool isArray() const { return array != nullptr; }
};

class Model {
 public:
  // nullopt when the value is not determined: an integer division by zero the query did not
  // mention, or an operator outside the translation.
  std::optional<ModelValue> eval(ExprRef e) const;
  std::optional<BigInt> evalInt(ExprRef e) const;  // int, i32/i64, enum (index), bool (0/1)
  std::optional<bool> evalBool(ExprRef e) const;
  std::optional<ArrayValue> evalArray(ExprRef e) const;

  void setScalar(LeafKey leaf, BigInt value) { scalars_[leaf] = std::move(value); }
  void setArray(LeafKey leaf, ArrayValue value) { arrays_[leaf] = std::move(value); }
  // One element of an array leaf already set with setArray.
  void setElement(LeafKey leaf, const BigInt& index, BigInt value);
  void setCall(uint32_t callee, std::vector<BigInt> args, BigInt result);
  // The value of `dividend div 0` (op Div) or `dividend mod 0` (op Mod) on `int`: SMT-LIB leaves
  // it to the model.
  void setDivByZero(Op op, const BigInt& dividend, BigInt result);

  const BigInt* scalar(LeafKey leaf) const;
  const ArrayValue* array(LeafKey leaf) const;
  const BigInt* call(uint32_t callee, const std::vector<BigInt>& args) const;
  const BigInt* divByZero(Op op, const BigInt& dividend) const;

  // Adds the assignments of `other` (a model of an independent slice); existing ones are kept,
  // down to single array elements.
  void merge(const Model& other);
  // The assignments of the leaves `keepLeaf(leaf, nullptr)` accepts; of other arrays, the elements
  // `keepLeaf(leaf, &index)` accepts; the applications of the callees `keepCallee` accepts;
  // divisions by zero all.
  Model restricted(const std::function<bool(LeafKey, const BigInt*)>& keepLeaf,
                   const std::function<bool(uint32_t)>& keepCallee) const;
  bool empty() const;
  // One `name = value` per line, sorted, for traces and test failure messages.
  std::string toString(const TermNaming& naming) const;

  bool operator==(const Model& o) const = default;

 private:
  std::map<LeafKey, BigInt> scalars_;
  std::map<LeafKey, ArrayValue> arrays_;
  std::map<std::pair<uint32_t, std::vector<BigInt>>, BigInt> calls_;
  std::map<std::pair<Op, BigInt>, BigInt> divByZero_;
};

}  // namespace tandem::smt
