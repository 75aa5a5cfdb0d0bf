// The step function on hand-built IR: parallel assignment, refs, calls and returns, old(),
// havoc, every error kind with the edge's location, blocking and termination.
#include <doctest/doctest.h>

#include "mc/exec/evaluator.h"
#include "mc/exec/program_builder.h"

using namespace tandem;
using namespace tandem::exec;

namespace {

struct Env {
  ProgramBuilder b;
  NativeRegistry natives;
  TypeRef intT = b.types().intType();
  TypeRef boolT = b.types().boolType();

  ExprRef n(int64_t v) { return b.num(v); }
  ExprRef op(Op o, std::vector<ExprRef> kids, uint32_t payload = 0) {
    return b.op(o, std::move(kids), payload);
  }
  ir::Assignment set(ExprRef lhs, ExprRef rhs) { return ir::Assignment{lhs, rhs}; }
};

// Runs thread `t` to the end, taking the first enabled edge each time; returns the last result.
StepResult runToEnd(const Evaluator& ev, State& s, ThreadId t, Chooser& chooser) {
  for (int i = 0; i < 1000; ++i) {
    if (ev.terminated(s, t)) return StepResult::terminated();
    auto edges = ev.enabledEdges(s, t);
    if (edges.empty()) return StepResult::blocked();
    StepResult r = ev.execute(s, t, edges.front(), chooser);
    if (!r.ok()) return r;
  }
  FAIL("did not terminate");
  return StepResult::blocked();
}

}  // namespace

TEST_CASE("exec: parallel assignment swaps") {
  Env env;
  ir::VarId x = env.b.global("x", env.intT, env.n(1));
  ir::VarId y = env.b.global("y", env.intT, env.n(2));
  ir::CfaId f = env.b.cfa("f");
  ir::EdgeId swap =
      env.b.command(env.b.entry(f), env.b.exit(f), nullptr,
                    {env.set(env.b.v(x), env.b.v(y)), env.set(env.b.v(y), env.b.v(x))});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeEntryState(f, {}, none);
  REQUIRE(s.ok());
  State st = s.value();
  REQUIRE(ev.execute(st, 0, swap, none).ok());
  CHECK(st.globals[0] == Value::integer(2));
  CHECK(st.globals[1] == Value::integer(1));
  CHECK(st.threads[0].top().pc == env.b.exit(f));
  CHECK(ev.terminated(st, 0));
  CHECK(none.requests() == 0);
}

TEST_CASE("exec: refs to locals and array elements") {
  Env env;
  ir::CfaId f = env.b.cfa("f");
  ir::VarId x = env.b.local(f, "x", env.intT);
  ir::VarId a = env.b.local(f, "a", env.b.types().arrayOf(env.intT, 3));
  ir::VarId p = env.b.local(f, "p", env.b.types().refTo(env.intT));
  ir::LocId l1 = env.b.loc(f), l2 = env.b.loc(f), l3 = env.b.loc(f);
  ExprRef deref = env.op(Op::Deref, {env.b.v(p)});
  auto bump = env.set(deref, env.op(Op::Add, {deref, env.n(1)}));
  env.b.command(env.b.entry(f), l1, nullptr,
                {env.set(env.b.v(p), env.op(Op::AddrOf, {env.b.v(x)}))});
  env.b.command(l1, l2, nullptr, {bump});
  ExprRef a1 = env.op(Op::Select, {env.b.v(a), env.n(1)});
  env.b.command(l2, l3, nullptr, {env.set(env.b.v(p), env.op(Op::AddrOf, {a1}))});
  env.b.command(l3, env.b.exit(f), nullptr, {bump});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeEntryState(f, {}, none);
  REQUIRE(s.ok());
  State st = s.value();
  State before = st;
  CHECK(runToEnd(ev, st, 0, none).status() == StepStatus::Terminated);
  const Frame& fr = st.threads[0].top();
  CHECK(fr.locals[0] == Value::integer(1));
  CHECK(fr.locals[1].toString() == "[0, 1, 0]");
  CHECK(fr.locals[2] == Value::ref(Address{AddressBase::Local, 0, 0, 0, 1, {1}}));
  // The copy taken before is untouched.
  CHECK(before.threads[0].top().locals[1].toString() == "[0, 0, 0]");
}

