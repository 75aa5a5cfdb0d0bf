#include "mc/smt/counterexample_cache.h"

#include <algorithm>

namespace tandem::smt {

namespace {

using ConjunctSet = std::unordered_set<ExprRef>;

// `false`, or a conjunct beside its negation: unsat by its shape.
bool contradictory(std::span<const ExprRef> query, const ConjunctSet& set) {
  return std::any_of(query.begin(), query.end(), [&](ExprRef c) {
    return c->isFalse() || (c->op == Op::Not && set.count(c->kid(0)) != 0);
  });
}

bool contains(const ConjunctSet& set, std::span<const ExprRef> xs) {
  return std::all_of(xs.begin(), xs.end(), [&](ExprRef c) { return set.count(c) != 0; });
}

}  // namespace

std::optional<CexAnswer> CounterexampleCache::lookup(std::span<const ExprRef> query) {
  const ConjunctSet set(query.begin(), query.end());
  if (contradictory(query, set)) {
    ++stats_.unsatHits;
    return CexAnswer{CheckResult::unsat(), nullptr};
  }
  for (const std::vector<ExprRef>& u : unsat_)
    if (contains(set, u)) {
      ++stats_.unsatHits;
      return CexAnswer{CheckResult::unsat(), nullptr};
    }
  if (auto m = findModel(query)) {
    ++stats_.satHits;
    return CexAnswer{CheckResult::sat(), std::move(m)};
  }
  ++stats_.misses;
  return std::nullopt;
}

std::shared_ptr<const Model> CounterexampleCache::modelOf(std::span<const ExprRef> query) {
  return findModel(query);
}

std::shared_ptr<const Model> CounterexampleCache::findModel(std::span<const ExprRef> query) {
  for (auto it = sat_.begin(); it != sat_.end(); ++it) {
    // Newest conjuncts first: a path condition grows at its end, so a model that fails the
    // query usually fails there, after one evaluation rather than a pass over the whole path.
    const bool holds = std::all_of(query.rbegin(), query.rend(), [&](ExprRef c) {
      return c->isTrue() || it->conjuncts.count(c) || it->model->evalBool(c) == true;
    });
    if (!holds) continue;
    std::shared_ptr<const Model> m = it->model;
    // The entry now also vouches for the query's conjuncts; it moves to the front.
    ConjunctSet grown = std::move(it->conjuncts);
    grown.insert(query.begin(), query.end());
    sat_.erase(it);
    sat_.push_front(SatEntry{std::move(grown), m});
    return m;
  }
  if (std::all_of(query.begin(), query.end(), [](ExprRef c) { return c->isTrue(); }))
    return std::make_shared<const Model>();
  return nullptr;
}

void CounterexampleCache::insert(std::span<const ExprRef> query, const CheckResult& result,
                                 std::shared_ptr<const Model> model) {
  if (result.isSat() && model) {
    sat_.push_front(SatEntry{ConjunctSet(query.begin(), query.end()), std::move(model)});
    if (sat_.size() > capacity_) sat_.pop_back();
  } else if (result.isUnsat()) {
    unsat_.emplace_front(query.begin(), query.end());
    if (unsat_.size() > capacity_) unsat_.pop_back();
  }
}

}  // namespace tandem::smt
