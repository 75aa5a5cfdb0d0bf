// One symbolic evaluation (private to sym_eval.cpp and sym_process.cpp).
#pragma once

#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

struct SymEvaluator::Ctx {
  const SymState& s;
  ExprRef guard;  // the short-circuit context the expression is reached under
  std::vector<Obligation>& obls;
  bool old = false;  // inside old(): globals and heap from the frame's entry snapshot
  // Closed systems: the thread whose `pid` and process locals unqualified names mean.
  exec::ThreadId thread = exec::kNoThread;
};

}  // namespace tandem::symbolic
