#include "mc/smt/z3_solver.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mc/expr/float64.h"
#include "mc/smt/assertion_stack.h"
#include "mc/smt/bounded_worker.h"
#include "mc/smt/model_extract.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/z3_translate.h"

namespace tandem::smt {

namespace {

class Z3ModelSource final : public TranslatedModelSource<Z3Translator> {
 public:
  Z3ModelSource(Z3Translator& tr, z3::model m) : TranslatedModelSource(tr), model_(std::move(m)) {}

 private:
  std::optional<BigInt> value(const z3::expr& t) override {
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

  z3::model model_;
};

// A Z3 context with its translator and solver, in destruction order (the context outlives every
// term): handed to an abandoned worker as one piece.
struct Z3Session {
  std::unique_ptr<z3::context> ctx;
  std::unique_ptr<Z3Translator> tr;
  std::unique_ptr<z3::solver> solver;
};

class Z3Solver final : public Solver {
 public:
  explicit Z3Solver(TermNaming naming) {
    z3_.ctx = std::make_unique<z3::context>();
    z3_.tr = std::make_unique<Z3Translator>(*z3_.ctx, std::move(naming));
    z3_.solver = std::make_unique<z3::solver>(*z3_.ctx);
    // Z3 replaces the process's SIGINT handler while a check runs (and cancels the check
    // itself): Tandem's own handler must see Ctrl-C, so that the run stops with its report.
    z3::params p(*z3_.ctx);
    p.set("ctrl_c", false);
    z3_.solver->set(p);
  }
  ~Z3Solver() override {
    // An abandoned call may still run in the session: its worker frees it when the call returns.
    if (worker_ && worker_->abandoned())
      worker_->adopt(std::make_shared<Z3Session>(std::move(z3_)));
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
  // Not Z3's `timeout` parameter: see bounded_worker.h.
  void setTimeout(unsigned ms) override { timeoutMs_ = ms; }

 protected:
  // Every call into the session that may run long (Z3 simplifies on add and push, and pop can
  // take seconds after f64 scopes) goes through the worker; a session abandoned after a stop
  // answers nothing more, and only the assertion stack follows the client.
  void doAdd(ExprRef formula) override {
    if (!dead_) {
      z3::expr t(*z3_.ctx);
      std::vector<z3::expr> sides;
      try {
        t = z3_.tr->term(formula);  // SmtUnsupported leaves the session untouched
        sides = z3_.tr->sideConstraints({&formula, 1});
      } catch (const z3::exception& ex) {
        throw SmtError(std::string("z3: ") + ex.msg());
      }
      sessionCall([s = z3_.solver.get(), t, sides] {
        for (const z3::expr& side : sides) s->add(side);
        s->add(t);
      });
    }
    stack_.add(formula);
  }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    core_.reset();
    if (dead_) return stopAnswer();
    std::vector<z3::expr> extra;
    try {
      for (ExprRef a : assumptions) extra.push_back(z3_.tr->term(a));
      for (const z3::expr& side : z3_.tr->sideConstraints(assumptions)) extra.push_back(side);
    } catch (const z3::exception& ex) {
      throw SmtError(std::string("z3: ") + ex.msg());
    }
    // Assumptions hold for this check only: Z3 takes them natively (a proxy literal for each that
    // is not one), keeps what it learned, and names the ones an unsat answer rests on.
    try {
      if (auto early = stoppedBeforeCheck()) return *early;
      z3::expr_vector assumed(*z3_.ctx);
      for (const z3::expr& e : extra) assumed.push_back(e);
      // Held by the job too: an abandoned job writes its answer into what it owns.
      auto raw = std::make_shared<z3::check_result>(z3::unknown);
      const BoundedWorker::Outcome outcome =
          call([s = z3_.solver.get(), assumed,
                raw] { *raw = assumed.size() == 0 ? s->check() : s->check(assumed); },
               timeoutMs_);
      if (outcome == BoundedWorker::Outcome::Abandoned) return stopAnswer();
      CheckResult r = answer(*raw, outcome == BoundedWorker::Outcome::Interrupted);
      if (r.isSat()) {
        Z3ModelSource source(*z3_.tr, z3_.solver->get_model());
        model_ = extractModel(stack_.with(assumptions), source);
      } else if (r.isUnsat()) {  // without assumptions, unsat rests on none of them
        core_ =
            assumptions.empty() ? std::vector<size_t>{} : coreIndices(extra, assumptions.size());
      }
      return r;
    } catch (const z3::exception& ex) {
      if (dead_) return stopAnswer();
      return CheckResult::unknown(std::string("z3 error: ") + ex.msg());
    }
  }

