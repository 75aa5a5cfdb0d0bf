// The translators on their own: quantifiers (translator level) in both back ends, and the
// SMT-LIB text of a formula.
#include "smt_test_support.h"

#include <cvc5/cvc5.h>
#include <z3++.h>

#include "mc/smt/cvc5_translate.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/smtlib_translate.h"
#include "mc/smt/z3_translate.h"

using namespace smt_test;

TEST_CASE("smt: mkForall in Z3 and cvc5") {
  Ctx c;
  ExprRef k = c.sym("k", c.intT());
  ExprRef fk = c.call(0, c.intT(), {k});
  ExprRef body = c.ge(fk, c.num(0));  // forall k. f(k) >= 0
  ExprRef f3neg = c.lt(c.call(0, c.intT(), {c.num(3)}), c.num(0));
  ExprRef f3pos = c.gt(c.call(0, c.intT(), {c.num(3)}), c.num(0));
  std::vector<ExprRef> vars = {k};

  SUBCASE("z3") {
    z3::context ctx;
    Z3Translator tr(ctx, c.naming);
    Quantified<z3::expr> q = tr.mkForall(vars, body);
    z3::solver s(ctx);
    s.add(q.formula);
    s.push();
    s.add(tr.term(f3neg));
    CHECK(s.check() == z3::unsat);
    s.pop();
    s.add(tr.term(f3pos));
    CHECK(s.check() == z3::sat);
  }
  SUBCASE("cvc5") {
    cvc5::Solver s;
    s.setOption("incremental", "true");
    s.setLogic("ALL");
    Cvc5Translator tr(s, c.naming);
    Quantified<cvc5::Term> q = tr.mkForall(vars, body);
    s.assertFormula(q.formula);
    s.push();
    s.assertFormula(tr.term(f3neg));
    CHECK(s.checkSat().isUnsat());
    s.pop();
    s.assertFormula(tr.term(f3pos));
    CHECK_FALSE(s.checkSat().isUnsat());
  }
}

TEST_CASE("smt: a quantified enum keeps its range inside the quantifier") {
  Ctx c;
  TypeRef color = c.types.enumType("Color", {"Red", "Green", "Blue"});
  ExprRef e = c.sym("e", color);
  ExprRef free = c.sym("free", color);
  // forall e. e <= Blue && free != e: false in the enum world, because free is one of the members.
  ExprRef body = c.land(c.le(e, c.em.enumConst(color, 2)), c.ne(free, e));
  std::vector<ExprRef> vars = {e};
  z3::context ctx;
  Z3Translator tr(ctx, c.naming);
  Quantified<z3::expr> q = tr.mkForall(vars, body);
  CHECK(q.sides.size() == 1);  // free's range stays outside
  z3::solver s(ctx);
  s.add(q.formula);
  for (const z3::expr& side : q.sides) s.add(side);
  CHECK(s.check() == z3::unsat);
  // Quantifying over a non-leaf is refused.
  std::vector<ExprRef> bad = {c.add(c.sym("y", c.intT()), c.num(1))};
  CHECK_THROWS_AS(tr.mkForall(bad, body), SmtUnsupported);
}

TEST_CASE("smt: SMT-LIB text declares leaves once, ranges enums, and shares subterms") {
  Ctx c;
  TypeRef color = c.types.enumType("Color", {"Red", "Green"});
  ExprRef x = c.sym("x", c.intT());
  ExprRef e = c.sym("e", color);
  ExprRef w = c.sym("w", c.i32T());
  ExprRef big = x;
  for (int i = 0; i < 100; ++i) big = c.add(big, big);  // a DAG of 2^100 leaves as a tree
  SmtLibTranslator tr(c.naming);
  std::vector<ExprRef> fs = {c.gt(big, c.num(0)), c.eq(e, c.em.enumConst(color, 1)),
                             c.lt(c.cast(w, c.intT()), x)};
  const std::string text = tr.script(fs);
  CHECK(text.find("(set-logic ALL)") == 0);
  CHECK(text.find("(declare-fun x!0 () Int)") != std::string::npos);
  CHECK(text.find("(declare-fun e!1 () Int)") != std::string::npos);
  CHECK(text.find("(declare-fun w!2 () (_ BitVec 32))") != std::string::npos);
  CHECK(text.find("(<= 0 e!1)") != std::string::npos);
  CHECK(text.find("bv2nat") != std::string::npos);
  CHECK(text.find("(define-fun _d0 () Int") != std::string::npos);
  CHECK(text.size() < 20000);  // shared, not unfolded
  CHECK(text.substr(text.size() - 12) == "(check-sat)\n");
}

TEST_CASE("smt: SMT-LIB terms for a caller's own script: constants, let-definitions, sides") {
  Ctx c;
  TypeRef color = c.types.enumType("Color", {"Red", "Green"});
  ExprRef x = c.sym("x", c.intT());
  ExprRef e = c.sym("e", color);
  ExprRef shared = c.add(x, c.num(1));
  SmtLibTranslator tr(c.naming);
  std::vector<ExprRef> roots = {c.gt(c.mul(shared, shared), c.num(0)), e};
  SmtLibTerms t = tr.terms(roots);
  REQUIRE(t.constants.size() == 2);
  CHECK(t.constants[0] == std::make_pair(std::string("x!0"), std::string("Int")));
  CHECK(t.constants[1] == std::make_pair(std::string("e!1"), std::string("Int")));
  REQUIRE(t.definitions.size() == 1);  // x + 1, used twice
  CHECK(t.definitions[0].first == "_d0");
  CHECK(t.definitions[0].second == "(+ x!0 1)");
  REQUIRE(t.roots.size() == 2);
  CHECK(t.roots[0] == "(> (* _d0 _d0) 0)");
  CHECK(t.roots[1] == "e!1");
  REQUIRE(t.sides.size() == 1);  // the enum's range
  CHECK(t.sides[0] == "(and (<= 0 e!1) (< e!1 2))");
  // A caller binding only the constants could not cover a function or a quantifier.
  std::vector<ExprRef> call = {c.gt(c.call(0, c.intT(), {x}), c.num(0))};
  CHECK_THROWS_AS(tr.terms(call), SmtUnsupported);
  CHECK(scalarSortText(ScalarSort::Bv64) == "(_ BitVec 64)");
}
