// Abstraction fabrication (abstraction/, fabricate/): the ISSTA'06 results, over every back end.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "fabricate/prover.h"
#include "mc/cli/cli.h"
#include "mc/ir/frontend.h"
#include "mc/smt/solver_decorator.h"
#include "mc/smt/solver_factory.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/cli_run.h"
#include "tests/unit/prove_test_support.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using test::loadShared;
using test::loadText;

struct Setup {
  std::unique_ptr<ir::Program> p;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  std::unique_ptr<smt::Solver> solver;
  fabricate::ProveOptions o;

  Setup(std::unique_ptr<ir::Program> prog, smt::Backend b, const std::string& entry = "")
      : p(std::move(prog)) {
    ev = std::make_unique<exec::Evaluator>(*p, natives);
    smt::SolverOptions so;
    so.backend = b;
    solver = smt::makeSolver(so, smt::programNaming(*p));
    if (!entry.empty()) o.entry = p->findCfaId(entry, ir::CfaKind::Proc);
    o.cutpoints = ir::CutpointMode::All;
  }
  fabricate::ProveResult prove() { return fabricate::prove(*p, *ev, *solver, o); }
  std::set<std::string> states(const fabricate::ProveResult& r) {
    return test::abstractStateTexts(*p, *ev, r);
  }
};

// Answers unknown to every query: a prover that trusted it would "prove" anything.
class UnknownSolver final : public smt::SolverDecorator {
 public:
  explicit UnknownSolver(std::unique_ptr<smt::Solver> inner) : SolverDecorator(std::move(inner)) {}
  std::string name() const override { return wrappedName("unknown"); }

 protected:
  smt::CheckResult doCheck(std::span<const ExprRef>) override {
    return smt::CheckResult::unknown("test");
  }
};

using Outcome = fabricate::ProveResult::Outcome;

}  // namespace

TEST_CASE("prove: the ISSTA'06 Bakery and foo results under every back end") {
  for (smt::Backend b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    Setup bakery(loadShared("bakery2.tdm"), b);
    auto r = bakery.prove();
    CHECK(r.outcome == Outcome::Proved);
    CHECK(r.stats.abstractStates == 16);
    CHECK(r.stats.fabricatedStates >= 1);  // (C,A,T) and (D,A,T) are never reached concretely

    Setup any(loadShared("bakery2_anyinit.tdm"), b);
    CHECK(any.prove().stats.abstractStates == 17);

    Setup fixed(loadShared("foo_fixed.tdm"), b, "foo");
    auto rf = fixed.prove();
    CHECK(rf.outcome == Outcome::Proved);
    CHECK(rf.stats.abstractStates == 15);

    Setup coarse(loadShared("foo_coarse.tdm"), b, "foo");
    auto rc = coarse.prove();
    CHECK(rc.outcome == Outcome::PotentialError);
    CHECK(rc.stats.abstractStates == 19);
    REQUIRE(rc.problem);
    CHECK(rc.problem->fromFabricated);
    CHECK(rc.problem->trace.fabricated);
    CHECK(rc.problem->error.kind == ir::ErrorKind::NullDeref);

    Setup race(loadShared("bakery2_race.tdm"), b);
    auto rr = race.prove();
    CHECK(rr.outcome == Outcome::Error);
    REQUIRE(rr.problem);
    CHECK_FALSE(rr.problem->fromFabricated);
  }
}

TEST_CASE("prove: fabrication reaches the fixpoint of the eager abstract interpreter (Thm 3.2)") {
  using Engine = fabricate::ProveOptions::Engine;
  for (const char* file : {"bakery2.tdm", "bakery2_anyinit.tdm", "bakery2_rules.tdm"}) {
    CAPTURE(file);
    Setup fab(loadShared(file), smt::Backend::Z3);
    auto a = fab.prove();
    CHECK(a.outcome == Outcome::Proved);
    for (Engine e : {Engine::Models, Engine::Eager}) {
      Setup base(loadShared(file), smt::Backend::Z3);
      base.o.engine = e;
      auto b = base.prove();
      CHECK(b.outcome == Outcome::Proved);
      CHECK(fab.states(a) == base.states(b));
      CHECK(b.stats.solverQueries > a.stats.solverQueries);
    }
  }
  for (Engine e : {Engine::Models, Engine::Eager}) {
    Setup fab(loadShared("foo_fixed.tdm"), smt::Backend::Cvc5, "foo");
    Setup base(loadShared("foo_fixed.tdm"), smt::Backend::Cvc5, "foo");
    base.o.engine = e;
    CHECK(fab.states(fab.prove()) == base.states(base.prove()));
    Setup coarse(loadShared("foo_coarse.tdm"), smt::Backend::Z3, "foo");
    coarse.o.engine = e;
    auto rc = coarse.prove();
    CHECK(rc.outcome == Outcome::PotentialError);
    CHECK(rc.stats.abstractStates == 19);
  }
}

