#include "mc/smt/cvc5_solver.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "mc/expr/float64.h"
#include "mc/smt/assertion_stack.h"
#include "mc/smt/bounded_worker.h"
#include "mc/smt/cvc5_translate.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/model_extract.h"
#include "mc/smt/smt_error.h"

namespace tandem::smt {

namespace {

// cvc5 answers value queries only until the next change to the session, so the model is read
// out right after the check.
class Cvc5ModelSource final : public TranslatedModelSource<Cvc5Translator> {
 public:
  Cvc5ModelSource(Cvc5Translator& tr, cvc5::Solver& s) : TranslatedModelSource(tr), s_(s) {}

 private:
  std::optional<BigInt> value(const cvc5::Term& t) override {
    cvc5::Term v = s_.getValue(t);
    if (v.isBooleanValue()) return BigInt(v.getBooleanValue() ? 1 : 0);
    if (v.isIntegerValue()) return BigInt::parse(v.getIntegerValue());
    if (v.isFloatingPointNaN()) return BigInt(static_cast<int64_t>(f64::kQuietNaNBits));
    if (v.isFloatingPointValue()) {  // the bit pattern, held signed (as FloatConst)
      auto n = BigInt::parse(std::get<2>(v.getFloatingPointValue()).getBitVectorValue(10));
      if (!n) return std::nullopt;
      return BigInt(n->wrapTo(64));
    }
    if (v.isBitVectorValue()) {
      auto n = BigInt::parse(v.getBitVectorValue(10));
      if (!n) return std::nullopt;
      return BigInt(n->wrapTo(v.getSort().getBitVectorSize()));  // unsigned -> signed
    }
    return std::nullopt;
  }

  cvc5::Solver& s_;
};

// One cvc5 instance (which is also its term manager) and its translator.
struct Cvc5Session {
  Cvc5Session(const TermNaming& naming, bool models, bool cores)
      : solver(std::make_unique<cvc5::Solver>()) {
    solver->setOption("incremental", "true");
    if (models) solver->setOption("produce-models", "true");
    if (cores) {
      // Without minimisation cvc5 1.0.3 names nearly every assumption: no help to the client.
      solver->setOption("produce-unsat-assumptions", "true");
      solver->setOption("produce-unsat-cores", "true");
      solver->setOption("minimal-unsat-cores", "true");
    }
    solver->setOption("bv-solver", "bitblast-internal");
    solver->setOption("bv-sat-solver", "minisat");
    solver->setLogic("ALL");
    tr = std::make_unique<Cvc5Translator>(*solver, naming);
  }
  ~Cvc5Session() { tr.reset(); }  // terms before their solver
  Cvc5Session(const Cvc5Session&) = delete;
  Cvc5Session& operator=(const Cvc5Session&) = delete;

  void add(ExprRef formula) {
    cvc5::Term t = tr->term(formula);  // SmtUnsupported leaves the session untouched
    for (const cvc5::Term& side : tr->sideConstraints({&formula, 1})) solver->assertFormula(side);
    solver->assertFormula(t);
  }
  // A check in two steps: the translation of its assumptions, then the check, which a stop may
  // abandon (it touches only this session).
  void prepare(std::span<const ExprRef> assumptions) {
    std::vector<cvc5::Term> extra;
    for (ExprRef a : assumptions) extra.push_back(tr->term(a));
    for (const cvc5::Term& side : tr->sideConstraints(assumptions)) extra.push_back(side);
    last = std::move(extra);
  }
  cvc5::Result check() {
    return last.empty() ? solver->checkSat() : solver->checkSatAssuming(last);
  }
  // After an unsat check: the positions of the client's assumptions (the first `clientCount` of
  // the last check's) among those cvc5 says it rests on; side constraints are facts, left out.
  std::vector<size_t> unsatCore(size_t clientCount) const {
    std::vector<size_t> out;
    if (last.empty()) return out;
    for (const cvc5::Term& t : solver->getUnsatAssumptions())
      for (size_t j = 0; j < clientCount && j < last.size(); ++j)
        if (t == last[j]) {
          out.push_back(j);
          break;
        }
    return out;
  }

