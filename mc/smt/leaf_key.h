// Identifies a free leaf of a formula (a symbolic value or a variable) independently of its
// ExprRef, so models and slicing can key on it.
#pragma once

#include <compare>
#include <cstdint>

#include "mc/expr/expr.h"

namespace tandem::smt {

struct LeafKey {
  Op op = Op::Symbol;  // Op::Symbol or Op::Var
  uint32_t id = 0;

  static LeafKey of(ExprRef leaf) { return {leaf->op, leaf->payload}; }
  friend auto operator<=>(const LeafKey&, const LeafKey&) = default;
};

}  // namespace tandem::smt
