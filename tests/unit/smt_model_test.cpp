// The Model on its own: completion, three-valued connectives, the translation's semantics.
#include "smt_test_support.h"

#include "mc/smt/model.h"

using namespace smt_test;

TEST_CASE("smt model: leaves, completion and the translation's semantics") {
  Ctx c;
  ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT());
  ExprRef w = c.sym("w", c.i32T());
  ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), -1));
  Model m;
  m.setScalar(LeafKey::of(x), BigInt(-7));
  m.setScalar(LeafKey::of(w), BigInt(2147483647));
  ArrayValue av;
  av.length = BigInt(3);
  av.elements[BigInt(1)] = BigInt(9);
  m.setArray(LeafKey::of(a), av);
  m.setCall(5, {BigInt(-7)}, BigInt(11));

  CHECK(m.evalInt(x) == BigInt(-7));
  CHECK(m.evalInt(y) == BigInt(0));  // completion
  CHECK(m.evalInt(c.div(x, c.num(2))) == BigInt(-4));
  CHECK(m.evalInt(c.mod(x, c.num(2))) == BigInt(1));
  CHECK(m.evalInt(c.add(w, c.num(1))) == BigInt(-2147483648LL));
  CHECK(m.evalInt(c.div(w, c.num(0, c.i32T()))) == BigInt(-1));  // SMT-LIB bvsdiv by zero
  CHECK(m.evalInt(c.mod(w, c.num(0, c.i32T()))) == BigInt(2147483647));
  CHECK(m.evalInt(c.len(a)) == BigInt(3));
  CHECK(m.evalInt(c.select(a, c.num(1))) == BigInt(9));
  CHECK(m.evalInt(c.select(a, c.num(2))) == BigInt(0));
  CHECK(m.evalInt(c.call(5, c.intT(), {x})) == BigInt(11));
  CHECK(m.evalInt(c.call(5, c.intT(), {y})) == BigInt(0));  // completion
  CHECK(m.evalBool(c.eq(a, c.arrayLit(c.intT(), {c.num(0), c.num(9), c.num(0)}))) == true);
  CHECK(m.evalBool(c.eq(a, c.arrayLit(c.intT(), {c.num(0), c.num(9)}))) == false);

  // An integer division by zero is the model's business: undetermined unless recorded.
  ExprRef byZero = c.div(x, y);
  CHECK_FALSE(m.evalInt(byZero).has_value());
  CHECK(m.evalBool(c.land(c.gt(x, c.num(0)), c.eq(byZero, c.num(1)))) == false);
  CHECK(m.evalBool(c.lor(c.lt(x, c.num(0)), c.eq(byZero, c.num(1)))) == true);
  CHECK_FALSE(m.evalBool(c.lor(c.gt(x, c.num(0)), c.eq(byZero, c.num(1)))).has_value());
  m.setDivByZero(Op::Div, BigInt(-7), BigInt(42));
  CHECK(m.evalInt(byZero) == BigInt(42));

  // Outside the translation: undetermined, never a crash.
  CHECK_FALSE(m.evalInt(c.em.mk(Op::Old, c.intT(), {x})).has_value());

  Model other;
  other.setScalar(LeafKey::of(y), BigInt(5));
  other.setScalar(LeafKey::of(x), BigInt(100));
  m.merge(other);
  CHECK(m.evalInt(y) == BigInt(5));
  CHECK(m.evalInt(x) == BigInt(-7));  // existing assignments win
  CHECK(m.toString(c.naming).find("y!1 = 5") != std::string::npos);
}
