// Sliced minimisation (minimize_formulas.h): the values of minimizeModel, with fewer queries, and
// none for values that constraints on other leaves or elements cannot change.
#include "mc/smt/minimize_formulas.h"
#include "path_conditions.h"

using namespace smt_test;

TEST_CASE("smt: sliced minimisation gives minimizeModel's values with fewer queries") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    for (uint32_t seed : {7u, 8u}) {
      CAPTURE(seed);
      Ctx c;
      Conditions gen(c, seed);
      ExprRef x = c.sym("w", c.intT()), y = c.sym("v", c.intT());
      ExprRef a = c.sym("arr", c.types.arrayOf(c.intT(), 3));
      ExprRef e = c.sym("e", c.types.enumType("Color", {"Red", "Green", "Blue"}));
      ExprRef flag = c.sym("flag", c.boolT());
      std::vector<ExprRef> extra = {
          c.gt(x, c.num(100)),
          c.ge(c.add(x, y), c.num(150)),
          c.eq(c.select(a, c.num(1)), c.num(119)),
          c.lnot(c.eq(c.select(a, c.num(2)), c.num(0))),
          c.ne(e, c.em.enumConst(e->type, 0)),
          flag,
      };
      size_t compared = 0;
      for (const std::vector<ExprRef>& q : depthFirstQueries(gen, 25)) {
        std::vector<ExprRef> formulas = q;
        formulas.insert(formulas.end(), extra.begin(), extra.end());
        std::vector<ExprRef> terms = {x, y, a, e, flag};
        for (ExprRef leaf : {c.sym("unused", c.intT())}) terms.push_back(leaf);
        auto plain = c.backend(b);
        for (ExprRef f : formulas) plain->add(f);
        const MinimizedModel want = minimizeModel(*plain, c.em, terms);
        REQUIRE(!want.result.isUnknown());
        auto sliced = c.backend(b);
        const MinimizedModel got = minimizeFormulas(*sliced, c.em, formulas, terms);
        CHECK(got.result.status == want.result.status);
        CHECK(sliced->level() == 0);
        if (!want.model) continue;
        REQUIRE(got.model);
        ++compared;
        for (ExprRef t : terms) {
          if (t->type->kind == TypeKind::Array) {
            for (int i = 0; i < 3; ++i)
              CHECK(got.model->evalInt(c.select(t, c.num(i))) ==
                    want.model->evalInt(c.select(t, c.num(i))));
          } else {
            CHECK(got.model->evalInt(t) == want.model->evalInt(t));
          }
        }
        for (ExprRef f : formulas) CHECK(got.model->evalBool(f) == true);
        CHECK(sliced->stats().queries < plain->stats().queries);
      }
      CHECK(compared > 0);
    }
  }
}

TEST_CASE("smt: constraints on array elements and unconstrained terms need no query") {
  Ctx c;
  ExprRef a = c.sym("program", c.types.arrayOf(c.intT(), 28));
  ExprRef z = c.sym("z", c.intT());
  std::vector<ExprRef> formulas;
  for (int i = 0; i < 12; ++i) formulas.push_back(c.eq(c.select(a, c.num(i)), c.num(100 + i)));
  for (int v : {119, 115, 97, 100})
    formulas.push_back(c.lnot(c.eq(c.select(a, c.num(12)), c.num(v))));
  formulas.push_back(c.lt(c.select(a, c.num(13)), c.num(-4)));
  for (Backend b : allBackends()) {
    auto s = c.backend(b);
    std::vector<ExprRef> terms = {a, z};
    MinimizedModel m = minimizeFormulas(*s, c.em, formulas, terms);
    REQUIRE(m.model);
    CHECK(s->stats().queries == 0);
    for (int i = 0; i < 12; ++i) CHECK(m.model->evalInt(c.select(a, c.num(i))) == BigInt(100 + i));
    CHECK(m.model->evalInt(c.select(a, c.num(12))) == BigInt(0));
    CHECK(m.model->evalInt(c.select(a, c.num(13))) == BigInt(-5));
    CHECK(m.model->evalInt(c.select(a, c.num(27))) == BigInt(0));
    CHECK(m.model->evalInt(z) == BigInt(0));
  }
  // An unsatisfiable group is found (one query), not hidden by the others.
  auto s = c.backend(Backend::Z3);
  formulas.push_back(c.gt(z, c.num(3)));
  formulas.push_back(c.lt(c.mul(z, c.num(2)), c.num(7)));
  std::vector<ExprRef> terms = {a};
  CHECK(minimizeFormulas(*s, c.em, formulas, terms).result.isUnsat());
}