  std::unique_ptr<cvc5::Solver> solver;
  std::unique_ptr<Cvc5Translator> tr;
  std::vector<cvc5::Term> last;  // the assumptions of the last check
};

// cvc5 1.0.3 aborts the whole process inside CaDiCaL, its default bit-blasting SAT solver, when
// a time limit interrupts a check ("can only get value in satisfied state"). Every session
// therefore bit-blasts with cvc5's internal bit-blaster and MiniSat, which stop cleanly (a model
// with i32 arithmetic that aborted 2 times in 20 runs under prove --solver cvc5 --timeout 5 did
// not abort in 90). A time limit gets a session of its own without models that decides sat/unsat
// within the limit; when it answers sat, the session with models checks again, under what is left
// of the limit, to produce the model: unlimited, that second check once ran for minutes after a
// 2 s answer (found by scripts/difftest). Without a limit only the model session exists. (The
// split predates the switch to MiniSat; one limited session with models may now do.)
//
// cvc5 1.0.3 has no interrupt, and its node manager is thread_local: every call into cvc5 runs on
// one pinned worker thread (bounded_worker.h). A check runs there under the run's stop
// (SIGINT/SIGTERM, the memory limit, the deadline): when the run stops, the check is abandoned
// after the worker's grace and the solver answers nothing more. A stop on SIGTERM during a
// 15 s query took 15 s to end the run before (shared/reported/testgen_classic_hang.tdm with
// --solver cvc5).
class Cvc5Solver final : public Solver {
 public:
  Cvc5Solver(TermNaming naming, bool cores)
      : naming_(std::move(naming)),
        cores_(cores),
        worker_(std::make_unique<BoundedWorker>([] {}, BoundedWorker::Placement::Pinned)) {
    onThread([&] { models_ = std::make_shared<Cvc5Session>(naming_, true, cores_); });
  }
  ~Cvc5Solver() override {
    // The sessions go on the thread that made them; an abandoned check still runs in one, so
    // they go with the worker's thread then.
    if (worker_->abandoned()) {
      worker_->adopt(
          std::make_shared<std::pair<std::shared_ptr<Cvc5Session>, std::shared_ptr<Cvc5Session>>>(
              std::move(models_), std::move(limited_)));
      return;
    }
    try {
      onThread([&] {
        models_.reset();
        limited_.reset();
      });
    } catch (...) {  // a destructor of cvc5's: nothing left to report it to
    }
  }

  std::string name() const override { return "cvc5"; }
  Capabilities capabilities() const override {
    return {.incremental = true, .quantifiers = true, .timeouts = true};
  }
  unsigned level() const override { return stack_.level(); }
  const Model& model() const override {
    if (!model_) throw SmtError("cvc5: no model: the last check did not answer sat");
    return *model_;
  }
  void setTimeout(unsigned ms) override { timeoutMs_ = ms; }

 protected:
  // Adds, pushes and pops wait for the next check, which applies them in the same hand-off to
  // the worker: each hand-off wakes the other thread (prove bench/models/bakery2.tdm took 1.7 s
  // instead of 0.25 s with one per call). What cvc5 would refuse is refused here, at once.
  void doAdd(ExprRef formula) override {
    requireSupported(formula);
    if (!dead_) pending_.push_back({Op::Kind::Add, formula, 0});
    stack_.add(formula);
  }

  std::optional<std::vector<size_t>> unsatAssumptions() const override { return core_; }

  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    model_.reset();
    core_.reset();
    const QueryStop& stop = queryStop();
    if (dead_) return stopAnswer();
    if (stop.stopNow && stop.stopNow()) return CheckResult::unknown("interrupted");
    // The run's deadline caps cvc5's own time limit, so a check usually ends by itself.
    unsigned limit = timeoutMs_;
    if (stop.deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            *stop.deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) return CheckResult::unknown("timeout");
      if (!limit || static_cast<uint64_t>(left) < limit) limit = static_cast<unsigned>(left);
    }
    // The whole query is one job on the worker (see checkJob); only cvc5's own checks in it may
    // be abandoned, and they touch only the session and the answer, which the job owns.
    BoundedWorker::Limits limits;
    limits.runDeadline = stop.deadline;
    limits.stop = stop.stopNow;
    limits.gate = std::make_shared<BoundedWorker::Gate>();
    auto answered = std::make_shared<CheckResult>(CheckResult::unknown("interrupted"));
    const BoundedWorker::Outcome outcome =
        worker_->run([this, assumptions, limit, gate = limits.gate,
                      answered] { checkJob(assumptions, limit, *gate, *answered); },
                     limits);
    if (outcome == BoundedWorker::Outcome::Abandoned) {
      dead_ = true;
      return stopAnswer();
    }
    return *answered;
  }

