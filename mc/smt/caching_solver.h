// Query cache: a check whose assertions and assumptions form a set seen before gets the earlier
// answer and model without a back end call. Unknown answers are not cached (a later check may
// have more time).
#pragma once

#include <memory>

#include "mc/smt/solver.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeCachingSolver(std::unique_ptr<Solver> inner);

}  // namespace tandem::smt