TEST_CASE("exec: call and return with a result") {
  Env env;
  ir::CfaId main = env.b.cfa("main");
  ir::VarId y = env.b.local(main, "y", env.intT);
  ir::LocId after = env.b.loc(main);
  ir::CfaId inc = env.b.cfa("inc", ir::CfaKind::Proc, env.intT);
  ir::VarId k = env.b.param(inc, "k", env.intT);
  env.b.returnValue(env.b.entry(inc), inc, env.op(Op::Add, {env.b.v(k), env.n(1)}));
  env.b.ret(inc);
  ir::EdgeId call =
      env.b.call(env.b.entry(main), after, inc, {env.n(41)}, env.b.v(y), SourceLoc{7, 3});
  env.b.command(after, env.b.exit(main), nullptr, {});
  env.b.ret(main);

  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeEntryState(main, {}, none);
  REQUIRE(s.ok());
  State st = s.value();
  REQUIRE(ev.execute(st, 0, call, none).ok());
  REQUIRE(st.threads[0].frames.size() == 2);
  CHECK(st.threads[0].top().cfa == inc);
  CHECK(st.threads[0].top().locals[0] == Value::integer(41));
  CHECK(st.threads[0].frames[0].pc == env.b.entry(main));  // the caller waits at the call site
  CHECK_FALSE(ev.terminated(st, 0));
  CHECK(runToEnd(ev, st, 0, none).status() == StepStatus::Terminated);
  REQUIRE(st.threads[0].frames.size() == 1);
  CHECK(st.threads[0].top().locals[0] == Value::integer(42));
  // At the bottom frame's exit the Return edge is disabled and executing it reports termination.
  ir::EdgeId lastRet = static_cast<ir::EdgeId>(env.b.program().edges.size() - 1);
  CHECK_FALSE(ev.enabled(st, 0, lastRet));
  CHECK(ev.execute(st, 0, lastRet, none).status() == StepStatus::Terminated);
}

TEST_CASE("exec: a procedure called inside an expression runs to completion") {
  Env env;
  ir::CfaId sq = env.b.cfa("sq", ir::CfaKind::Proc, env.intT);
  ir::VarId k = env.b.param(sq, "k", env.intT);
  ir::VarId r = env.b.result(sq);
  ir::LocId loop = env.b.loc(sq);
  env.b.command(env.b.entry(sq), loop, nullptr,
                {env.set(env.b.v(r), env.op(Op::Mul, {env.b.v(k), env.b.v(k)}))});
  env.b.command(loop, env.b.exit(sq), env.op(Op::Ge, {env.b.v(k), env.n(0)}));
  env.b.command(loop, loop, env.op(Op::Lt, {env.b.v(k), env.n(0)}));  // spins on negatives
  env.b.ret(sq);
  uint32_t callee = env.b.procCallee(sq);
  EvalLimits limits;
  limits.callSteps = 500;
  Evaluator ev(env.b.program(), env.natives, limits);
  State empty;
  auto v =
      ev.eval(env.op(Op::Add, {env.b.callExpr(callee, {env.n(5)}), env.n(1)}), empty, kNoThread);
  REQUIRE(v.ok());
  CHECK(v.value() == Value::integer(26));
  auto spin = ev.eval(env.b.callExpr(callee, {env.n(-1)}), empty, kNoThread);
  REQUIRE_FALSE(spin.ok());
  CHECK(spin.error().limit);
  CHECK(spin.error().message.find("500 steps") != std::string::npos);
}

TEST_CASE("exec: old() reads globals at procedure entry") {
  Env env;
  ir::VarId g = env.b.global("g", env.intT, env.n(5));
  ir::CfaId f = env.b.cfa("f");
  env.b.program().cfas[f].usesOld = true;
  ir::LocId l1 = env.b.loc(f), l2 = env.b.loc(f);
  env.b.command(env.b.entry(f), l1, nullptr,
                {env.set(env.b.v(g), env.op(Op::Add, {env.b.v(g), env.n(1)}))});
  ExprRef oldG = env.op(Op::Old, {env.b.v(g)});
  ir::EdgeId ok =
      env.b.assertion(l1, l2, env.op(Op::Eq, {env.b.v(g), env.op(Op::Add, {oldG, env.n(1)})}));
  ir::EdgeId bad =
      env.b.assertion(l2, env.b.exit(f), env.op(Op::Eq, {env.b.v(g), oldG}), SourceLoc{12, 4});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeEntryState(f, {}, none);
  REQUIRE(s.ok());
  State st = s.value();
  REQUIRE(ev.execute(st, 0, env.b.program().locs[env.b.entry(f)].out[0], none).ok());
  CHECK(st.globals[0] == Value::integer(6));
  CHECK(ev.eval(oldG, st, 0).value() == Value::integer(5));
  REQUIRE(ev.execute(st, 0, ok, none).ok());
  StepResult r = ev.execute(st, 0, bad, none);
  REQUIRE(r.status() == StepStatus::Error);
  CHECK(r.error().kind == ir::ErrorKind::Assert);
  CHECK(r.error().loc == SourceLoc{12, 4});
}