TEST_CASE("prove: --check-proof accepts the invariant and rejects one with a state missing") {
  Setup s(loadShared("bakery2.tdm"), smt::Backend::Z3);
  auto r = s.prove();
  REQUIRE(r.outcome == Outcome::Proved);
  smt::SolverOptions so;
  so.backend = smt::Backend::Cvc5;
  auto other = smt::makeSolver(so, smt::programNaming(*s.p));
  CHECK(fabricate::checkProof(*s.p, *s.ev, *other, s.o, r) == "");
  for (size_t drop = 0; drop < r.nodes.size(); ++drop) {
    auto broken = r;
    broken.nodes.erase(broken.nodes.begin() + static_cast<long>(drop));
    auto fresh = smt::makeSolver(so, smt::programNaming(*s.p));
    CHECK_MESSAGE(fabricate::checkProof(*s.p, *s.ev, *fresh, s.o, broken) != "",
                  "dropping abstract state " << drop);
  }
}

TEST_CASE("prove: a solver that answers unknown never yields proved") {
  Setup s(loadShared("bakery2.tdm"), smt::Backend::Z3);
  s.solver = std::make_unique<UnknownSolver>(std::move(s.solver));
  auto r = s.prove();
  CHECK(r.outcome == Outcome::Unknown);
  CHECK(r.stats.unknownAnswers > 0);
  CHECK(r.reason.find("unknown") != std::string::npos);
}

TEST_CASE("prove: maxAbstractStates gives up with unknown, never a verdict") {
  Setup s(loadShared("bakery2.tdm"), smt::Backend::Z3);
  const auto whole = s.prove();
  REQUIRE(whole.outcome == Outcome::Proved);
  REQUIRE(whole.nodes.size() > 5);
  CHECK_FALSE(whole.gaveUp);
  Setup capped(loadShared("bakery2.tdm"), smt::Backend::Z3);
  capped.o.maxAbstractStates = 5;
  const auto r = capped.prove();
  CHECK(r.outcome == Outcome::Unknown);
  CHECK(r.gaveUp);
  CHECK(r.reason == "more than 5 abstract states");
}

#ifndef TANDEM_SANITIZED  // 8 s in Release
TEST_CASE("prove: a model without predicates whose default round grows past its cap is refined") {
  // bench/models/filter3.tdm without its predicates: the 3-process filter lock.
  std::ifstream in(std::string(TANDEM_SOURCE_DIR) + "/bench/models/filter3.tdm");
  std::string text;
  for (std::string l; std::getline(in, l);)
    if (l.find("predicate") == std::string::npos) text += l + "\n";
  test::TempDir tmp;
  const auto r = test::runTandem({"prove", tmp.write("filter3.tdm", text).string()});
  CHECK(r.rc == 0);
  CHECK(r.out.rfind("verdict: proved\n", 0) == 0);
  CHECK(r.out.find("the default predicates' round ended at more than 2000 abstract states: "
                   "refinement from none") != std::string::npos);
  // The paper's method alone: no proof within a second.
  const auto n =
      test::runTandem({"prove", tmp.file("filter3.tdm"), "--no-refine", "--timeout", "1"});
  CHECK(n.rc == 4);
}
#endif

TEST_CASE("prove: the hybrid mode stops executing where no new abstract state appears") {
  Setup plain(loadShared("loop500.tdm"), smt::Backend::Z3, "main");
  plain.o.cutpoints = ir::CutpointMode::Loops;
  Setup hybrid(loadShared("loop500.tdm"), smt::Backend::Z3, "main");
  hybrid.o.cutpoints = ir::CutpointMode::Loops;
  hybrid.o.stall = 10;
  hybrid.o.executeBound.reset();  // only the stall ends its executions
  auto a = plain.prove(), b = hybrid.prove();
  REQUIRE(b.problem);
  CHECK(b.problem->error.kind == ir::ErrorKind::Assert);
  CHECK(b.stats.fabricatedStates <= 10);
  CHECK(b.stats.concreteStates < a.stats.concreteStates);
  CHECK(b.stats.stalledExecutions >= 1);
  CHECK(a.stats.stalledExecutions == 0);
}

TEST_CASE("prove: symbolic initial values are covered by models of the initial condition") {
  // No test, inputs everywhere: every initial abstract state comes from the solver.
  Setup s(loadText("var x: int;\nvar y: int;\n"
                   "process P { A: x := x + 1; B: y := y + 1; goto A; }\n"
                   "predicate x <= y;\n"
                   "invariant ok: true;\n"),
          smt::Backend::Z3);
  auto r = s.prove();
  CHECK(r.outcome == Outcome::Proved);
  CHECK(r.stats.abstractStates == 4);  // A and B, each with x <= y true and false
}

TEST_CASE(
    "prove: an unprovable abstraction ends in a potential error, a wrong program in an error") {
  // Without x >= 0 the abstraction cannot show that x stays non-negative.
  const std::string body =
      "proc main() {\n  var x: int = 0;\n  predicate x == 0;\n"
      "  while (*) {\n    x := x + 1;\n  }\n  CHECK: assert x >= 0;\n}\n";
  Setup weak(loadText(body), smt::Backend::Z3, "main");
  weak.o.cutpoints = ir::CutpointMode::Loops;
  auto r = weak.prove();
  CHECK(r.outcome == Outcome::PotentialError);
  Setup good(loadText("proc main() {\n  var x: int = 0;\n  predicate x >= 0;\n"
                      "  while (*) {\n    x := x + 1;\n  }\n  CHECK: assert x >= 0;\n}\n"),
             smt::Backend::Z3, "main");
  good.o.cutpoints = ir::CutpointMode::Loops;
  CHECK(good.prove().outcome == Outcome::Proved);
}