  void doPush() override {
    if (!dead_) pending_.push_back({Op::Kind::Push, nullptr, 0});
    stack_.push();
  }
  void doPop(unsigned levels) override {
    stack_.pop(levels);  // throws when there are too few scopes
    if (!dead_) pending_.push_back({Op::Kind::Pop, nullptr, levels});
  }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
    into.backendSeconds += ownStats().seconds;
  }

 private:
  // Runs `job` on the worker's thread and waits for it: a call that no stop abandons, so it may
  // use the caller's stack.
  template <class F>
  void onThread(F job) {
    worker_->run(std::function<void()>(std::move(job)), {});
  }

  // On the worker's thread: the query of doCheck. Returns at once when `gate` says the caller
  // walked away during a check (this object may be gone then).
  void checkJob(std::span<const ExprRef> assumptions, unsigned limit, BoundedWorker::Gate& gate,
                CheckResult& out) {
    // One check in `session`, the only part the caller may walk away from. nullopt: it did.
    auto checkIn = [&](std::shared_ptr<Cvc5Session> session) -> std::optional<CheckResult> {
      session->prepare(assumptions);
      gate.open();
      cvc5::Result r;
      try {
        r = session->check();
      } catch (...) {
        if (!gate.close()) return std::nullopt;
        throw;
      }
      if (!gate.close()) return std::nullopt;
      return answer(r);
    };
    try {
      applyPending();
      limitTo(limit);
      if (!limited_) limitModels(0);
      if (limited_) {
        std::optional<CheckResult> first = checkIn(limited_);
        if (!first) return;
        if (first->isUnsat() && cores_) core_ = limited_->unsatCore(assumptions.size());
        if (!first->isSat()) {
          out = *first;
          return;
        }
        limitModels(remaining(limit, queryStop()));
        if (modelsLimitMs_ == ~0u) {
          out = CheckResult::unknown("timeout");
          return;
        }
      }
      std::optional<CheckResult> r = checkIn(models_);
      if (!r) return;
      if (limited_ && !r->isSat()) {  // the unlimited session contradicts the limited one
        out = CheckResult::unknown("cvc5: sat within the time limit, but " + r->toString() +
                                   " when asked for a model");
        return;
      }
      if (r->isSat()) {
        Cvc5ModelSource source(*models_->tr, *models_->solver);
        model_ = extractModel(stack_.with(assumptions), source);
      } else if (r->isUnsat() && cores_) {
        core_ = models_->unsatCore(assumptions.size());
      }
      out = *r;
    } catch (const cvc5::CVC5ApiException& ex) {
      out = CheckResult::unknown(std::string("cvc5 error: ") + ex.what());
    }
  }

  CheckResult stopAnswer() const {
    return stoppedBeforeCheck().value_or(CheckResult::unknown("interrupted"));
  }

  template <class F>
  static void guard(F f) {
    try {
      f();
    } catch (const cvc5::CVC5ApiException& ex) {
      throw SmtError(std::string("cvc5: ") + ex.what());
    }
  }

  static CheckResult answer(const cvc5::Result& r) {
    if (r.isSat()) return CheckResult::sat();
    if (r.isUnsat()) return CheckResult::unsat();
    if (r.getUnknownExplanation() == cvc5::TIMEOUT) return CheckResult::unknown("timeout");
    std::ostringstream why;
    why << r.getUnknownExplanation();
    return CheckResult::unknown("cvc5: " + why.str());
  }

  // What is left of `limit` ms under the run's deadline; ~0u when nothing is.
  static unsigned remaining(unsigned limit, const QueryStop& stop) {
    if (!stop.deadline) return limit;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          *stop.deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return ~0u;
    return static_cast<uint64_t>(left) < limit ? static_cast<unsigned>(left) : limit;
  }

  // On the worker's thread, as the ones below: the adds, pushes and pops since the last check,
  // in order, in every session there is.
  void applyPending() {
    std::vector<Op> ops = std::move(pending_);
    pending_.clear();
    guard([&] {
      for (const Op& op : ops)
        for (Cvc5Session* s : {models_.get(), limited_.get()}) {
          if (!s) continue;
          if (op.kind == Op::Kind::Add) s->add(op.formula);
          if (op.kind == Op::Kind::Push) s->solver->push();
          if (op.kind == Op::Kind::Pop) s->solver->pop(op.levels);
        }
    });
  }

  // The model session's tlimit-per (0: none); ~0u is
  // remembered, not set: there is no time.
  void limitModels(unsigned ms) {
    if (ms == ~0u || ms == modelsLimitMs_) {
      modelsLimitMs_ = ms;
      return;
    }
    guard([&] { models_->solver->setOption("tlimit-per", std::to_string(ms)); });
    modelsLimitMs_ = ms;
  }

  // The limited session exists while checks have a limit; its tlimit-per follows `ms`.
  void limitTo(unsigned ms) {
    guard([&] {
      if (!ms) {
        limited_.reset();
        limitMs_ = 0;
        return;
      }
      if (!limited_) {
        limited_ = std::make_shared<Cvc5Session>(naming_, false, cores_);
        stack_.replay([&](ExprRef f) { limited_->add(f); }, [&] { limited_->solver->push(); });
      }
      if (limitMs_ != ms) limited_->solver->setOption("tlimit-per", std::to_string(ms));
      limitMs_ = ms;
    });
  }

  TermNaming naming_;
  bool cores_;  // unsatAssumptions answers (see makeCvc5Solver)
  unsigned timeoutMs_ = 0, limitMs_ = 0, modelsLimitMs_ = 0;
  bool dead_ = false;  // a check was abandoned after a stop: cvc5 is not called any more
  std::unique_ptr<BoundedWorker> worker_;  // made first, gone last: the sessions live on its thread
  std::shared_ptr<Cvc5Session> models_;    // produces models; never limited
  std::shared_ptr<Cvc5Session> limited_;   // only while a time limit is set
  struct Op {
    enum class Kind { Add, Push, Pop } kind;
    ExprRef formula;  // Add
    unsigned levels;  // Pop
  };
  std::vector<Op> pending_;  // since the last check: applied by the next one
  AssertionStack stack_;
  std::optional<Model> model_;
  std::optional<std::vector<size_t>> core_;  // of the last check, when it answered unsat
};

}  // namespace

std::unique_ptr<Solver> makeCvc5Solver(TermNaming naming, bool unsatCores) {
  return std::make_unique<Cvc5Solver>(std::move(naming), unsatCores);
}

}  // namespace tandem::smt