TEST_CASE("exec: havoc asks the chooser") {
  Env env;
  TypeRef color = env.b.types().enumType("Color", {"Red", "Green", "Blue"});
  ir::VarId x = env.b.global("x", env.intT, env.n(0));
  ir::VarId c = env.b.global("c", color, env.b.exprs().enumConst(color, 0));
  ir::VarId input = env.b.global("input", env.b.types().i32Type());  // no initialiser: an input
  ir::CfaId f = env.b.cfa("f");
  ir::LocId l1 = env.b.loc(f);
  ir::EdgeId h1 =
      env.b.command(env.b.entry(f), l1, nullptr,
                    {env.set(env.b.v(x), env.b.star(env.intT)), env.set(env.b.v(c), nullptr)});
  // A guard of `*` (if (*)) is enabled; the branch is the scheduler's choice.
  ir::EdgeId h2 = env.b.command(l1, env.b.exit(f), env.b.star(env.boolT), {});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser script({Value::integer(-3), Value::integer(13), Value::enumMember(color, 2)});
  auto s = ev.makeEntryState(f, {}, script);
  REQUIRE(s.ok());
  State st = s.value();
  CHECK(st.globals[2] == Value::i32(-3));  // the input, converted to i32
  REQUIRE(ev.execute(st, 0, h1, script).ok());
  CHECK(st.globals[0] == Value::integer(13));
  CHECK(st.globals[1].toString() == "Blue");
  CHECK(ev.enabled(st, 0, h2));
  REQUIRE(ev.execute(st, 0, h2, script).ok());
  CHECK(script.requests() == 3);
  CHECK_FALSE(script.exhausted());
  (void)input;
}

TEST_CASE("exec: errors carry their kind and the edge's location") {
  Env env;
  uint32_t cls = env.b.classDecl("Box");
  ir::VarId fld = env.b.field(cls, "val", env.intT);
  (void)fld;
  TypeRef boxT = env.b.types().findClass("Box");
  ir::VarId box = env.b.global("box", boxT);
  ir::CfaId f = env.b.cfa("f");
  ir::VarId x = env.b.param(f, "x", env.intT);
  ir::VarId a = env.b.local(f, "a", env.b.types().arrayOf(env.intT, 2));
  ir::VarId p = env.b.local(f, "p", env.b.types().refTo(env.intT));
  ir::VarId d = env.b.local(f, "d", env.b.types().arrayOf(env.intT, -1));
  ir::LocId at = env.b.entry(f);
  auto edge = [&](ExprRef lhs, ExprRef rhs, uint32_t line) {
    return env.b.command(at, env.b.exit(f), nullptr, {env.set(lhs, rhs)}, SourceLoc{line, 1});
  };
  ir::EdgeId oob = edge(env.op(Op::Select, {env.b.v(a), env.b.v(x)}), env.n(1), 21);
  ir::EdgeId nullStore = edge(env.op(Op::Deref, {env.b.v(p)}), env.n(1), 22);
  ir::EdgeId nullField = edge(env.b.v(x), env.op(Op::Field, {env.b.v(box)}, 0), 23);
  ir::EdgeId div =
      edge(env.b.v(x), env.op(Op::Div, {env.n(1), env.op(Op::Sub, {env.b.v(x), env.b.v(x)})}), 24);
  ir::EdgeId neg = edge(env.b.v(d),
                        env.b.exprs().mk(Op::NewArray, env.b.types().arrayOf(env.intT, -1),
                                         {env.op(Op::Neg, {env.b.v(x)})}),
                        25);
  ir::EdgeId assertion =
      env.b.assertion(at, env.b.exit(f), env.op(Op::Lt, {env.b.v(x), env.n(2)}), SourceLoc{26, 3});
  ir::EdgeId guardErr =
      env.b.command(at, env.b.exit(f), env.op(Op::Gt, {env.op(Op::Deref, {env.b.v(p)}), env.n(0)}),
                    {}, SourceLoc{27, 1});

  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeEntryState(f, {Value::integer(5)}, none);
  REQUIRE(s.ok());
  auto expect = [&](ir::EdgeId e, ir::ErrorKind kind, uint32_t line) {
    State st = s.value();
    StepResult r = ev.execute(st, 0, e, none);
    REQUIRE(r.status() == StepStatus::Error);
    CHECK(r.error().kind == kind);
    CHECK(r.error().loc.line == line);
    CHECK_FALSE(r.error().limit);
    return r.error().message;
  };
  CHECK(expect(oob, ir::ErrorKind::IndexOutOfBounds, 21) == "index 5 out of bounds for length 2");
  expect(nullStore, ir::ErrorKind::NullDeref, 22);
  CHECK(expect(nullField, ir::ErrorKind::NullDeref, 23).find("'val'") != std::string::npos);
  expect(div, ir::ErrorKind::DivByZero, 24);
  CHECK(expect(neg, ir::ErrorKind::NegativeSize, 25) == "negative array size -5");
  expect(assertion, ir::ErrorKind::Assert, 26);
  // A guard that fails counts as enabled, so the explorer executes it and sees the error.
  CHECK(ev.enabled(s.value(), 0, guardErr));
  expect(guardErr, ir::ErrorKind::NullDeref, 27);
}

