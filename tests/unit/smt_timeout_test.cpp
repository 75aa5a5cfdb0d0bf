// Unknown answers: a real timeout on a hard non-linear problem, and the plumbing of unknown
// through the decorators with a fake back end that always answers unknown.
#include "smt_test_support.h"

#include "mc/smt/caching_solver.h"
#include "mc/smt/incremental_solver.h"
#include "mc/smt/independent_solver.h"
#include "mc/smt/smt_error.h"

using namespace smt_test;

namespace {

// Answers every check with a scripted result; a model only when it says sat.
class FakeSolver final : public Solver {
 public:
  explicit FakeSolver(CheckResult answer) : answer_(std::move(answer)) {}
  std::string name() const override { return "fake"; }
  Capabilities capabilities() const override { return {}; }
  unsigned level() const override { return level_; }
  const Model& model() const override {
    if (!answer_.isSat()) throw SmtError("fake: no model");
    return model_;
  }
  void setTimeout(unsigned ms) override { timeout_ = ms; }
  unsigned timeout_ = 0;

 protected:
  void doAdd(ExprRef) override {}
  CheckResult doCheck(std::span<const ExprRef>) override { return answer_; }
  void doPush() override { ++level_; }
  void doPop(unsigned n) override {
    if (n > level_) throw SmtError("fake: pop");
    level_ -= n;
  }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
  }

 private:
  CheckResult answer_;
  Model model_;
  unsigned level_ = 0;
};

}  // namespace

TEST_CASE("smt: a tiny timeout on a hard non-linear problem answers unknown (timeout)") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    // x^3 + y^3 = z^3 with positive x, y, z: unsat (Fermat, n = 3), far beyond 1 ms.
    ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT()), z = c.sym("z", c.intT());
    auto cube = [&](ExprRef v) { return c.mul(v, c.mul(v, v)); };
    auto s = c.backend(b);
    CHECK(s->capabilities().timeouts);
    s->setTimeout(1);
    for (ExprRef v : {x, y, z}) s->add(c.gt(v, c.num(0)));
    s->add(c.eq(c.add(cube(x), cube(y)), cube(z)));
    CheckResult r = s->check();
    CHECK(r.isUnknown());
    CHECK(r.reason == "timeout");
    CHECK(r.toString() == "unknown (timeout)");
    CHECK_THROWS_AS(s->model(), SmtError);
    CHECK(s->stats().unknown == 1);
    // Without the hard part the same solver answers again.
    s->setTimeout(0);
    s->push();
    CHECK(s->check(std::vector<ExprRef>{c.lt(x, c.num(0))}).isUnsat());
    s->pop();
  }
}

TEST_CASE("smt: unknown passes through the cache and independence slicing, uncached") {
  Ctx c;
  ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT());
  auto fake = std::make_unique<FakeSolver>(CheckResult::unknown("timeout"));
  FakeSolver* raw = fake.get();
  auto s = makeIndependentSolver(makeCachingSolver(std::move(fake)));
  s->setTimeout(250);
  CHECK(raw->timeout_ == 250);
  s->add(c.gt(x, c.num(0)));
  s->add(c.gt(y, c.num(0)));
  for (int round = 0; round < 2; ++round) {
    CheckResult r = s->check();
    CHECK(r.isUnknown());
    CHECK(r.reason == "timeout");
    CHECK_THROWS_AS(s->model(), SmtError);
  }
  const SolverStats st = s->stats();
  CHECK(st.queries == 2);
  CHECK(st.unknown == 2);
  CHECK(st.cacheHits == 0);       // unknown is never cached
  CHECK(st.backendQueries == 4);  // two independent groups, twice
  CHECK(st.independentGroups == 4);
  CHECK(raw->level() == 0);  // every group's scope was popped
}

TEST_CASE("smt: a time limit set in the middle of a session keeps its scopes") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    ExprRef x = c.sym("x", c.intT());
    auto s = c.backend(b);
    s->add(c.gt(x, c.num(5)));
    s->push();
    s->add(c.lt(x, c.num(8)));
    s->push();
    s->add(c.ne(x, c.num(6)));
    s->setTimeout(10000);
    REQUIRE(s->check().isSat());
    CHECK(s->model().evalInt(x) == BigInt(7));
    s->add(c.ne(x, c.num(7)));
    CHECK(s->check().isUnsat());
    s->pop();
    REQUIRE(s->check().isSat());
    CHECK(*s->model().evalInt(x) >= BigInt(6));
    s->pop();
    s->add(c.gt(x, c.num(100)));
    REQUIRE(s->check().isSat());
    CHECK(*s->model().evalInt(x) > BigInt(100));
    s->setTimeout(0);
    s->add(c.lt(x, c.num(50)));
    CHECK(s->check().isUnsat());
  }
}

TEST_CASE("smt: once the run has stopped, the outermost layer answers unknown, the back end idle") {
  // An incremental layer pops its scopes before a check reaches the back end, and popping the
  // bit-blasted scopes of f64 path conditions took Z3 seconds each: after --timeout, every query
  // of a loop of tries paid that, and a run overran --timeout 20 by 95 s. Now no layer works.
  Ctx c;
  ExprRef x = c.sym("x", c.intT());
  auto fake = std::make_unique<FakeSolver>(CheckResult::sat());
  FakeSolver* raw = fake.get();
  auto s = makeIncrementalSolver(makeCachingSolver(std::move(fake)));
  bool stop = false;
  QueryStop q;
  q.stopNow = [&] { return stop; };
  s->setQueryStop(q);
  std::vector<ExprRef> pc{c.gt(x, c.num(0))};
  CHECK(s->check(pc).isSat());
  CHECK_FALSE(s->stopped());
  const unsigned level = raw->level();
  const uint64_t reached = raw->stats().queries;
  stop = true;
  CHECK(s->stopped());
  std::vector<ExprRef> other{c.lt(x, c.num(0))};
  CheckResult r = s->check(other);
  CHECK(r.isUnknown());
  CHECK(r.reason == "interrupted");
  CHECK(raw->stats().queries == reached);  // the back end was not asked
  CHECK(raw->level() == level);            // nor were its scopes touched
  // A deadline that has passed: "timeout".
  QueryStop late;
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  s->setQueryStop(late);
  CHECK(s->check(pc).reason == "timeout");
  CHECK(raw->stats().queries == reached);
}
