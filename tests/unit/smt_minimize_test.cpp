// Small-model preference: minimizeModel pins each term to its least absolute value, so both back
// ends give the same model.
#include "smt_test_support.h"

#include "mc/smt/minimize_model.h"

using namespace smt_test;

namespace {

struct Problem {
  std::vector<ExprRef> formulas;
  std::vector<ExprRef> terms;
  std::vector<int64_t> expected;  // per term
};

std::vector<Problem> problems(Ctx& c) {
  ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT());
  ExprRef w = c.sym("w", c.i32T());
  ExprRef p = c.sym("p", c.boolT());
  TypeRef color = c.types.enumType("Color", {"Red", "Green", "Blue"});
  ExprRef e = c.sym("e", color);
  ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), -1));
  ExprRef absX = c.unary(Op::Abs, x);
  return {
      {{c.gt(x, c.num(5))}, {x}, {6}},
      {{c.lt(x, c.num(-1000))}, {x}, {-1001}},
      {{c.eq(c.add(x, y), c.num(10))}, {x, y}, {0, 10}},
      {{c.ge(absX, c.num(3))}, {x}, {3}},  // +3 preferred over -3
      {{c.lt(x, c.num(-2)), c.gt(c.mul(x, x), c.num(20))}, {x}, {-5}},
      {{c.gt(w, c.num(100, c.i32T()))}, {w}, {101}},
      {{c.lt(w, c.num(-2147483000LL, c.i32T()))}, {w}, {-2147483001LL}},
      {{c.ne(e, c.em.enumConst(color, 0))}, {e}, {1}},
      {{c.lor(p, c.gt(x, c.num(7)))}, {p, x}, {0, 8}},
      {{c.gt(c.len(a), c.num(2))}, {a}, {3}},
      {{c.eq(c.mod(x, c.num(7)), c.num(3)), c.gt(x, c.num(1000))}, {x}, {1004}},
  };
}

}  // namespace

TEST_CASE("smt: minimised models are small and the same under every back end") {
  std::vector<std::vector<std::vector<BigInt>>> perBackend;
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    std::vector<std::vector<BigInt>> values;
    for (const Problem& pr : problems(c)) {
      SolverOptions opts;
      opts.backend = b;
      auto s = makeSolver(opts, c.naming);
      for (ExprRef f : pr.formulas) s->add(f);
      const unsigned before = s->level();
      MinimizedModel m = minimizeModel(*s, c.em, pr.terms);
      CHECK(s->level() == before);
      REQUIRE(m.result.isSat());
      REQUIRE(m.model.has_value());
      for (ExprRef f : pr.formulas) CHECK(m.model->evalBool(f) == true);
      std::vector<BigInt> vs;
      for (size_t i = 0; i < pr.terms.size(); ++i) {
        ExprRef t = pr.terms[i];
        auto v =
            t->type->kind == TypeKind::Array ? m.model->evalInt(c.len(t)) : m.model->evalInt(t);
        REQUIRE(v.has_value());
        CHECK(*v == BigInt(pr.expected[i]));
        vs.push_back(*v);
      }
      values.push_back(vs);
      // The pins were popped: the first term may take another value again.
      ExprRef t0 = pr.terms[0];
      if (t0->type->kind == TypeKind::Array) t0 = c.len(t0);
      ExprRef v0 = t0->type->kind == TypeKind::Bool   ? c.em.boolConst(pr.expected[0] != 0)
                   : t0->type->kind == TypeKind::Enum ? c.em.enumConst(t0->type, 1)
                                                      : c.num(pr.expected[0], t0->type);
      s->add(c.ne(t0, v0));
      CHECK(s->check().isSat());
    }
    perBackend.push_back(values);
  }
  for (size_t i = 1; i < perBackend.size(); ++i) CHECK(perBackend[i] == perBackend[0]);
}

TEST_CASE("smt: minimising an unsatisfiable query reports unsat and no model") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    ExprRef x = c.sym("x", c.intT());
    auto s = c.backend(b);
    s->add(c.gt(x, c.num(1)));
    s->add(c.lt(x, c.num(0)));
    std::vector<ExprRef> terms = {x};
    MinimizedModel m = minimizeModel(*s, c.em, terms);
    CHECK(m.result.isUnsat());
    CHECK_FALSE(m.model.has_value());
    CHECK(s->level() == 0);
  }
}
