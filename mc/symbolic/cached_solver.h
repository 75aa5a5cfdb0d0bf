// The SMT solver as the path solvers ask it: KLEE's counterexample cache in front
// (smt/counterexample_cache.h; Cadar, Dunbar, Engler, OSDI'08). A query the cache answers never
// reaches the solver chain, so it is not one of the chain's queries (the report's
// `solver_queries` counts only what reaches a back end); the cache's answers are counted in
// SolvingStats. The chain itself is incremental (smt/incremental_solver.h), so the queries that
// do reach it cost only their new conjuncts.
#pragma once

#include <memory>
#include <span>

#include "mc/expr/expr.h"
#include "mc/smt/counterexample_cache.h"
#include "mc/smt/minimize_model.h"
#include "mc/smt/solver.h"

namespace tandem::symbolic {

class CachedSolver {
 public:
  CachedSolver(smt::Solver& solver, ExprManager& em) : solver_(solver), em_(em) {}

  // Satisfiability of the conjunction of `conjuncts`.
  smt::CheckResult check(std::span<const ExprRef> conjuncts);
  // A model of the conjunction from the cache, or null (no query either way).
  std::shared_ptr<const smt::Model> knownModel(std::span<const ExprRef> conjuncts) {
    return cache_.modelOf(conjuncts);
  }
  // smt::minimizeFormulas, starting from a cached model of `formulas` when there is one.
  smt::MinimizedModel minimize(std::span<const ExprRef> formulas, std::span<const ExprRef> terms);

  const smt::CexCacheStats& cacheStats() const { return cache_.stats(); }
  // The run has stopped (smt::Solver::stopped): the cache still answers, the solver no longer.
  bool stopped() const { return solver_.stopped(); }

 private:
  smt::Solver& solver_;
  ExprManager& em_;
  smt::CounterexampleCache cache_;
};

}  // namespace tandem::symbolic
