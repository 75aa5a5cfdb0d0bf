// Building a Model from a back end's model: the leaves, array elements, applications and
// divisions by zero of the checked formulas, each read through the back end.
#pragma once

#include <optional>
#include <span>

#include "mc/expr/bigint.h"
#include "mc/expr/expr.h"
#include "mc/smt/model.h"

namespace tandem::smt {

// A back end's model, queried through the back end's own translation of the expressions.
class ModelSource {
 public:
  virtual ~ModelSource() = default;
  // The value of a translated scalar expression (bool 0/1, enum index, bit-vectors signed).
  virtual std::optional<BigInt> scalar(ExprRef e) = 0;
  virtual std::optional<BigInt> length(ExprRef array) = 0;
  virtual std::optional<BigInt> element(ExprRef array, const BigInt& index) = 0;
};

// Elements of an array leaf read explicitly (from index 0); beyond that only the elements the
// formulas select are kept.
inline constexpr int64_t kMaxExtractedElements = 1024;

Model extractModel(std::span<const ExprRef> formulas, ModelSource& source);

}  // namespace tandem::smt
