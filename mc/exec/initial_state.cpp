// Initial states (closed systems, entry procedures, class initialisers, `test` declarations) and
// the state properties (`invariant`, `init`).
#include <string>

#include "mc/exec/eval_context.h"

namespace tandem::exec {

namespace {

// The constant a `test { x = 1, ... }` gives global `v`, or null.
ExprRef testValueFor(const ir::Test* test, ir::VarId v) {
  if (!test) return nullptr;
  for (const ir::Assignment& a : test->state)
    if (a.lhs && a.lhs->op == Op::Var && a.lhs->payload == v) return a.rhs;
  return nullptr;
}

ExecError at(ExecError e, SourceLoc loc) {
  if (!e.loc.valid()) e.loc = loc;
  return e;
}

}  // namespace

Status Evaluator::initGlobals(State& s, Chooser& chooser, const ir::Test* overrides,
                              Inits inits) const {
  // Defaults first, so that a slot is never read uninitialised.
  for (ir::VarId id : program_.globals) {
    const ir::Variable& v = program_.vars[id];
    if (v.slot >= s.globals.size()) s.globals.resize(v.slot + 1);
    s.globals[v.slot] = defaultValue(v.type);
  }
  const std::vector<std::vector<size_t>> due = program_.initSchedule();
  // Each `init` as soon as the globals it reads are set: inputs it excludes make no state, so
  // an initialiser after it that would fail for them is no error.
  auto initsDue = [&](size_t i) -> Status {
    if (inits == Inits::Ignore) return Status::success();
    for (size_t k : due[i]) {
      auto b = evalBool(Ctx(s, kNoThread), program_.inits[k]);
      if (!b || !b.value()) {
        ExecError e{ir::ErrorKind::Assert, SourceLoc{}, "excluded by `init`", false};
        e.excluded = true;
        return e;
      }
    }
    return Status::success();
  };
  Status st = initsDue(0);
  if (!st) return st;
  // Then in declaration order: an initialiser may read the globals before it.
  for (size_t i = 0; i < program_.globals.size(); ++i) {
    const ir::Variable& v = program_.vars[program_.globals[i]];
    ExprRef init = testValueFor(overrides, program_.globals[i]);
    if (!init) init = v.init;
    Value value;
    if (!init || init->op == Op::Star) {
      value = chooser.choose(v.type, v.loc);  // an input of the system
    } else {
      auto r = evalIn(Ctx(s, kNoThread), init);
      if (!r) return at(std::move(r).error(), v.loc);
      value = std::move(r).value();
    }
    s.globals[v.slot] = coerceIntegral(value, v.type);
    st = initsDue(i + 1);
    if (!st) return st;
  }
  return Status::success();
}

Result<State> Evaluator::makeInitialState(Chooser& chooser, Inits inits) const {
  return initialState(chooser, nullptr, inits);
}

Result<State> Evaluator::initialState(Chooser& chooser, const ir::Test* overrides,
                                      Inits inits) const {
  if (!program_.isClosed()) return internalError("makeInitialState on an open system");
  State s;
  Status st = initGlobals(s, chooser, overrides, inits);
  if (!st) return std::move(st).error();
  for (ir::CfaId p : program_.processes) {
    const ir::Cfa& cfa = program_.cfas[p];
    for (uint32_t i = 0; i < cfa.instances; ++i) {
      const ThreadId t = static_cast<ThreadId>(s.threads.size());
      s.threads.push_back(Thread{p, i, {}, {}});
      for (ir::VarId id : cfa.processLocals) {
        const ir::Variable& v = program_.vars[id];
        auto& locals = s.threads[t].processLocals;
        if (v.slot >= locals.size()) locals.resize(v.slot + 1);
        locals[v.slot] = defaultValue(v.type);
      }
      // Initialisers may read `pid`, globals and the process's earlier locals.
      for (ir::VarId id : cfa.processLocals) {
        const ir::Variable& v = program_.vars[id];
        if (!v.init) continue;
        auto r = evalIn(Ctx(s, t), v.init);
        if (!r) return at(std::move(r).error(), v.loc);
        s.threads[t].processLocals[v.slot] = coerceIntegral(r.value(), v.type);
      }
      st = pushFrame(s, t, p, {}, kNoObject, ir::kNone, chooser, 0);
      if (!st)
        return at(std::move(st).error(),
                  cfa.entry != ir::kNone ? program_.locs[cfa.entry].loc : SourceLoc{});
    }
  }
  if (program_.rules != ir::kNone) {
    const ThreadId t = static_cast<ThreadId>(s.threads.size());
    s.threads.push_back(Thread{program_.rules, 0, {}, {}});
    st = pushFrame(s, t, program_.rules, {}, kNoObject, ir::kNone, chooser, 0);
    if (!st) return std::move(st).error();
  }
  return s;
}

Result<State> Evaluator::makeEntryState(ir::CfaId entry, std::vector<Value> args, Chooser& chooser,
                                        Inits inits) const {
  if (entry >= program_.cfas.size()) return internalError("bad entry CFA");
  State s;
  Status st = initGlobals(s, chooser, nullptr, inits);
  if (!st) return std::move(st).error();
  s.threads.push_back(Thread{entry, 0, {}, {}});
  st = pushFrame(s, 0, entry, std::move(args), kNoObject, ir::kNone, chooser, 0);
  if (!st) return at(std::move(st).error(), program_.locs[program_.cfas[entry].entry].loc);
  return s;
}

Result<State> Evaluator::makeClassInitState(uint32_t classIndex, std::vector<Value> args,
                                            Chooser& chooser, Inits inits) const {
  if (classIndex >= program_.classes.size()) return internalError("bad class index");
  State s;
  Status st = initGlobals(s, chooser, nullptr, inits);
  if (!st) return std::move(st).error();
  s.threads.push_back(Thread{program_.classes[classIndex].init, 0, {}, {}});
  st = pushInitFrame(s, 0, classIndex, std::move(args), ir::kNone, chooser, 0);
  if (!st) return std::move(st).error();
  return s;
}

Result<std::vector<Value>> Evaluator::constantArgs(const std::vector<ExprRef>& args) const {
  const State empty;
  std::vector<Value> out;
  for (ExprRef a : args) {
    auto v = evalIn(Ctx(empty, kNoThread), a);
    if (!v) return std::move(v).error();
    out.push_back(std::move(v).value());
  }
  return out;
}

Result<State> Evaluator::makeTestState(const ir::Test& test, Chooser& chooser) const {
  if (test.isState) {
    auto s = initialState(chooser, &test, Inits::Check);
    if (!s) return at(std::move(s).error(), test.loc);
    return s;
  }
  if (test.cfa >= program_.cfas.size()) return internalError("test of an unknown target");
  auto args = constantArgs(test.args);
  if (!args) return at(std::move(args).error(), test.loc);
  const ir::Cfa& cfa = program_.cfas[test.cfa];
  auto s = cfa.kind == ir::CfaKind::ClassInit
               ? makeClassInitState(cfa.classIndex, std::move(args).value(), chooser)
               : makeEntryState(test.cfa, std::move(args).value(), chooser);
  if (!s) return at(std::move(s).error(), test.loc);
  return s;
}

std::string invariantMessage(const ir::Property& p) {
  return "invariant" + (p.name.empty() ? std::string() : " '" + p.name + "'") + " violated";
}

Status Evaluator::checkInvariants(const State& s) const {
  for (const ir::Property& p : program_.invariants) {
    auto b = evalBool(Ctx(s, kNoThread), p.expr);
    if (!b) return at(std::move(b).error(), p.loc);
    if (!b.value()) return ExecError{ir::ErrorKind::Invariant, p.loc, invariantMessage(p), false};
  }
  return Status::success();
}

Result<bool> Evaluator::initsHold(const State& s) const {
  for (ExprRef e : program_.inits) {
    auto b = evalBool(Ctx(s, kNoThread), e);
    if (!b || !b.value()) return b;
  }
  return true;
}

}  // namespace tandem::exec
