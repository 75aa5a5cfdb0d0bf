#include "mc/smt/cross_check_solver.h"

#include <ostream>

#include "mc/smt/assertion_stack.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/smtlib_translate.h"
#include "mc/smt/solver_decorator.h"

namespace tandem::smt {

namespace {

class CrossCheckSolver final : public SolverDecorator {
 public:
  CrossCheckSolver(std::unique_ptr<Solver> primary, std::unique_ptr<Solver> other,
                   std::ostream& report, TermNaming naming)
      : SolverDecorator(std::move(primary)),
        other_(std::move(other)),
        report_(report),
        naming_(std::move(naming)) {
    if (!other_) throw SmtError("cross-check: no second solver");
  }

  std::string name() const override {
    return "cross-check(" + inner().name() + ", " + other_->name() + ")";
  }
  Capabilities capabilities() const override {
    const Capabilities a = inner().capabilities(), b = other_->capabilities();
    return {.incremental = a.incremental && b.incremental,
            .quantifiers = a.quantifiers && b.quantifiers,
            .timeouts = a.timeouts && b.timeouts};
  }
  const Model& model() const override {
    if (!model_) throw SmtError("cross-check: no model: the last check did not answer sat");
    return *model_;
  }
  void setTimeout(unsigned ms) override {
    inner().setTimeout(ms);
    other_->setTimeout(ms);
  }
  void setQueryStop(QueryStop stop) override {
    Solver::setQueryStop(stop);
    inner().setQueryStop(stop);
    other_->setQueryStop(std::move(stop));
  }

 protected:
  void doAdd(ExprRef formula) override {
    inner().add(formula);
    other_->add(formula);
    stack_.add(formula);
  }
  void doPush() override {
    inner().push();
    other_->push();
    stack_.push();
  }
  void doPop(unsigned levels) override {
    stack_.pop(levels);
    inner().pop(levels);
    other_->pop(levels);
  }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    ++checks_;
    const std::vector<ExprRef> formulas = stack_.with(assumptions);
    CheckResult a = inner().check(assumptions);
    if (a.isSat()) validate(inner(), formulas);
    CheckResult b = other_->check(assumptions);
    if (b.isSat()) validate(*other_, formulas);
    if ((a.isSat() && b.isUnsat()) || (a.isUnsat() && b.isSat())) {
      ++disagreements_;
      report_ << "*** SOLVER DISAGREEMENT on query " << checks_ << ": " << inner().name()
              << " says " << a.toString() << ", " << other_->name() << " says " << b.toString()
              << ". The query:\n"
              << script(formulas) << std::flush;
      return CheckResult::unknown("back ends disagree: " + inner().name() + " " + a.toString() +
                                  ", " + other_->name() + " " + b.toString());
    }
    Solver& answered = a.isUnknown() && !b.isUnknown() ? *other_ : inner();
    const CheckResult& r = &answered == &inner() ? a : b;
    if (r.isSat()) model_ = answered.model();
    return r;
  }

  void addChainStats(SolverStats& into) const override {
    SolverDecorator::addChainStats(into);
    into.addChainCounters(other_->stats());
    into.crossChecks += checks_;
    into.disagreements += disagreements_;
    into.modelFailures += modelFailures_;
  }

 private:
  // A sat model must make every formula true under Tandem's own evaluator.
  void validate(const Solver& s, const std::vector<ExprRef>& formulas) {
    const Model& m = s.model();
    for (size_t i = 0; i < formulas.size(); ++i) {
      if (m.evalBool(formulas[i]) != false) continue;  // true, or not determined by the model
      ++modelFailures_;
      report_ << "*** MODEL CHECK FAILED on query " << checks_ << ": the model of " << s.name()
              << " falsifies formula " << i << ". The model:\n"
              << m.toString(naming_) << "The query:\n"
              << script(formulas) << std::flush;
      return;
    }
  }

  std::string script(const std::vector<ExprRef>& formulas) {
    if (!text_) text_ = std::make_unique<SmtLibTranslator>(naming_);
    return text_->script(formulas);
  }

  std::unique_ptr<Solver> other_;
  std::ostream& report_;
  TermNaming naming_;
  std::unique_ptr<SmtLibTranslator> text_;  // made on the first report
  AssertionStack stack_;
  std::optional<Model> model_;
  uint64_t checks_ = 0, disagreements_ = 0, modelFailures_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeCrossCheckSolver(std::unique_ptr<Solver> primary,
                                             std::unique_ptr<Solver> other, std::ostream& report,
                                             TermNaming naming) {
  return std::make_unique<CrossCheckSolver>(std::move(primary), std::move(other), report,
                                            std::move(naming));
}

}  // namespace tandem::smt
