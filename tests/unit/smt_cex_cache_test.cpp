// KLEE's counterexample cache (counterexample_cache.h): it answers only what a solver would,
// and its sat answers come with models of the whole query.
#include "mc/smt/counterexample_cache.h"
#include "mc/smt/incremental_solver.h"
#include "path_conditions.h"

using namespace smt_test;

TEST_CASE("smt: the counterexample cache answers only what a solver would, with real models") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    for (uint32_t seed : {4u, 5u, 6u}) {
      CAPTURE(seed);
      Ctx c;
      Conditions gen(c, seed);
      CounterexampleCache cache;
      auto solver = makeIncrementalSolver(c.backend(b));
      for (const std::vector<ExprRef>& q : depthFirstQueries(gen, 80)) {
        auto fresh = c.backend(b);
        const CheckResult truth = checkAll(*fresh, q);
        REQUIRE(!truth.isUnknown());
        if (auto hit = cache.lookup(q)) {
          CHECK(hit->result.status == truth.status);
          if (hit->result.isSat()) {
            REQUIRE(hit->model);
            for (ExprRef f : q) CHECK(hit->model->evalBool(f) == true);
          }
          continue;
        }
        const CheckResult r = solver->check(q);
        cache.insert(q, r, r.isSat() ? std::make_shared<const Model>(solver->model()) : nullptr);
      }
      // Along a path the model of the prefix satisfies many next conditions.
      CHECK(cache.stats().satHits > 0);
      CHECK(cache.stats().misses > 0);
    }
  }
}

TEST_CASE("smt: the counterexample cache decides a refuted branch's other side without a solver") {
  Ctx c;
  ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT());
  CounterexampleCache cache;
  Model m;  // x = 1, y = 0: a model of x > 0
  m.setScalar(LeafKey::of(x), BigInt(1));
  cache.insert(std::vector<ExprRef>{c.gt(x, c.num(0))}, CheckResult::sat(),
               std::make_shared<const Model>(m));
  // x > 0 && x < 0 is unsat (a solver says so), so the other side holds in every model of x > 0.
  cache.insert(std::vector<ExprRef>{c.gt(x, c.num(0)), c.lt(x, c.num(0))}, CheckResult::unsat(),
               nullptr);
  auto other = cache.lookup(std::vector<ExprRef>{c.gt(x, c.num(0)), c.lnot(c.lt(x, c.num(0)))});
  REQUIRE(other);
  CHECK(other->result.isSat());
  // A model that falsifies the query is no answer.
  CHECK_FALSE(cache.lookup(std::vector<ExprRef>{c.gt(x, c.num(0)), c.gt(y, c.num(5))}));
  // A superset of an unsat query is unsat; so is a conjunct beside its negation.
  auto sup =
      cache.lookup(std::vector<ExprRef>{c.gt(y, c.num(2)), c.gt(x, c.num(0)), c.lt(x, c.num(0))});
  REQUIRE(sup);
  CHECK(sup->result.isUnsat());
  ExprRef p = c.gt(y, c.num(9));
  auto contradiction = cache.lookup(std::vector<ExprRef>{p, c.em.mkNot(p)});
  REQUIRE(contradiction);
  CHECK(contradiction->result.isUnsat());
  // Unknown answers are never stored.
  cache.insert(std::vector<ExprRef>{c.gt(y, c.num(100))}, CheckResult::unknown("timeout"), nullptr);
  CHECK_FALSE(cache.lookup(std::vector<ExprRef>{c.gt(y, c.num(100))}));
  CHECK(cache.stats().satHits == 1);
  CHECK(cache.stats().unsatHits == 2);
}
