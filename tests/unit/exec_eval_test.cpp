// The concrete evaluator on expressions: arithmetic per type, errors with their kinds, short
// circuits, natives.
#include <doctest/doctest.h>

#include <limits>

#include "mc/exec/evaluator.h"
#include "mc/exec/program_builder.h"
#include "mc/expr/int_functions.h"

using namespace tandem;
using namespace tandem::exec;

namespace {

// A program with one procedure `f(x: int, p: ref int, a: int[3])`, evaluated in its entry state.
struct Env {
  ProgramBuilder b;
  NativeRegistry natives;
  TypeRef intT = b.types().intType();
  TypeRef boolT = b.types().boolType();
  TypeRef i32T = b.types().i32Type();
  TypeRef i64T = b.types().i64Type();
  ir::CfaId f = b.cfa("f");
  ir::VarId x = b.param(f, "x", intT);
  ir::VarId p = b.param(f, "p", b.types().refTo(intT));
  ir::VarId a = b.param(f, "a", b.types().arrayOf(intT, 3));

  ExprRef n(int64_t v) { return b.num(v); }
  ExprRef n32(int64_t v) { return b.num(v, i32T); }
  ExprRef op(Op o, std::vector<ExprRef> kids) { return b.op(o, std::move(kids)); }

  // Evaluates `e` in f's entry state with x = 7, p = null, a = [10, 20, 30].
  Result<Value> eval(ExprRef e) {
    Evaluator ev(b.program(), natives);
    ScriptedChooser none;
    auto s = ev.makeEntryState(
        f,
        {Value::integer(7), Value::null(),
         Value::array({Value::integer(10), Value::integer(20), Value::integer(30)})},
        none);
    REQUIRE(s.ok());
    return ev.eval(e, s.value(), 0);
  }
  Value value(ExprRef e) {
    auto r = eval(e);
    if (!r) FAIL("unexpected error: " << r.error().message);
    return r.value();
  }
  ir::ErrorKind errorKind(ExprRef e) {
    auto r = eval(e);
    REQUIRE_FALSE(r.ok());
    CHECK_FALSE(r.error().limit);
    return r.error().kind;
  }
};

BigInt big(const char* s) { return *BigInt::parse(s); }

}  // namespace

TEST_CASE("exec: int arithmetic is unbounded") {
  Env env;
  // 2^62 * 8 = 2^65, beyond int64.
  ExprRef e = env.op(Op::Mul, {env.n(int64_t{1} << 62), env.n(8)});
  CHECK(env.value(e) == Value::integer(big("36893488147419103232")));
  ExprRef sum = env.op(Op::Add, {env.n(std::numeric_limits<int64_t>::max()), env.n(1)});
  CHECK(env.value(sum).toString() == "9223372036854775808");
  ExprRef back = env.op(Op::Sub, {sum, env.n(1)});
  CHECK(env.value(back) == Value::integer(std::numeric_limits<int64_t>::max()));
  CHECK(env.value(env.op(Op::NoOverflowAdd, {sum, sum})) == Value::boolean(true));
  // Squaring without end is stopped before it exhausts memory.
  ExprRef huge = env.n(3);
  for (int i = 0; i < 20; ++i) huge = env.op(Op::Mul, {huge, huge});  // 3^(2^20): ~1.7M bits
  auto r = env.eval(huge);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().limit);
}