  // The positions of the assumptions in Z3's unsat core (a side constraint there is a fact of the
  // translation, not a choice of the client's, so it is left out).
  std::vector<size_t> coreIndices(const std::vector<z3::expr>& extra, size_t clientCount) const {
    std::vector<size_t> out;
    const z3::expr_vector core = z3_.solver->unsat_core();
    for (unsigned i = 0; i < core.size(); ++i)
      for (size_t j = 0; j < clientCount; ++j)
        if (z3::eq(core[i], extra[j])) {
          out.push_back(j);
          break;
        }
    return out;
  }

  void doPush() override {
    if (!dead_) sessionCall([s = z3_.solver.get()] { s->push(); });
    stack_.push();
  }
  void doPop(unsigned levels) override {
    stack_.pop(levels);  // throws before touching Z3 when there are too few scopes
    if (!dead_) sessionCall([s = z3_.solver.get(), levels] { s->pop(levels); });
  }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
    into.backendSeconds += ownStats().seconds;
  }

 private:
  // Runs `job` on the worker under the run's stop, and `queryMs` (0: none) as a per-call limit.
  BoundedWorker::Outcome call(std::function<void()> job, unsigned queryMs = 0) {
    const QueryStop& stop = queryStop();
    BoundedWorker::Limits limits;
    limits.runDeadline = stop.deadline;
    limits.stop = stop.stopNow;
    if (queryMs)
      limits.callDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(queryMs);
    if (!worker_)
      worker_ = std::make_unique<BoundedWorker>([ctx = z3_.ctx.get()] { ctx->interrupt(); });
    const BoundedWorker::Outcome outcome = worker_->run(std::move(job), limits);
    if (outcome == BoundedWorker::Outcome::Abandoned) dead_ = true;
    return outcome;
  }

  // An add, push or pop. One that the run's stop interrupted leaves the session in a state nobody
  // reads any more (every later check answers unknown): its error is not the client's.
  void sessionCall(std::function<void()> job) {
    try {
      call(std::move(job));
    } catch (const z3::exception& ex) {
      if (!stoppedBeforeCheck()) throw SmtError(std::string("z3: ") + ex.msg());
      dead_ = true;
    }
  }

  CheckResult stopAnswer() const {
    return stoppedBeforeCheck().value_or(CheckResult::unknown("interrupted"));
  }

  CheckResult answer(z3::check_result r, bool expired) const {
    if (r == z3::sat) return CheckResult::sat();
    if (r == z3::unsat) return CheckResult::unsat();
    std::string why = z3_.solver->reason_unknown();
    // An interrupt shows as "canceled".
    if (expired && queryStop().stopNow && queryStop().stopNow())
      return CheckResult::unknown("interrupted");
    if (expired || why.find("timeout") != std::string::npos) return CheckResult::unknown("timeout");
    return CheckResult::unknown(why.empty() ? "z3: unknown" : why);
  }

  Z3Session z3_;
  std::unique_ptr<BoundedWorker> worker_;    // its thread starts with the first limited call
  std::optional<std::vector<size_t>> core_;  // of the last check, when it answered unsat
  AssertionStack stack_;
  std::optional<Model> model_;
  unsigned timeoutMs_ = 0;
  bool dead_ = false;  // abandoned after a stop, or left inconsistent by one: Z3 is not called
};

}  // namespace

std::unique_ptr<Solver> makeZ3Solver(TermNaming naming) {
  return std::make_unique<Z3Solver>(std::move(naming));
}

}  // namespace tandem::smt
