// Values and states: printing, defaults, equality and hashing, copy-on-write arrays.
#include <doctest/doctest.h>

#include <unordered_set>

#include "mc/exec/evaluator.h"
#include "mc/exec/program_builder.h"
#include "mc/exec/state_format.h"

using namespace tandem;
using namespace tandem::exec;

TEST_CASE("exec: values print as users write them") {
  TypeTable types;
  TypeRef color = types.enumType("Color", {"Red", "Green"});
  CHECK(Value::integer(-42).toString() == "-42");
  CHECK(Value::integer(*BigInt::parse("-123456789012345678901234567890")).toString() ==
        "-123456789012345678901234567890");
  CHECK(Value::boolean(true).toString() == "true");
  CHECK(Value::enumMember(color, 1).toString() == "Green");
  CHECK(Value::null().toString() == "null");
  CHECK(Value::array({Value::integer(1), Value::integer(2)}).toString() == "[1, 2]");
  Address a = Address::global(2);
  a.path = {1, 3};
  CHECK(Value::ref(a).toString() == "&g2[1][3]");
  ValueNames names;
  names.address = [](const Address& addr) { return addr.slot == 2 ? std::string("a") : "?"; };
  CHECK(Value::ref(a).toString(&names) == "&a[1][3]");
  CHECK(Value::ref(Address::local(0, 1, 4)).toString() == "&t0.f1.l4");
}

TEST_CASE("exec: default values") {
  TypeTable types;
  TypeRef color = types.enumType("Color", {"Red", "Green"});
  CHECK(defaultValue(types.intType()) == Value::integer(0));
  CHECK(defaultValue(types.i32Type()) == Value::i32(0));
  CHECK(defaultValue(types.boolType()) == Value::boolean(false));
  CHECK(defaultValue(color).toString() == "Red");
  CHECK(defaultValue(types.refTo(types.intType())).isNull());
  CHECK(defaultValue(types.arrayOf(types.boolType(), 2)).toString() == "[false, false]");
  CHECK(defaultValue(types.arrayOf(types.intType(), -1)).length() == 0);
  CHECK(defaultValue(types.arrayOf(types.arrayOf(types.intType(), 2), 2)).toString() ==
        "[[0, 0], [0, 0]]");
}

TEST_CASE("exec: value equality and hashing distinguish kinds and contents") {
  CHECK(Value::integer(1) == Value::integer(1));
  CHECK_FALSE(Value::integer(1) == Value::i32(1));  // different types are different values
  CHECK_FALSE(Value::null() == Value::ref(Address::global(0)));
  CHECK(Value::ref(Address::local(0, 1, 2)) == Value::ref(Address::local(0, 1, 2)));
  CHECK_FALSE(Value::ref(Address::local(0, 1, 2)) == Value::ref(Address::local(0, 0, 2)));
  Value x = Value::array({Value::integer(1), Value::integer(2)});
  Value y = Value::array({Value::integer(1), Value::integer(2)});
  CHECK(x == y);  // value semantics: separate storage, same contents
  CHECK(x.hash() == y.hash());
  CHECK_FALSE(x == Value::array({Value::integer(1)}));
  std::unordered_set<Value> set{Value::integer(3), Value::boolean(true), x, y};
  CHECK(set.size() == 3);
}

TEST_CASE("exec: arrays are copy-on-write") {
  Value a = Value::array({Value::integer(1), Value::integer(2)});
  Value b = a;
  CHECK(a.sharesStorageWith(b));
  b.mutableAt(1) = Value::integer(9);
  CHECK(a.toString() == "[1, 2]");
  CHECK(b.toString() == "[1, 9]");
  CHECK_FALSE(a.sharesStorageWith(b));
  // A sole owner writes in place.
  Value c = Value::array({Value::integer(1)});
  const Value* before = &c.at(0);
  c.mutableAt(0) = Value::integer(5);
  CHECK(&c.at(0) == before);
}

TEST_CASE("exec: copying a state then writing one copy leaves the other unchanged") {
  ProgramBuilder b;
  NativeRegistry natives;
  TypeRef intT = b.types().intType();
  ir::VarId g = b.global("g", b.types().arrayOf(b.types().arrayOf(intT, 2), 2));
  ir::CfaId f = b.cfa("f");
  b.ret(f);
  Evaluator ev(b.program(), natives);
  ScriptedChooser none;
  auto made = ev.makeEntryState(f, {}, none);
  REQUIRE(made.ok());
  State s1 = made.value();
  State s2 = s1;
  CHECK(s1 == s2);
  CHECK(s1.hash() == s2.hash());

  ExprRef cell = b.op(Op::Select, {b.op(Op::Select, {b.v(g), b.num(1)}), b.num(0)});
  auto addr = ev.evalLvalue(cell, s2, 0);
  REQUIRE(addr.ok());
  CHECK(addr.value().path == std::vector<uint64_t>{1, 0});
  REQUIRE(ev.store(s2, addr.value(), Value::integer(7)).ok());
  CHECK(s1.globals[0].toString() == "[[0, 0], [0, 0]]");
  CHECK(s2.globals[0].toString() == "[[0, 0], [7, 0]]");
  CHECK_FALSE(s1 == s2);
  CHECK(s1.hash() != s2.hash());
  // The untouched inner array is still shared between the copies.
  CHECK(s1.globals[0].at(0).sharesStorageWith(s2.globals[0].at(0)));
  CHECK(formatState(b.program(), s2).find("g = [[0, 0], [7, 0]]") != std::string::npos);
}
