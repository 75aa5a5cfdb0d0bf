#include "mc/smt/independent_solver.h"

#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mc/smt/assertion_stack.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_decorator.h"
#include "mc/smt/union_find.h"

namespace tandem::smt {

namespace {

class IndependentSolver final : public SolverDecorator {
 public:
  // The inner checks do not see the client's assumptions as assumptions.
  std::optional<std::vector<size_t>> unsatAssumptions() const override { return std::nullopt; }
  explicit IndependentSolver(std::unique_ptr<Solver> inner) : SolverDecorator(std::move(inner)) {}

  std::string name() const override { return wrappedName("independence"); }
  unsigned level() const override { return stack_.level(); }
  const Model& model() const override {
    if (!model_) throw SmtError("independence: no model: the last check did not answer sat");
    return *model_;
  }

 protected:
  // The wrapped solver stays empty between checks; each group is checked in a scope of its own.
  void doAdd(ExprRef formula) override {
    requireSupported(formula);
    stack_.add(formula);
  }
  void doPush() override { stack_.push(); }
  void doPop(unsigned levels) override { stack_.pop(levels); }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    for (ExprRef a : assumptions) requireSupported(a);
    std::vector<ExprRef> formulas;
    std::unordered_set<ExprRef> seen;
    for (ExprRef f : stack_.with(assumptions)) {
      if (f->isFalse()) return CheckResult::unsat();
      if (!f->isTrue() && seen.insert(f).second) formulas.push_back(f);
    }
    Model merged;
    std::string unknownWhy;
    for (const std::vector<ExprRef>& group : groups(formulas)) {
      ++groupsChecked_;
      inner().push();
      CheckResult r;
      try {
        for (ExprRef f : group) inner().add(f);
        r = inner().check();
        if (r.isSat()) merged.merge(inner().model());
      } catch (...) {
        inner().pop();
        throw;
      }
      inner().pop();
      if (r.isUnsat()) return r;
      if (r.isUnknown() && unknownWhy.empty()) unknownWhy = r.reason;
    }
    if (!unknownWhy.empty()) return CheckResult::unknown(unknownWhy);
    model_ = std::move(merged);
    return CheckResult::sat();
  }

  void addChainStats(SolverStats& into) const override {
    SolverDecorator::addChainStats(into);
    into.independentGroups += groupsChecked_;
  }

 private:
  const std::vector<uint64_t>& keysOf(ExprRef f) {
    auto it = keys_.find(f);
    if (it == keys_.end()) it = keys_.emplace(f, dependencyKeys(f)).first;
    return it->second;
  }

  // Formulas linked by a shared key, in the order of their first formula; each in input order.
  std::vector<std::vector<ExprRef>> groups(const std::vector<ExprRef>& formulas) {
    UnionFind uf(formulas.size());
    std::unordered_map<uint64_t, size_t> owner;
    for (size_t i = 0; i < formulas.size(); ++i)
      for (uint64_t k : keysOf(formulas[i])) {
        auto [it, fresh] = owner.emplace(k, i);
        if (!fresh) uf.unite(i, it->second);
      }
    std::map<size_t, std::vector<ExprRef>> byRoot;
    for (size_t i = 0; i < formulas.size(); ++i) byRoot[uf.find(i)].push_back(formulas[i]);
    std::vector<std::vector<ExprRef>> out;
    for (auto& [root, group] : byRoot) out.push_back(std::move(group));
    return out;
  }

  AssertionStack stack_;
  std::unordered_map<ExprRef, std::vector<uint64_t>> keys_;
  std::optional<Model> model_;
  uint64_t groupsChecked_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeIndependentSolver(std::unique_ptr<Solver> inner) {
  return std::make_unique<IndependentSolver>(std::move(inner));
}

}  // namespace tandem::smt
