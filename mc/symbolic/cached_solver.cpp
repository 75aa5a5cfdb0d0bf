#include "mc/symbolic/cached_solver.h"

#include "mc/smt/minimize_formulas.h"

namespace tandem::symbolic {

smt::CheckResult CachedSolver::check(std::span<const ExprRef> conjuncts) {
  if (auto hit = cache_.lookup(conjuncts)) return hit->result;
  smt::CheckResult r = solver_.check(conjuncts);
  if (r.isSat())
    cache_.insert(conjuncts, r, std::make_shared<const smt::Model>(solver_.model()));
  else if (r.isUnsat())
    cache_.insert(conjuncts, r, nullptr);
  return r;
}

smt::MinimizedModel CachedSolver::minimize(std::span<const ExprRef> formulas,
                                           std::span<const ExprRef> terms) {
  std::shared_ptr<const smt::Model> known = cache_.modelOf(formulas);
  return smt::minimizeFormulas(solver_, em_, formulas, terms, known.get());
}

}  // namespace tandem::symbolic
