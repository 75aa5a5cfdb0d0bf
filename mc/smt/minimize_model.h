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

// `terms`: int, i32, i64, enum, bool or array expressions (usually symbols). The solver's
// assertion stack is left as it was. A check answering unknown counts as "not at this bound", so
// the value found is then valid but possibly not the least.
MinimizedModel minimizeModel(Solver& solver, ExprManager& exprs, std::span<const ExprRef> terms);

}  // namespace tandem::smt
