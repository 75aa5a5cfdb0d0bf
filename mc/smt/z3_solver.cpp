#include "mc/smt/z3_solver.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "mc/expr/float64.h"
#include "mc/smt/assertion_stack.h"
#include "mc/smt/interrupt_timer.h"
#include "mc/smt/model_extract.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/z3_translate.h"

namespace tandem::smt {

namespace {

class Z3ModelSource final : public ModelSource {
 public:
  Z3ModelSource(Z3Translator& tr, z3::model m) : tr_(tr), model_(std::move(m)) {}

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
  std::optional<BigInt> value(const z3::expr& t) {
    z3::expr v = model_.eval(t, /*model_completion=*/true);
    if (v.is_true()) return BigInt(1);
    if (v.is_false()) return BigInt(0);
    if (v.is_fpa()) return floatBits(v);
    if (!v.is_numeral()) return std::nullopt;
    auto n = BigInt::parse(Z3_get_numeral_string(v.ctx(), v));
    if (!n) return std::nullopt;
    if (v.is_bv()) return BigInt(n->wrapTo(v.get_sort().bv_size()));  // unsigned -> signed
    return n;
  }

  // An f64 value as its bit pattern held signed (as FloatConst); NaNs as the quiet NaN (the
  // evaluator's), which has no IEEE-BV view Z3 fixes.
  std::optional<BigInt> floatBits(const z3::expr& v) {
    z3::context& c = v.ctx();
    if (Z3_fpa_is_numeral_nan(c, v)) return BigInt(static_cast<int64_t>(f64::kQuietNaNBits));
    z3::expr bits(c, Z3_mk_fpa_to_ieee_bv(c, v));
    c.check_error();
    bits = bits.simplify();
    uint64_t u = 0;
    if (!Z3_get_numeral_uint64(c, bits, &u)) return std::nullopt;
    return BigInt(static_cast<int64_t>(u));
  }

  Z3Translator& tr_;
  z3::model model_;
};

class Z3Solver final : public Solver {
 public:
  explicit Z3Solver(TermNaming naming)
      : ctx_(std::make_unique<z3::context>()),
        tr_(std::make_unique<Z3Translator>(*ctx_, std::move(naming))),
        solver_(std::make_unique<z3::solver>(*ctx_)) {
    // Z3 replaces the process's SIGINT handler while a check runs (and cancels the check
    // itself): Tandem's own handler must see Ctrl-C, so that the run stops with its report.
    z3::params p(*ctx_);
    p.set("ctrl_c", false);
    solver_->set(p);
  }

  std::string name() const override { return "z3"; }
  Capabilities capabilities() const override {
    return {.incremental = true, .quantifiers = true, .timeouts = true};
  }
  unsigned level() const override { return stack_.level(); }
  const Model& model() const override {
    if (!model_) throw SmtError("z3: no model: the last check did not answer sat");
    return *model_;
  }
  std::optional<std::vector<size_t>> unsatAssumptions() const override { return core_; }
  // Not Z3's `timeout` parameter: see interrupt_timer.h.
  void setTimeout(unsigned ms) override { timeoutMs_ = ms; }