TEST_CASE("exec: i32 and i64 wrap around") {
  Env env;
  CHECK(env.value(env.op(Op::Add, {env.n32(2147483647), env.n32(1)})) == Value::i32(-2147483648LL));
  CHECK(env.value(env.op(Op::Neg, {env.n32(-2147483648LL)})) == Value::i32(-2147483648LL));
  CHECK(env.value(env.op(Op::Mul, {env.n32(65536), env.n32(65536)})) == Value::i32(0));
  // INT_MIN / -1 wraps; C-like truncation toward zero.
  CHECK(env.value(env.op(Op::Div, {env.n32(-2147483648LL), env.n32(-1)})) ==
        Value::i32(-2147483648LL));
  CHECK(env.value(env.op(Op::Div, {env.n32(-7), env.n32(2)})) == Value::i32(-3));
  CHECK(env.value(env.op(Op::Mod, {env.n32(-7), env.n32(2)})) == Value::i32(-1));
  ExprRef maxI64 = env.b.num(std::numeric_limits<int64_t>::max(), env.i64T);
  CHECK(env.value(env.op(Op::Add, {maxI64, env.b.num(1, env.i64T)})) ==
        Value::i64(std::numeric_limits<int64_t>::min()));
  CHECK(env.value(env.op(Op::NoOverflowAdd, {env.n32(2147483647), env.n32(1)})) ==
        Value::boolean(false));
  CHECK(env.value(env.op(Op::NoOverflowMul, {env.n32(46340), env.n32(46340)})) ==
        Value::boolean(true));
  // Casts: int -> i32 wraps, i32 -> int is exact.
  ExprRef toI32 = env.b.exprs().mk(Op::Cast, env.i32T, {env.n(4294967297LL)});
  CHECK(env.value(toI32) == Value::i32(1));
  ExprRef toInt = env.b.exprs().mk(Op::Cast, env.intT, {env.n32(-5)});
  CHECK(env.value(toInt) == Value::integer(-5));
}

TEST_CASE("exec: int division is Euclidean") {
  Env env;
  auto div = [&](int64_t a, int64_t b) { return env.value(env.op(Op::Div, {env.n(a), env.n(b)})); };
  auto mod = [&](int64_t a, int64_t b) { return env.value(env.op(Op::Mod, {env.n(a), env.n(b)})); };
  CHECK(div(-7, 2) == Value::integer(-4));
  CHECK(mod(-7, 2) == Value::integer(1));
  CHECK(div(7, -2) == Value::integer(-3));
  CHECK(mod(7, -2) == Value::integer(1));
  CHECK(mod(-7, -2) == Value::integer(1));
  CHECK(div(7, 2) == Value::integer(3));
}

TEST_CASE("exec: division by zero is an error for every integer type") {
  Env env;
  CHECK(env.errorKind(env.op(Op::Div, {env.n(1), env.n(0)})) == ir::ErrorKind::DivByZero);
  CHECK(env.errorKind(env.op(Op::Mod, {env.n(1), env.n(0)})) == ir::ErrorKind::DivByZero);
  CHECK(env.errorKind(env.op(Op::Div, {env.n32(1), env.n32(0)})) == ir::ErrorKind::DivByZero);
}

TEST_CASE("exec: comparisons, builtins and ite") {
  Env env;
  CHECK(env.value(env.op(Op::Lt, {env.n(-3), env.n(2)})) == Value::boolean(true));
  CHECK(env.value(env.op(Op::Ge, {env.n32(-3), env.n32(2)})) == Value::boolean(false));
  CHECK(env.value(env.op(Op::Abs, {env.n(-9)})) == Value::integer(9));
  CHECK(env.value(env.op(Op::Min, {env.n(4), env.n(-1)})) == Value::integer(-1));
  CHECK(env.value(env.op(Op::Max, {env.n(4), env.n(-1)})) == Value::integer(4));
  ExprRef ite = env.op(Op::Ite, {env.op(Op::Eq, {env.b.v(env.x), env.n(7)}), env.n(1), env.n(2)});
  CHECK(env.value(ite) == Value::integer(1));
  // Ite is lazy: the branch not taken may divide by zero.
  ExprRef lazy =
      env.op(Op::Ite, {env.b.boolean(true), env.n(5), env.op(Op::Div, {env.n(1), env.n(0)})});
  CHECK(env.value(lazy) == Value::integer(5));
  CHECK(env.value(env.op(Op::Eq, {env.b.v(env.a), env.b.v(env.a)})) == Value::boolean(true));
}

