// Base of the solver decorators: forwards everything to the wrapped solver, so a decorator
// overrides only what it changes.
#pragma once

#include <memory>
#include <string>

#include "mc/smt/assertion_stack.h"
#include "mc/smt/solver.h"

namespace tandem::smt {

class SolverDecorator : public Solver {
 public:
  Capabilities capabilities() const override { return inner_->capabilities(); }
  unsigned level() const override { return inner_->level(); }
  const Model& model() const override { return inner_->model(); }
  // Right when the decorator hands the client's assumptions down unchanged; those that do not
  // (slicing, caching, prefix synchronisation) answer nullopt.
  std::optional<std::vector<size_t>> unsatAssumptions() const override {
    return inner_->unsatAssumptions();
  }
  void setTimeout(unsigned ms) override { inner_->setTimeout(ms); }
  void setQueryStop(QueryStop stop) override {
    Solver::setQueryStop(stop);  // so that check() answers at once once the run has stopped
    inner_->setQueryStop(std::move(stop));
  }

 protected:
  explicit SolverDecorator(std::unique_ptr<Solver> inner);
  Solver& inner() const { return *inner_; }
  // "<decorator>(<inner name>)".
  std::string wrappedName(const std::string& decorator) const;

  void doAdd(ExprRef formula) override { inner_->add(formula); }
  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    return inner_->check(assumptions);
  }
  void doPush() override { inner_->push(); }
  void doPop(unsigned levels) override { inner_->pop(levels); }
  void addChainStats(SolverStats& into) const override;

 private:
  std::unique_ptr<Solver> inner_;
};

// A decorator that keeps its own copy of the wrapped solver's assertion stack (the cache for its
// keys, the log for its scripts): only what the wrapped solver accepted, in the same scopes.
class MirroringDecorator : public SolverDecorator {
 protected:
  using SolverDecorator::SolverDecorator;
  const AssertionStack& assertions() const { return stack_; }

  void doAdd(ExprRef formula) override {
    SolverDecorator::doAdd(formula);
    stack_.add(formula);
  }
  void doPush() override {
    SolverDecorator::doPush();
    stack_.push();
  }
  void doPop(unsigned levels) override {
    SolverDecorator::doPop(levels);
    stack_.pop(levels);
  }

 private:
  AssertionStack stack_;
};

}  // namespace tandem::smt
