// The one symbolic transfer relation (mc/symbolic/transfer.h) on a call with a return value and
// an implicit check: edge by edge under a recording policy, then through the policies of both
// engines that use it (the symbolic explorer of `check --entry` and the fragments of `prove` and
// `export-chc`), which must find the same errors on the same inputs.
#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "mc/exec/natives.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/fragments.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "tests/unit/test_programs.h"

using namespace tandem;
using namespace tandem::symbolic;

namespace {

// Line 3: the division (div-by-zero when b == 0); line 9: the assertion.
const char* const kCallWithCheck = R"(
proc ratio(a: int, b: int): int {
  return a / b;
}

proc main(x: int, y: int) {
  var r: int = 0;
  r := ratio(x, y);
  assert r != 7;
}
)";

struct Fixture {
  std::unique_ptr<ir::Program> p = test::loadText(kCallWithCheck);
  exec::NativeRegistry natives;
  exec::Evaluator ev{*p, natives};
  SymEvaluator sev{*p, ev};
  ir::CfaId main = p->findCfaId("main", ir::CfaKind::Proc);
  ir::CfaId ratio = p->findCfaId("ratio", ir::CfaKind::Proc);

  uint32_t slot(ir::CfaId cfa, const std::string& name) const {
    for (ir::VarId v : p->cfas[cfa].locals)
      if (p->vars[v].name == name) return p->vars[v].slot;
    FAIL("no local " << name);
    return 0;
  }
  static std::array<bool, ir::kErrorKinds> allTracked() {
    std::array<bool, ir::kErrorKinds> t{};
    t.fill(true);
    return t;
  }
};

// Feasibility always granted; everything the relation hands out is kept.
class Recorder final : public TransferPolicy {
 public:
  explicit Recorder(const SymEvaluator& ev) : ev_(ev) {}
  struct Failure {
    ExprRef bad;
    exec::ExecError error;
    ir::EdgeId edge;
  };
  bool feasible(SymState&) override { return true; }
  void fail(const SymState&, ExprRef bad, const exec::ExecError& e, ir::EdgeId id) override {
    failures.push_back({bad, e, id});
  }
  SymValue input(SymState&, InputKind, TypeRef t, const std::string& name) override {
    ExprRef symbol = nullptr;
    inputs.push_back(name);
    return ev_.freshInput(t, name, symbol);
  }
  void successor(SymState&& s, ir::EdgeId) override { next.push_back(std::move(s)); }
  void returned(const SymState&, ir::EdgeId id) override { returns.push_back(id); }

  // The one successor of the last step.
  SymState take() {
    REQUIRE(next.size() == 1);
    SymState s = std::move(next.back());
    next.clear();
    return s;
  }

  std::vector<Failure> failures;
  std::vector<std::string> inputs;
  std::vector<SymState> next;
  std::vector<ir::EdgeId> returns;

 private:
  const SymEvaluator& ev_;
};

ir::EdgeId onlyEdge(const ir::Program& p, const SymState& s) {
  REQUIRE(p.locs[s.top().pc].out.size() == 1);
  return p.locs[s.top().pc].out[0];
}

}  // namespace

TEST_CASE("transfer: a call returns its value to the caller; checks fork errors, then hold") {
  Fixture f;
  ExprManager& em = *f.p->exprs;
  Transfer tr(f.sev, Fixture::allTracked());
  Recorder rec(f.sev);
  SymState s;
  REQUIRE(tr.enter(s, f.main, rec));
  CHECK(rec.inputs == std::vector<std::string>{"x", "y"});
  const ExprRef x = s.top().locals[f.slot(f.main, "x")].expr;
  const ExprRef y = s.top().locals[f.slot(f.main, "y")].expr;

  // The call: the callee's frame, parameters bound to the arguments.
  const ir::EdgeId call = onlyEdge(*f.p, s);
  tr.step(s, Mover{}, call, rec);
  s = rec.take();
  REQUIRE(s.frames.size() == 2);
  CHECK(s.top().cfa == f.ratio);
  CHECK(s.top().locals[f.slot(f.ratio, "a")].expr == x);
  CHECK(s.top().locals[f.slot(f.ratio, "b")].expr == y);
  CHECK(s.path == std::vector<ir::EdgeId>{call});

  // `return a / b`: the division by zero forks off as an error, and b != 0 is assumed.
  const ir::EdgeId divide = onlyEdge(*f.p, s);
  tr.step(s, Mover{}, divide, rec);
  s = rec.take();
  REQUIRE(rec.failures.size() == 1);
  CHECK(rec.failures[0].error.kind == ir::ErrorKind::DivByZero);
  CHECK(rec.failures[0].error.loc.line == 3);
  CHECK(rec.failures[0].edge == divide);
  REQUIRE(!s.pathCond.empty());
  CHECK(em.mkNot(s.pathCond.back()) == rec.failures[0].bad);
  const ExprRef quotient = s.top().locals[f.slot(f.ratio, "result")].expr;
  CHECK(quotient->op == Op::Div);

  // The return: the value reaches the caller's lvalue; the caller goes on after the call.
  tr.step(s, Mover{}, onlyEdge(*f.p, s), rec);
  s = rec.take();
  REQUIRE(s.frames.size() == 1);
  CHECK(s.top().locals[f.slot(f.main, "r")].expr == quotient);
  CHECK(s.top().pc == f.p->edges[call].to);

  // The assertion: a tracked failure, then the condition holds.
  tr.step(s, Mover{}, onlyEdge(*f.p, s), rec);
  s = rec.take();
  REQUIRE(rec.failures.size() == 2);
  CHECK(rec.failures[1].error.kind == ir::ErrorKind::Assert);
  CHECK(rec.failures[1].error.loc.line == 9);
  CHECK(em.mkNot(s.pathCond.back()) == rec.failures[1].bad);

  // The bottom frame's return is the policy's to decide.
  const ir::EdgeId ret = onlyEdge(*f.p, s);
  CHECK(tr.atBottomExit(s));
  tr.step(s, Mover{}, ret, rec);
  CHECK(rec.next.empty());
  CHECK(rec.returns == std::vector<ir::EdgeId>{ret});
}

