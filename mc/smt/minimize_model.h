// Small, stable models. The symbolic executor shows models to users and replays them under both
// back ends, so it wants the same small values whichever solver answered: each term, in the
// given order, is pinned to its value of least absolute value (ties: the non-negative one; bools:
// false first; enums: the first member; arrays: the shortest length, then the elements below it
// in order, up to kMaxPinnedElements of them), found by bounded search
// with |t| <= 0, 1, 2, 4, ... and bisection, in push/pop scopes. Given definite answers the
// result is unique, hence the same under every back end.
#pragma once

#include <optional>
#include <span>

#include "mc/expr/expr.h"
#include "mc/smt/check_result.h"
#include "mc/smt/model.h"
#include "mc/smt/solver.h"

namespace tandem::smt {

inline constexpr int64_t kMaxPinnedElements = 64;

struct MinimizedModel {
  CheckResult result;          // of the solver's assertions
  std::optional<Model> model;  // when sat: the model with every term pinned
};

// `terms`: int, i32, i64, f64, enum, bool or array expressions (usually symbols). The solver's
// assertion stack is left as it was. A check answering unknown counts as "not at this bound", so
// the value found is then valid but possibly not the least.
MinimizedModel minimizeModel(Solver& solver, ExprManager& exprs, std::span<const ExprRef> terms);

// The search of minimizeModel, one term at a time, on the solver's current assertions, for
// callers that choose the terms as they go (minimize_formulas.h). pin(t) asserts t == its least
// value in the solver's current scope; model() stays a model of the assertions and the pins.
class Minimizer {
 public:
  Minimizer(Solver& solver, ExprManager& exprs) : s_(solver), em_(exprs) {}

  // Checks the assertions; on sat, the model to improve.
  CheckResult start();
  // Starts from `m`, a model of the assertions the caller knows: no check.
  void startFrom(const Model& m) { model_ = m; }
  void pin(ExprRef t);
  BigInt value(ExprRef t) const { return model_->evalInt(t).value_or(BigInt(0)); }
  const Model& model() const { return *model_; }
  Model takeModel() { return std::move(*model_); }

 private:
  // |t| in a model found under |t| <= bound; a larger value means the model is wrong, and the
  // search would not terminate.
  BigInt boundedValue(ExprRef t, const BigInt& bound) const;
  void pinFloat(ExprRef t);
  // Checks the assertions plus `extra` in a scope of its own; on sat the model is kept.
  bool trySat(ExprRef extra);
  ExprRef constant(ExprRef t, const BigInt& v);
  ExprRef cmp(Op op, ExprRef a, ExprRef b);
  // |t| <= b, with the bound in t's type (a bit-vector bound beyond its range is no bound).
  ExprRef atMost(ExprRef t, const BigInt& b);
  ExprRef equals(ExprRef t, const BigInt& v);

  Solver& s_;
  ExprManager& em_;
  std::optional<Model> model_;
};

}  // namespace tandem::smt