TEST_CASE("exec: && || ==> short-circuit") {
  Env env;
  ExprRef boom = env.op(Op::Eq, {env.op(Op::Div, {env.n(1), env.n(0)}), env.n(0)});
  ExprRef pNotNull = env.op(Op::Ne, {env.b.v(env.p), env.b.exprs().nullConst()});
  ExprRef derefPositive = env.op(Op::Gt, {env.op(Op::Deref, {env.b.v(env.p)}), env.n(0)});
  CHECK(env.value(env.op(Op::And, {pNotNull, derefPositive})) == Value::boolean(false));
  CHECK(env.value(env.op(Op::Or, {env.b.boolean(true), boom})) == Value::boolean(true));
  CHECK(env.value(env.op(Op::Implies, {env.b.boolean(false), boom})) == Value::boolean(true));
  // Without the short circuit the same operands fail.
  CHECK(env.errorKind(env.op(Op::And, {env.b.boolean(true), boom})) == ir::ErrorKind::DivByZero);
  CHECK(env.errorKind(derefPositive) == ir::ErrorKind::NullDeref);
}

TEST_CASE("exec: arrays: select, len, literals, new") {
  Env env;
  CHECK(env.value(env.op(Op::Select, {env.b.v(env.a), env.n(2)})) == Value::integer(30));
  CHECK(env.value(env.op(Op::Len, {env.b.v(env.a)})) == Value::integer(3));
  ExprRef lit = env.op(Op::ArrayLit, {env.n(1), env.n(2)});
  CHECK(env.value(lit).toString() == "[1, 2]");
  ExprRef fresh = env.b.exprs().mk(Op::NewArray, env.b.types().arrayOf(env.intT, -1), {env.n(4)});
  CHECK(env.value(fresh).toString() == "[0, 0, 0, 0]");

  auto r = env.eval(env.op(Op::Select, {env.b.v(env.a), env.n(3)}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == ir::ErrorKind::IndexOutOfBounds);
  CHECK(r.error().message == "index 3 out of bounds for length 3");
  CHECK(env.errorKind(env.op(Op::Select, {env.b.v(env.a), env.n(-1)})) ==
        ir::ErrorKind::IndexOutOfBounds);

  ExprRef negative =
      env.b.exprs().mk(Op::NewArray, env.b.types().arrayOf(env.intT, -1), {env.n(-2)});
  CHECK(env.errorKind(negative) == ir::ErrorKind::NegativeSize);
  // Absurd sizes are refused as a limit, not allocated.
  ExprRef huge = env.b.exprs().mk(Op::NewArray, env.b.types().arrayOf(env.intT, -1),
                                  {env.b.big(big("1000000000000"))});
  auto h = env.eval(huge);
  REQUIRE_FALSE(h.ok());
  CHECK(h.error().limit);
}

TEST_CASE("exec: natives come from the registry") {
  Env env;
  uint32_t hash = env.b.nativeCallee("hash", {env.intT}, env.intT);
  uint32_t isqrt = env.b.nativeCallee("isqrt", {env.intT}, env.intT);
  uint32_t gcd = env.b.nativeCallee("gcd", {env.intT, env.intT}, env.intT);
  uint32_t twice = env.b.nativeCallee("twice", {env.i32T}, env.i32T);
  env.natives.add("twice", NativeSignature{{TypeKind::Int}, TypeKind::Int},
                  [](std::span<const Value> args) -> std::optional<Value> {
                    return Value::integer(args[0].toBigInt() * BigInt(2));
                  });
  CHECK(env.natives.checkBindings(env.b.program()).empty());
  // `hash` is the built-in hash1.
  CHECK(env.value(env.b.callExpr(hash, {env.n(5)})) == Value::integer(intfn::hash1(BigInt(5))));
  CHECK(intfn::hash1(BigInt(5)) != intfn::hash2(BigInt(5)));
  CHECK(env.value(env.b.callExpr(isqrt, {env.n(17)})) == Value::integer(4));
  CHECK(env.value(env.b.callExpr(gcd, {env.n(12), env.n(18)})) == Value::integer(6));
  // The result takes the declared type: i32 wraps.
  CHECK(env.value(env.b.callExpr(twice, {env.n32(2000000000)})) ==
        Value::i32(4000000000LL - 4294967296LL));
  // Undefined for the input: an incomplete run (a limit), not a crash or a counterexample.
  auto r = env.eval(env.b.callExpr(isqrt, {env.n(-1)}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().limit);
  CHECK(r.error().message == "native call isqrt(-1) is undefined");
}