 protected:
  void doAdd(ExprRef formula) override {
    try {
      z3::expr t = tr_->term(formula);  // SmtUnsupported leaves the session untouched
      for (const z3::expr& side : tr_->sideConstraints({&formula, 1})) solver_->add(side);
      solver_->add(t);
    } catch (const z3::exception& ex) {
      throw SmtError(std::string("z3: ") + ex.msg());
    }
    stack_.add(formula);
  }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    std::vector<z3::expr> extra;
    try {
      for (ExprRef a : assumptions) extra.push_back(tr_->term(a));
      for (const z3::expr& side : tr_->sideConstraints(assumptions)) extra.push_back(side);
    } catch (const z3::exception& ex) {
      throw SmtError(std::string("z3: ") + ex.msg());
    }
    // Assumptions hold for this check only: Z3 takes them natively (a proxy literal for each that
    // is not one), keeps what it learned, and names the ones an unsat answer rests on.
    core_.reset();
    try {
      if (auto early = stoppedBeforeCheck()) return *early;
      z3::expr_vector assumed(*ctx_);
      for (const z3::expr& e : extra) assumed.push_back(e);
      const bool limited = armTimer();
      const z3::check_result raw = extra.empty() ? solver_->check() : solver_->check(assumed);
      const bool expired = limited && timer_->disarm();
      CheckResult r = answer(raw, expired);
      if (r.isSat()) {
        Z3ModelSource source(*tr_, solver_->get_model());
        model_ = extractModel(stack_.with(assumptions), source);
      } else if (r.isUnsat()) {  // without assumptions, unsat rests on none of them
        core_ =
            assumptions.empty() ? std::vector<size_t>{} : coreIndices(extra, assumptions.size());
      }
      return r;
    } catch (const z3::exception& ex) {
      if (timer_) timer_->disarm();
      return CheckResult::unknown(std::string("z3 error: ") + ex.msg());
    }
  }

  // The positions of the assumptions in Z3's unsat core (a side constraint there is a fact of the
  // translation, not a choice of the client's, so it is left out).
  std::vector<size_t> coreIndices(const std::vector<z3::expr>& extra, size_t clientCount) const {
    std::vector<size_t> out;
    const z3::expr_vector core = solver_->unsat_core();
    for (unsigned i = 0; i < core.size(); ++i)
      for (size_t j = 0; j < clientCount; ++j)
        if (z3::eq(core[i], extra[j])) {
          out.push_back(j);
          break;
        }
    return out;
  }

  void doPush() override {
    solver_->push();
    stack_.push();
  }
  void doPop(unsigned levels) override {
    stack_.pop(levels);  // throws before touching Z3 when there are too few scopes
    solver_->pop(levels);
  }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
    into.backendSeconds += ownStats().seconds;
  }

 private:
  CheckResult answer(z3::check_result r, bool expired) const {
    if (r == z3::sat) return CheckResult::sat();
    if (r == z3::unsat) return CheckResult::unsat();
    std::string why = solver_->reason_unknown();
    // An interrupt from the timer shows as "canceled".
    if (expired && queryStop().stopNow && queryStop().stopNow())
      return CheckResult::unknown("interrupted");
    if (expired || why.find("timeout") != std::string::npos) return CheckResult::unknown("timeout");
    return CheckResult::unknown(why.empty() ? "z3: unknown" : why);
  }

  // Arms the watchdog for this check's limit (the per-query one, capped by the run's deadline,
  // and the stop poll); false when the check has no limit at all.
  bool armTimer() {
    const QueryStop& stop = queryStop();
    if (!timeoutMs_ && !stop.any()) return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::hours(24 * 365);
    if (timeoutMs_)
      deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs_);
    if (stop.deadline) deadline = std::min(deadline, *stop.deadline);
    if (!timer_)
      timer_ = std::make_unique<InterruptTimer>([ctx = ctx_.get()] { ctx->interrupt(); });
    timer_->arm(deadline, stop.stopNow);
    return true;
  }

  // Declaration order is destruction order reversed: the context outlives every term.
  std::unique_ptr<z3::context> ctx_;
  std::unique_ptr<Z3Translator> tr_;
  std::unique_ptr<z3::solver> solver_;
  std::optional<std::vector<size_t>> core_;  // of the last check, when it answered unsat
  std::unique_ptr<InterruptTimer> timer_;    // after ctx_: stopped before the context goes
  AssertionStack stack_;
  std::optional<Model> model_;
  unsigned timeoutMs_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeZ3Solver(TermNaming naming) {
  return std::make_unique<Z3Solver>(std::move(naming));
}

}  // namespace tandem::smt