TEST_CASE("exec: a false guard blocks and changes nothing") {
  Env env;
  ir::VarId x = env.b.global("x", env.intT, env.n(0));
  ir::CfaId f = env.b.cfa("f");
  ir::EdgeId e =
      env.b.command(env.b.entry(f), env.b.exit(f), env.op(Op::Gt, {env.b.v(x), env.n(0)}),
                    {env.set(env.b.v(x), env.n(9))});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  State st = ev.makeEntryState(f, {}, none).value();
  const State before = st;
  CHECK_FALSE(ev.enabled(st, 0, e));
  CHECK(ev.enabledEdges(st, 0).empty());
  CHECK(ev.execute(st, 0, e, none).status() == StepStatus::Blocked);
  CHECK(st == before);
}

TEST_CASE("exec: closed systems: threads, pid, process locals, P@L and invariants") {
  Env env;
  ir::VarId count = env.b.global("count", env.intT, env.n(0));
  ir::CfaId p = env.b.process("P", 2);
  ir::VarId id = env.b.processLocal(
      p, "id", env.intT, env.op(Op::Mul, {env.b.exprs().mk(Op::Pid, env.intT, {}), env.n(10)}));
  ir::LocId crit = env.b.loc(p, "C");
  env.b.command(env.b.entry(p), crit, nullptr,
                {env.set(env.b.v(count), env.op(Op::Add, {env.b.v(count), env.n(1)}))});
  auto atC = [&](int64_t inst) {
    return env.b.exprs().mk(Op::AtLoc, env.boolT, {env.n(inst)}, p,
                            BigInt(static_cast<int64_t>(crit)));
  };
  env.b.invariant("mutex", env.op(Op::Not, {env.op(Op::And, {atC(0), atC(1)})}), SourceLoc{30, 1});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeInitialState(none);
  REQUIRE(s.ok());
  State st = s.value();
  REQUIRE(st.threads.size() == 2);
  CHECK(ev.threadOf(p, 1) == 1);
  CHECK(ev.threadOf(p, 2) == kNoThread);
  CHECK(st.threads[1].processLocals[0] == Value::integer(10));
  ExprRef otherId =
      env.b.exprs().mk(Op::ProcLocal, env.intT, {env.n(1)}, p, BigInt(static_cast<int64_t>(id)));
  CHECK(ev.eval(otherId, st, 0).value() == Value::integer(10));
  {
    State copy = st;
    auto addr = ev.evalLvalue(otherId, copy, 0);
    REQUIRE(addr.ok());
    REQUIRE(ev.store(copy, addr.value(), Value::integer(99)).ok());
    CHECK(copy.threads[1].processLocals[0] == Value::integer(99));
    CHECK(copy.threads[0].processLocals[0] == Value::integer(0));
  }
  {
    State copy = st;
    auto addr = ev.evalLvalue(otherId, copy, 0);
    REQUIRE(addr.ok());
    REQUIRE(ev.store(copy, addr.value(), Value::integer(99)).ok());
    CHECK(copy.threads[1].processLocals[0] == Value::integer(99));
    CHECK(copy.threads[0].processLocals[0] == Value::integer(0));
  }
  CHECK(ev.checkInvariants(st).ok());

  REQUIRE(ev.execute(st, 0, ev.enabledEdges(st, 0).front(), none).ok());
  CHECK(ev.eval(atC(0), st, kNoThread).value() == Value::boolean(true));
  CHECK(ev.checkInvariants(st).ok());
  REQUIRE(ev.execute(st, 1, ev.enabledEdges(st, 1).front(), none).ok());
  CHECK(st.globals[0] == Value::integer(2));
  Status inv = ev.checkInvariants(st);
  REQUIRE_FALSE(inv.ok());
  CHECK(inv.error().kind == ir::ErrorKind::Invariant);
  CHECK(inv.error().loc == SourceLoc{30, 1});
  CHECK(inv.error().message == "invariant 'mutex' violated");
  // P[2] does not exist.
  auto bad = ev.eval(atC(2), st, kNoThread);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().kind == ir::ErrorKind::IndexOutOfBounds);
}

