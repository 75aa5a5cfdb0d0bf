// Readable abstract states: a cube of predicate literals with every literal that the others imply
// left out. Comparisons over the same linear integer term (`t - serving` in `t == serving + 1`,
// `!(t == serving)`, `t < next`...) are read as sets of values of that term, so a literal is
// dropped when the others already confine the term to a subset of its own.
#pragma once

#include <vector>

#include "mc/expr/expr.h"

namespace tandem::abstraction {

struct Literal {
  ExprRef atom;
  bool positive = true;
};

// The positions in `lits` of the literals that the others do not imply, in order. Literals that
// are not comparisons of `int` terms are always kept.
std::vector<size_t> nonImplied(const std::vector<Literal>& lits);

}  // namespace tandem::abstraction
