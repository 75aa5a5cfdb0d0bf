#include "mc/smt/caching_solver.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "mc/smt/smt_error.h"
#include "mc/smt/solver_decorator.h"

namespace tandem::smt {

namespace {

// The formulas of a query as a set: hash-consing makes equal formulas the same pointer.
using QueryKey = std::vector<ExprRef>;

struct QueryKeyHash {
  size_t operator()(const QueryKey& k) const {
    size_t h = k.size();
    for (ExprRef e : k) h ^= e->hash + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

class CachingSolver final : public MirroringDecorator {
 public:
  // The inner checks do not see the client's assumptions as assumptions.
  std::optional<std::vector<size_t>> unsatAssumptions() const override { return std::nullopt; }
  explicit CachingSolver(std::unique_ptr<Solver> inner) : MirroringDecorator(std::move(inner)) {}

  std::string name() const override { return wrappedName("cache"); }
  const Model& model() const override {
    if (!model_) throw SmtError("cache: no model: the last check did not answer sat");
    return *model_;
  }

 protected:
  // The wrapped solver sees every assertion, so a miss is answered by it directly.
  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    QueryKey key = assertions().with(assumptions);
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    if (auto it = entries_.find(key); it != entries_.end()) {
      ++hits_;
      model_ = it->second.model;
      return it->second.result;
    }
    ++misses_;
    CheckResult r = inner().check(assumptions);
    model_ = r.isSat() ? std::make_shared<const Model>(inner().model()) : nullptr;
    if (!r.isUnknown()) entries_.emplace(std::move(key), Entry{r, model_});
    return r;
  }

  void addChainStats(SolverStats& into) const override {
    MirroringDecorator::addChainStats(into);
    into.cacheHits += hits_;
    into.cacheMisses += misses_;
  }

 private:
  struct Entry {
    CheckResult result;
    std::shared_ptr<const Model> model;
  };
  std::unordered_map<QueryKey, Entry, QueryKeyHash> entries_;
  std::shared_ptr<const Model> model_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeCachingSolver(std::unique_ptr<Solver> inner) {
  return std::make_unique<CachingSolver>(std::move(inner));
}

}  // namespace tandem::smt