TEST_CASE("exec: class initialiser state and methods on `this`") {
  Env env;
  uint32_t cls = env.b.classDecl("Counter");
  ir::VarId n = env.b.field(cls, "n", env.intT, env.n(3));
  ir::CfaId init = env.b.program().classes[cls].init;
  ir::VarId k = env.b.param(init, "k", env.intT);
  env.b.command(env.b.entry(init), env.b.exit(init), nullptr,
                {env.set(env.b.v(n), env.op(Op::Add, {env.b.v(n), env.b.v(k)}))});
  ir::CfaId bump = env.b.method(cls, "bump");
  env.b.command(env.b.entry(bump), env.b.exit(bump), nullptr,
                {env.set(env.b.v(n), env.op(Op::Mul, {env.b.v(n), env.n(2)}))});
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  auto s = ev.makeClassInitState(cls, {Value::integer(2)}, none);
  REQUIRE(s.ok());
  State st = s.value();
  REQUIRE(st.heap.size() == 1);
  CHECK(st.heap[0].fields[0] == Value::integer(3));  // field initialiser ran, the body not yet
  CHECK(st.threads[0].top().self == 0);
  CHECK(runToEnd(ev, st, 0, none).status() == StepStatus::Terminated);
  CHECK(st.heap[0].fields[0] == Value::integer(5));
  REQUIRE(ev.startMethod(st, 0, bump, {}, 0, none).ok());
  CHECK(runToEnd(ev, st, 0, none).status() == StepStatus::Terminated);
  CHECK(st.heap[0].fields[0] == Value::integer(10));
}

TEST_CASE("exec: `new C(args)` is a call of the initialiser that yields the object") {
  Env env;
  uint32_t cls = env.b.classDecl("Counter");
  ir::VarId n = env.b.field(cls, "n", env.intT, env.n(3));
  ir::CfaId init = env.b.program().classes[cls].init;
  ir::VarId k = env.b.param(init, "k", env.intT);
  env.b.command(env.b.entry(init), env.b.exit(init), nullptr,
                {env.set(env.b.v(n), env.op(Op::Add, {env.b.v(n), env.b.v(k)}))});
  env.b.ret(init);
  ir::CfaId main = env.b.cfa("main");
  ir::VarId c = env.b.local(main, "c", env.b.types().findClass("Counter"));
  ir::VarId d = env.b.local(main, "d", env.b.types().findClass("Counter"));
  ir::LocId l1 = env.b.loc(main);
  env.b.call(env.b.entry(main), l1, init, {env.n(4)}, env.b.v(c));
  env.b.call(l1, env.b.exit(main), init, {env.n(10)}, env.b.v(d));
  Evaluator ev(env.b.program(), env.natives);
  ScriptedChooser none;
  State st = ev.makeEntryState(main, {}, none).value();
  CHECK(runToEnd(ev, st, 0, none).status() == StepStatus::Terminated);
  REQUIRE(st.heap.size() == 2);
  CHECK(st.threads[0].top().locals[0] == Value::object(0));
  CHECK(st.threads[0].top().locals[1] == Value::object(1));
  CHECK(st.heap[0].fields[0] == Value::integer(7));
  CHECK(st.heap[1].fields[0] == Value::integer(13));
  ExprRef dn = env.op(Op::Field, {env.b.v(d)}, 0);
  CHECK(ev.eval(dn, st, 0).value() == Value::integer(13));
}

TEST_CASE("exec: an unbound native is reported, not run") {
  Env env;
  uint32_t callee = env.b.nativeCallee("mystery", {env.intT}, env.intT);
  Evaluator ev(env.b.program(), env.natives);
  auto problems = env.natives.checkBindings(env.b.program());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "native 'mystery' has no implementation");
  State empty;
  auto r = ev.eval(env.b.callExpr(callee, {env.n(1)}), empty, kNoThread);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().limit);
  NativeRegistry bare{NativeRegistry::Empty{}};
  CHECK(bare.find("abs") == nullptr);
  CHECK(env.natives.find("abs") != nullptr);
  CHECK(env.natives.find("hash") != nullptr);
}