TEST_CASE("transfer: an untracked check is assumed without an error") {
  Fixture f;
  auto tracked = Fixture::allTracked();
  tracked[static_cast<size_t>(ir::ErrorKind::DivByZero)] = false;
  Transfer tr(f.sev, tracked);
  Recorder rec(f.sev);
  SymState s;
  REQUIRE(tr.enter(s, f.main, rec));
  tr.step(s, Mover{}, onlyEdge(*f.p, s), rec);
  s = rec.take();
  tr.step(s, Mover{}, onlyEdge(*f.p, s), rec);
  s = rec.take();
  CHECK(rec.failures.empty());
  CHECK(s.pathCond.size() == 1);  // b != 0
}

TEST_CASE("transfer: the explorer and the fragments find the same errors on the same inputs") {
  for (smt::Backend backend : smt::allBackends()) {
    CAPTURE(smt::backendName(backend));
    Fixture f;
    auto solver = smt::makeBackend(backend, smt::programNaming(*f.p));
    ExprManager& em = *f.p->exprs;

    ExploreOptions o;
    o.entry = f.main;
    o.stopAtError = false;
    ExploreResult run = exploreSymbolic(*f.p, f.ev, *solver, o);

    // One fragment from main's entry to its exit, through the call.
    std::vector<bool> cut(f.p->locs.size(), false);
    cut[f.p->cfas[f.main].entry] = cut[f.p->cfas[f.main].exit] = true;
    FragmentBuilder fb(*f.p, f.sev, cut, Fixture::allTracked());
    std::vector<ExprRef> initCond;
    SymConfig c0 = fb.initialConfig(f.main, initCond);
    const ExprRef x = c0.st.top().locals[f.slot(f.main, "x")].expr;
    const ExprRef y = c0.st.top().locals[f.slot(f.main, "y")].expr;
    std::vector<FragmentEnd> ends = fb.fragments(c0);

    std::set<std::pair<ir::ErrorKind, uint32_t>> explored, fragmentErrors;
    for (const PathEnd& e : run.ends)
      if (e.error) explored.insert({e.error->kind, e.error->loc.line});
    for (const FragmentEnd& e : ends)
      if (e.kind == FragmentEnd::Kind::Error)
        fragmentErrors.insert({e.error->kind, e.error->loc.line});
    const std::set<std::pair<ir::ErrorKind, uint32_t>> expected{{ir::ErrorKind::DivByZero, 3},
                                                                {ir::ErrorKind::Assert, 9}};
    CHECK(explored == expected);
    CHECK(fragmentErrors == expected);

    // The explorer's failing inputs satisfy the condition of the fragment's error.
    for (const PathEnd& pe : run.ends) {
      if (!pe.error) continue;
      REQUIRE(pe.args.size() == 2);
      for (const FragmentEnd& fe : ends) {
        if (fe.kind != FragmentEnd::Kind::Error || fe.error->kind != pe.error->kind) continue;
        std::vector<ExprRef> as = initCond;
        as.insert(as.end(), fe.pathCond.begin(), fe.pathCond.end());
        as.push_back(em.mkEq(x, em.intConst(pe.args[0].toBigInt())));
        as.push_back(em.mkEq(y, em.intConst(pe.args[1].toBigInt())));
        CHECK(solver->check(std::span<const ExprRef>(as)).isSat());
      }
    }

    // The path that gets through ends at main's exit with r = x / y.
    size_t through = 0;
    for (const FragmentEnd& e : ends) {
      if (e.kind != FragmentEnd::Kind::Cutpoint) continue;
      ++through;
      CHECK(e.post.pcs == std::vector<ir::LocId>{f.p->cfas[f.main].exit});
      const ExprRef r = e.post.st.top().locals[f.slot(f.main, "r")].expr;
      REQUIRE(r->op == Op::Div);
      CHECK(r->kid(0) == x);
      CHECK(r->kid(1) == y);
    }
    CHECK(through == 1);
  }
}
