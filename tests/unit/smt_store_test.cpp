// Op::Store (functional array update, made by symbolic execution): SMT translation, model
// evaluation, model extraction through stores, minimised array elements, concrete evaluation.
#include "smt_test_support.h"

#include "mc/exec/evaluator.h"
#include "mc/smt/minimize_model.h"

using namespace smt_test;

namespace {

ExprRef store(Ctx& c, ExprRef a, ExprRef i, ExprRef v) {
  return c.em.mk(Op::Store, a->type, {a, i, v});
}

}  // namespace

TEST_CASE("smt: a store over new int[n] with a symbolic index and length") {
  for (Backend b : allBackends()) {
    CAPTURE(backendName(b));
    Ctx c;
    ExprRef n = c.sym("n", c.intT()), i = c.sym("i", c.intT()), j = c.sym("j", c.intT());
    ExprRef a = store(c, c.newArray(c.intT(), n), i, c.num(7));
    // a[j] == 7 with j != i is impossible: the rest of `new` is zero.
    auto s = c.backend(b);
    s->add(c.eq(c.select(a, j), c.num(7)));
    s->add(c.ne(i, j));
    CHECK(s->check().isUnsat());
    // The length is n, whatever was stored.
    auto s2 = c.backend(b);
    std::vector<ExprRef> fs = {c.eq(c.len(a), c.num(3)), c.eq(c.select(a, j), c.num(7)),
                               c.le(c.num(0), i), c.lt(i, n)};
    REQUIRE(checkAll(*s2, fs).isSat());
    checkModelSatisfies(*s2, fs);
    CHECK(s2->model().evalInt(n) == BigInt(3));
    CHECK(s2->model().evalInt(i) == s2->model().evalInt(j));
  }
}

TEST_CASE("smt: a select through stores over an array leaf is extracted into the model") {
  for (Backend b : allBackends()) {
    CAPTURE(backendName(b));
    Ctx c;
    ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), -1));
    ExprRef k = c.sym("k", c.intT());
    ExprRef upd = store(c, store(c, a, c.num(0), c.num(1)), c.num(1), c.num(2));
    std::vector<ExprRef> fs = {c.eq(c.len(a), c.num(2000)), c.eq(c.select(upd, k), c.num(55)),
                               c.gt(k, c.num(1500))};
    auto s = c.backend(b);
    REQUIRE(checkAll(*s, fs).isSat());
    checkModelSatisfies(*s, fs);
  }
}

TEST_CASE("smt: minimised arrays have the shortest length and small elements") {
  for (Backend b : allBackends()) {
    CAPTURE(backendName(b));
    Ctx c;
    ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), -1));
    SolverOptions opts;
    opts.backend = b;
    auto s = makeSolver(opts, c.naming);
    s->add(c.gt(c.len(a), c.num(1)));
    s->add(c.gt(c.select(a, c.num(1)), c.num(40)));
    std::vector<ExprRef> terms = {a};
    MinimizedModel m = minimizeModel(*s, c.em, terms);
    REQUIRE(m.model.has_value());
    CHECK(m.model->evalInt(c.len(a)) == BigInt(2));
    CHECK(m.model->evalInt(c.select(a, c.num(0))) == BigInt(0));
    CHECK(m.model->evalInt(c.select(a, c.num(1))) == BigInt(41));
  }
}

TEST_CASE("exec: a store is a functional update with a bounds check") {
  Ctx c;
  ir::Program p;
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  ExprRef lit = c.arrayLit(c.intT(), {c.num(1), c.num(2)});
  ExprRef upd = c.em.mk(Op::Store, c.types.arrayOf(c.intT(), -1), {lit, c.num(1), c.num(9)});
  auto r = ev.eval(upd, exec::State{}, exec::kNoThread);
  REQUIRE(r);
  CHECK(r.value() ==
        exec::Value::array({exec::Value::integer(BigInt(1)), exec::Value::integer(BigInt(9))}));
  ExprRef bad = c.em.mk(Op::Store, c.types.arrayOf(c.intT(), -1), {lit, c.num(2), c.num(9)});
  auto e = ev.eval(bad, exec::State{}, exec::kNoThread);
  REQUIRE(!e);
  CHECK(e.error().kind == ir::ErrorKind::IndexOutOfBounds);
}
