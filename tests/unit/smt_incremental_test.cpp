// Incremental solving along a path (incremental_solver.h): on random sequences of path
// conditions, as a depth-first symbolic executor makes them, the answers of a fresh solver, over
// every back end, with only the new conjuncts asserted at each check.
#include "mc/smt/incremental_solver.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_decorator.h"
#include "path_conditions.h"

using namespace smt_test;

namespace {

// Counts the formulas asserted in the wrapped solver.
class CountingSolver final : public SolverDecorator {
 public:
  CountingSolver(std::unique_ptr<Solver> inner, uint64_t& adds)
      : SolverDecorator(std::move(inner)), adds_(adds) {}
  std::string name() const override { return wrappedName("count"); }

 protected:
  void doAdd(ExprRef formula) override {
    ++adds_;
    SolverDecorator::doAdd(formula);
  }

 private:
  uint64_t& adds_;
};

}  // namespace

TEST_CASE("smt: the incremental solver answers as a fresh solver and adds only new conjuncts") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    for (uint32_t seed : {1u, 2u, 3u}) {
      CAPTURE(seed);
      Ctx c;
      Conditions gen(c, seed);
      const std::vector<std::vector<ExprRef>> queries = depthFirstQueries(gen, 60);
      uint64_t adds = 0;
      auto incremental =
          makeIncrementalSolver(std::make_unique<CountingSolver>(c.backend(b), adds));
      uint64_t expectedAdds = 0;
      std::vector<ExprRef> held;  // what the previous check left asserted
      auto expect = [&](const std::vector<ExprRef>& query) {
        size_t common = 0;
        while (common < held.size() && common < query.size() && held[common] == query[common])
          ++common;
        expectedAdds += query.size() - common;
        held = query;
      };
      for (size_t i = 0; i < queries.size(); ++i) {
        CAPTURE(i);
        const std::vector<ExprRef>& q = queries[i];
        auto fresh = c.backend(b);
        const CheckResult want = checkAll(*fresh, q);
        const CheckResult got = incremental->check(q);  // the path condition as assumptions
        REQUIRE(!want.isUnknown());
        CHECK(got.status == want.status);
        if (got.isSat()) checkModelSatisfies(*incremental, q);
        expect(q);
        // A client scope (as the minimiser opens): its formulas come first in the query.
        if (i % 7 == 0) {
          incremental->push();
          ExprRef extra = gen.next();
          incremental->add(extra);
          std::vector<ExprRef> more = {extra};
          more.insert(more.end(), q.begin(), q.end());
          auto fresh2 = c.backend(b);
          CHECK(incremental->check(q).status == checkAll(*fresh2, more).status);
          incremental->pop();
          CHECK(incremental->level() == 0);
          expect(more);
        }
      }
      // Each check asserted only the conjuncts beyond the prefix it shares with the previous
      // one, not the whole path condition again.
      CHECK(adds == expectedAdds);
      uint64_t total = 0;
      for (const auto& q : queries) total += q.size();
      CHECK(adds < total);
    }
  }
}

TEST_CASE("smt: an incremental solver refuses formulas outside the translation at add") {
  Ctx c;
  auto s = makeIncrementalSolver(c.backend(Backend::Z3));
  ExprRef star = c.em.mk(Op::Star, c.intT(), {});
  CHECK_THROWS_AS(s->add(c.eq(star, c.num(1))), SmtUnsupported);
  CHECK(s->check().isSat());
  CHECK(s->name() == "incremental(z3)");
}
