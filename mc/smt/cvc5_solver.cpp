#include "mc/smt/cvc5_solver.h"

#include <optional>
#include <sstream>
#include <string>

#include "mc/smt/assertion_stack.h"
#include "mc/smt/cvc5_translate.h"
#include "mc/smt/model_extract.h"
#include "mc/smt/smt_error.h"

namespace tandem::smt {

namespace {

// cvc5 answers value queries only until the next change to the session, so the model is read
// out right after the check.
class Cvc5ModelSource final : public ModelSource {
 public:
  Cvc5ModelSource(Cvc5Translator& tr, cvc5::Solver& s) : tr_(tr), s_(s) {}

  std::optional<BigInt> scalar(ExprRef e) override { return value(tr_.term(e)); }
  std::optional<BigInt> length(ExprRef array) override {
    auto len = tr_.length(array);
    if (!len) return std::nullopt;
    return value(*len);
  }
  std::optional<BigInt> element(ExprRef array, const BigInt& index) override {
    return value(tr_.selectAt(array, index));
  }

 private:
  std::optional<BigInt> value(const cvc5::Term& t) {
    cvc5::Term v = s_.getValue(t);
    if (v.isBooleanValue()) return BigInt(v.getBooleanValue() ? 1 : 0);
    if (v.isIntegerValue()) return BigInt::parse(v.getIntegerValue());
    if (v.isBitVectorValue()) {
      auto n = BigInt::parse(v.getBitVectorValue(10));
      if (!n) return std::nullopt;
      return BigInt(n->wrapTo(v.getSort().getBitVectorSize()));  // unsigned -> signed
    }
    return std::nullopt;
  }

  Cvc5Translator& tr_;
  cvc5::Solver& s_;
};

class Cvc5Solver final : public Solver {
 public:
  explicit Cvc5Solver(TermNaming naming) : solver_(std::make_unique<cvc5::Solver>()) {
    solver_->setOption("produce-models", "true");
    solver_->setOption("incremental", "true");
    solver_->setLogic("ALL");
    tr_ = std::make_unique<Cvc5Translator>(*solver_, std::move(naming));
  }
  ~Cvc5Solver() override { tr_.reset(); }  // terms before their solver

  std::string name() const override { return "cvc5"; }
  Capabilities capabilities() const override {
    return {.incremental = true, .quantifiers = true, .timeouts = true};
  }
  unsigned level() const override { return stack_.level(); }
  const Model& model() const override {
    if (!model_) throw SmtError("cvc5: no model: the last check did not answer sat");
    return *model_;
  }
  // cvc5 1.0.3 aborts the process (inside CaDiCaL) when a time limit interrupts its default lazy
  // bit-blaster with models enabled. A limit therefore switches to the internal bit-blaster, which
  // cvc5 allows only before the first assertion; slower on some bit-vector queries, but those
  // then end as "unknown (timeout)" instead of killing the process.
  void setTimeout(unsigned ms) override {
    if (ms && !internalBitBlaster_) {
      if (initialized_)
        throw SmtError(
            "cvc5: set the time limit before the first assertion or check (the bit-blaster "
            "that can be interrupted safely must be chosen before cvc5 is initialised)");
      solver_->setOption("bv-solver", "bitblast-internal");
      internalBitBlaster_ = true;
    }
    solver_->setOption("tlimit-per", std::to_string(ms));  // 0: no limit
  }

 protected:
  void doAdd(ExprRef formula) override {
    try {
      cvc5::Term t = tr_->term(formula);
      initialized_ = true;
      for (const cvc5::Term& side : tr_->sideConstraints({&formula, 1}))
        solver_->assertFormula(side);
      solver_->assertFormula(t);
    } catch (const cvc5::CVC5ApiException& ex) {
      throw SmtError(std::string("cvc5: ") + ex.what());
    }
    stack_.add(formula);
  }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    std::vector<cvc5::Term> extra;
    try {
      for (ExprRef a : assumptions) extra.push_back(tr_->term(a));
      for (const cvc5::Term& side : tr_->sideConstraints(assumptions)) extra.push_back(side);
    } catch (const cvc5::CVC5ApiException& ex) {
      throw SmtError(std::string("cvc5: ") + ex.what());
    }
    initialized_ = true;
    try {
      cvc5::Result r = extra.empty() ? solver_->checkSat() : solver_->checkSatAssuming(extra);
      if (r.isSat()) {
        Cvc5ModelSource source(*tr_, *solver_);
        model_ = extractModel(stack_.with(assumptions), source);
        return CheckResult::sat();
      }
      if (r.isUnsat()) return CheckResult::unsat();
      std::ostringstream why;
      why << r.getUnknownExplanation();
      if (r.getUnknownExplanation() == cvc5::TIMEOUT) return CheckResult::unknown("timeout");
      return CheckResult::unknown("cvc5: " + why.str());
    } catch (const cvc5::CVC5ApiException& ex) {
      return CheckResult::unknown(std::string("cvc5 error: ") + ex.what());
    }
  }

  void doPush() override {
    solver_->push();
    stack_.push();
  }
  void doPop(unsigned levels) override {
    stack_.pop(levels);
    solver_->pop(levels);
  }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
    into.backendSeconds += ownStats().seconds;
  }

 private:
  std::unique_ptr<cvc5::Solver> solver_;
  std::unique_ptr<Cvc5Translator> tr_;
  AssertionStack stack_;
  std::optional<Model> model_;
  bool initialized_ = false;  // an assertion or check happened: expert options are fixed
  bool internalBitBlaster_ = false;
};

}  // namespace

std::unique_ptr<Solver> makeCvc5Solver(TermNaming naming) {
  return std::make_unique<Cvc5Solver>(std::move(naming));
}

}  // namespace tandem::smt
