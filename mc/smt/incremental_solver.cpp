#include "mc/smt/incremental_solver.h"

#include <unordered_set>
#include <vector>

#include "mc/smt/assertion_stack.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_decorator.h"

namespace tandem::smt {

namespace {

class IncrementalSolver final : public SolverDecorator {
 public:
  explicit IncrementalSolver(std::unique_ptr<Solver> inner) : SolverDecorator(std::move(inner)) {}
  // The inner checks do not see the client's assumptions as assumptions.
  std::optional<std::vector<size_t>> unsatAssumptions() const override { return std::nullopt; }

  std::string name() const override { return wrappedName("incremental"); }
  Capabilities capabilities() const override {
    Capabilities c = inner().capabilities();
    c.incremental = true;
    return c;
  }
  unsigned level() const override { return client_.level(); }

 protected:
  // The client's scopes are kept here; the wrapped solver only sees conjuncts, at check time.
  // A formula outside the translation is refused now, as Solver::add promises.
  void doAdd(ExprRef formula) override {
    if (!supported_.count(formula)) {
      requireSupported(formula);
      supported_.insert(formula);
    }
    client_.add(formula);
  }
  void doPush() override { client_.push(); }
  void doPop(unsigned levels) override { client_.pop(levels); }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    const std::vector<ExprRef> query = client_.with(assumptions);
    size_t common = 0;
    while (common < held_.size() && common < query.size() && held_[common] == query[common])
      ++common;
    if (held_.size() > common) {
      inner().pop(static_cast<unsigned>(held_.size() - common));
      held_.resize(common);
    }
    for (size_t i = common; i < query.size(); ++i) {
      inner().push();
      try {
        inner().add(query[i]);
      } catch (...) {
        inner().pop();
        throw;
      }
      held_.push_back(query[i]);
    }
    return inner().check();
  }

 private:
  AssertionStack client_;      // what the client asserted, in its own scopes
  std::vector<ExprRef> held_;  // asserted in the wrapped solver, one scope each, in order
  std::unordered_set<ExprRef> supported_;  // formulas already found inside the translation
};

}  // namespace

std::unique_ptr<Solver> makeIncrementalSolver(std::unique_ptr<Solver> inner) {
  return std::make_unique<IncrementalSolver>(std::move(inner));
}

}  // namespace tandem::smt