TEST_CASE("prove: calls keep the callers' predicates in scope, references into caller frames") {
  const std::string callee =
      "proc bump(p: ref int) {\n  predicate 0 <= *p;\n  *p := *p + STEP;\n}\n"
      "proc main() {\n  var y: int = 0;\n  var z: int = 0;\n  predicate y >= 0;\n"
      "  predicate z >= 0;\n  while (*) {\n    if (*) { call bump(&y); } else { call bump(&z); }\n"
      "  }\n  END: assert y >= 0 && z >= 0;\n}\n";
  auto with = [&](const std::string& step) {
    std::string t = callee;
    t.replace(t.find("STEP"), 4, step);
    return t;
  };
  for (smt::Backend b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    Setup good(loadText(with("1")), b, "main");
    good.o.cutpoints = ir::CutpointMode::Loops;
    auto r = good.prove();
    CHECK(r.outcome == Outcome::Proved);
    bool sawStack = false;
    for (const auto& n : r.nodes) sawStack = sawStack || n.state.pcs.size() == 2;
    CHECK(sawStack);  // abstract states inside bump carry main's location too
    Setup bad(loadText(with("(0 - 1)")), b, "main");
    bad.o.cutpoints = ir::CutpointMode::Loops;
    auto rb = bad.prove();
    CHECK(rb.outcome == Outcome::Error);  // y becomes -1 after one call from the real start
  }
  // A returned value reaches the caller's predicates (the callee's exit is passed through).
  Setup ret(loadText("proc inc(x: int): int {\n  predicate x >= 0;\n  return x + 1;\n}\n"
                     "proc main() {\n  var y: int = 0;\n  predicate y >= 0;\n"
                     "  while (*) {\n    y := inc(y);\n  }\n  END: assert y >= 0;\n}\n"),
            smt::Backend::Z3, "main");
  ret.o.cutpoints = ir::CutpointMode::Loops;
  CHECK(ret.prove().outcome == Outcome::Proved);
}

TEST_CASE("prove: code outside the fabrication is refused, not misjudged") {
  // Unbounded recursion: the abstract call stacks would not be finite.
  Setup rec(loadText("proc r(n: int) {\n  predicate n > 0;\n  if (n > 0) {\n    call r(n - 1);\n"
                     "  }\n}\nproc main(k: int) {\n  call r(k);\n}\n"),
            smt::Backend::Z3, "main");
  CHECK_THROWS_AS(rec.prove(), symbolic::NotImplemented);
  // A call inside an expression would reach the solver as an uninterpreted function.
  Setup expr(loadText("proc sq(x: int): int {\n  return x * x;\n}\n"
                      "proc main(k: int) {\n  predicate k >= 0;\n  assert sq(k) >= 0;\n}\n"),
             smt::Backend::Z3, "main");
  CHECK_THROWS_AS(expr.prove(), symbolic::NotImplemented);
}

TEST_CASE("prove command: --predicates FILE, bad flags") {
  auto p = loadText(
      "var x1: int = 0;\nvar x2: int = 0;\n"
      "process P1 { A: x1 := x2; B: x1 := x1 + 1; C: await x1 <= x2; D: skip; goto A; }\n"
      "process P2 { A: x2 := x1; B: x2 := x2 + 1; C: await x2 < x1; D: skip; goto A; }\n"
      "invariant mutex: !(P1@D && P2@D);\n");
  const std::string path = "prove_test_predicates.txt";
  {
    std::ofstream f(path);
    f << "// Bakery's one predicate\npredicate x1 <= x2;\n";
  }
  test::Args o;
  o.command("prove");
  o.file("t.tdm");
  o.flag("--json");
  o.flag("--quiet");
  o.set("--cutpoints", ir::cutpointModeName(ir::CutpointMode::All));
  o.set("--predicates", "/dev/null");  // no predicates at all (not even the default ones)
  std::ostringstream out, err;
  int withoutPreds = o.execute(*p, out, err);
  CHECK(withoutPreds == 3);  // without x1 <= x2 mutual exclusion is out of reach
  o.unset("--predicates");   // a model without predicates gets the default ones
  std::ostringstream out1, err1;
  CHECK(o.execute(*p, out1, err1) == 0);
  o.set("--predicates", path);
  std::ostringstream out2, err2;
  CHECK(o.execute(*p, out2, err2) == 0);
  auto j = nlohmann::json::parse(out2.str());
  CHECK(j["stats"]["abstract_states"] == 16);
  CHECK(j["verdict"] == "proved");
  std::remove(path.c_str());

  o.set("--predicates", "no-such-file.txt");
  std::ostringstream out3, err3;
  CHECK(o.execute(*p, out3, err3) == 2);
  CHECK(err3.str().find("no-such-file.txt") != std::string::npos);
}
