// KLEE's counterexample cache (Cadar, Dunbar, Engler, "KLEE", OSDI'08, Sect. 3.3): answers a query
// -- a conjunction given as a list of formulas -- from earlier answers, without a solver:
//   - sat, when the model of an earlier sat answer satisfies every conjunct of the query. In a
//     symbolic executor the model of a path condition usually satisfies one side of the next
//     branch, and always the side whose negation was refuted;
//   - unsat, when every conjunct of an earlier unsat query is in the query (a superset of an
//     unsatisfiable set is unsatisfiable);
//   - unsat when the query holds `false`, or a conjunct and its negation; sat when it is empty
//     or all `true`.
// Models are evaluated by Tandem's evaluator with the translation's semantics (model_eval.cpp);
// a conjunct it cannot evaluate counts as not satisfied. Unknown answers are never stored. The
// cache holds the most recently used entries only, so a lookup costs a bounded number of model
// evaluations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/check_result.h"
#include "mc/smt/model.h"

namespace tandem::smt {

struct CexCacheStats {
  uint64_t satHits = 0;    // answered sat by a stored model
  uint64_t unsatHits = 0;  // answered unsat by a stored unsat query or by the query's own shape
  uint64_t misses = 0;     // left to the solver
};

struct CexAnswer {
  CheckResult result;                  // sat or unsat, never unknown
  std::shared_ptr<const Model> model;  // sat: a model of the whole query
};

class CounterexampleCache {
 public:
  explicit CounterexampleCache(size_t capacity = 16) : capacity_(capacity) {}

  std::optional<CexAnswer> lookup(std::span<const ExprRef> query);
  // Records a definite answer of the solver (`model` for sat: a model of the whole query).
  void insert(std::span<const ExprRef> query, const CheckResult& result,
              std::shared_ptr<const Model> model);
  // A model of the query from the cache, without counting a lookup; null if none.
  std::shared_ptr<const Model> modelOf(std::span<const ExprRef> query);

  const CexCacheStats& stats() const { return stats_; }

 private:
  struct SatEntry {
    std::unordered_set<ExprRef> conjuncts;  // satisfied by `model`
    std::shared_ptr<const Model> model;
  };
  std::shared_ptr<const Model> findModel(std::span<const ExprRef> query);

  size_t capacity_;
  std::deque<SatEntry> sat_;                // most recently used first
  std::deque<std::vector<ExprRef>> unsat_;  // most recent first
  CexCacheStats stats_;
};

}  // namespace tandem::smt
