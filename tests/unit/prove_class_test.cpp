// `prove --class` (ISSTA'06, Sect. 5.1): class invariants of BoundedStack by abstraction
// fabrication, over every back end.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "fabricate/prover.h"
#include "mc/cli/cli.h"
#include "mc/smt/solver_factory.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/prove_test_support.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using Outcome = fabricate::ProveResult::Outcome;

struct ClassSetup {
  std::unique_ptr<ir::Program> p;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  std::unique_ptr<smt::Solver> solver;
  fabricate::ProveOptions o;

  ClassSetup(std::unique_ptr<ir::Program> prog, smt::Backend b, const std::string& cls)
      : p(std::move(prog)) {
    ev = std::make_unique<exec::Evaluator>(*p, natives);
    smt::SolverOptions so;
    so.backend = b;
    solver = smt::makeSolver(so, smt::programNaming(*p));
    auto it = std::find_if(p->classes.begin(), p->classes.end(),
                           [&](const ir::ClassInfo& c) { return c.name == cls; });
    REQUIRE(it != p->classes.end());
    o.classIndex = static_cast<uint32_t>(it - p->classes.begin());
    o.entry = it->init;
    o.argPool = {-1, 0, 1, 2, 3};
    o.tracked = {};
    o.tracked[static_cast<size_t>(ir::ErrorKind::IndexOutOfBounds)] = true;
  }
  fabricate::ProveResult prove() { return fabricate::prove(*p, *ev, *solver, o); }
  std::set<std::string> states(const fabricate::ProveResult& r) {
    return test::abstractStateTexts(*p, *ev, r);
  }
};

int runProve(test::Args o, const std::string& text, std::string& out, std::string& err) {
  auto p = test::loadText(text);
  std::ostringstream os, es;
  int rc = o.execute(*p, os, es);
  out = os.str();
  err = es.str();
  return rc;
}

}  // namespace

TEST_CASE("prove --class: BoundedStack's class invariant, and pop's missing check") {
  for (smt::Backend b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    ClassSetup fixed(test::loadShared("bounded_stack_fixed.tdm"), b, "BoundedStack");
    auto r = fixed.prove();
    CHECK(r.outcome == Outcome::Proved);
    CHECK(r.classInvariant == "0 <= size && size <= max && max == len(elems)");
    // Each proof is re-checked by the other back end.
    smt::SolverOptions so;
    so.backend = smt::otherBackend(b);
    auto other = smt::makeSolver(so, smt::programNaming(*fixed.p));
    CHECK(fabricate::checkProof(*fixed.p, *fixed.ev, *other, fixed.o, r).empty());

    ClassSetup buggy(test::loadShared("bounded_stack.tdm"), b, "BoundedStack");
    auto rb = buggy.prove();
    CHECK(rb.outcome != Outcome::Proved);
    REQUIRE(rb.problem);
    CHECK(rb.problem->error.kind == ir::ErrorKind::IndexOutOfBounds);
    CHECK(buggy.p->locName(buggy.p->findLabel("L1").value()) == "L1");
    CHECK(rb.problem->error.loc.line == buggy.p->locs[*buggy.p->findLabel("L1")].loc.line);
  }
}

TEST_CASE("prove --class: the invariance checks quantify over every argument value") {
  // With no integer in the pool, execution never calls push (its argument has no value): only
  // the invariance checks, whose argument is a fresh symbol, can fabricate states inside push.
  ClassSetup pooled(test::loadShared("bounded_stack_fixed.tdm"), smt::Backend::Z3, "BoundedStack");
  auto withPool = pooled.prove();
  ClassSetup empty(test::loadShared("bounded_stack_fixed.tdm"), smt::Backend::Z3, "BoundedStack");
  empty.o.argPool = {};
  auto noPool = empty.prove();
  CHECK(noPool.outcome == Outcome::Proved);
  CHECK(noPool.stats.fabricatedStates > withPool.stats.fabricatedStates);
  CHECK(empty.states(noPool) == pooled.states(withPool));  // the same fixpoint

  // No test pops an empty stack and execution cannot push: the error needs fabrication.
  ClassSetup buggy(test::loadShared("bounded_stack.tdm"), smt::Backend::Cvc5, "BoundedStack");
  buggy.o.argPool = {};
  auto rb = buggy.prove();
  CHECK(rb.outcome == Outcome::PotentialError);
  REQUIRE(rb.problem);
  CHECK(rb.problem->fromFabricated);
  CHECK(rb.problem->error.kind == ir::ErrorKind::IndexOutOfBounds);
}

TEST_CASE("prove --class command: report, class invariant, bad input") {
  const std::string counter =
      "class Counter {\n  var c: int = 0;\n  var limit: int;\n"
      "  predicate c == 0;\n  predicate 0 <= c;\n  predicate c <= limit;\n"
      "  init(n: int) {\n    if (n < 0) { n := 0; }\n    limit := n;\n  }\n"
      "  method inc() {\n    if (c < limit) { c := c + 1; }\n  }\n"
      "  method reset() {\n    c := 0;\n  }\n"
      "  method get(): int {\n    assert c <= limit;\n    return c;\n  }\n}\n"
      "test Counter(2);\n";
  test::Args o;
  o.command("prove");
  o.file("t.tdm");
  o.flag("--json");
  o.set("--class", "Counter");
  std::string out, err;
  REQUIRE(runProve(o, counter, out, err) == 0);
  auto j = nlohmann::json::parse(out);
  CHECK(j["verdict"] == "proved");
  CHECK(j["class"] == "Counter");
  CHECK(j["class_invariant"] == "0 <= c && c <= limit");
  CHECK(j["argument_pool"] == nlohmann::json::array({-1, 0, 1, 2}));

  o.unset("--json");
  REQUIRE(runProve(o, counter, out, err) == 0);
  CHECK(out.find("class invariant of Counter: 0 <= c && c <= limit") != std::string::npos);

  o.set("--class", "Nope");
  CHECK(runProve(o, counter, out, err) == 2);
  CHECK(err.find("no class 'Nope'") != std::string::npos);
  o.set("--class", "Counter");
  o.set("--entry", "inc");
  CHECK(runProve(o, counter, out, err) == 2);
  CHECK(err.find("exclude each other") != std::string::npos);

  // Objects that hold other objects are outside the fabrication: refused with exit 2.
  o.unset("--entry");
  o.set("--class", "Box");
  const std::string box =
      "class Cell {\n  var v: int = 0;\n  init() { v := 1; }\n}\n"
      "class Box {\n  var cell: Cell;\n  predicate cell == null;\n"
      "  init() { cell := new Cell(); }\n  method drop() { cell := null; }\n}\n";
  CHECK(runProve(o, box, out, err) == 2);
  CHECK(err.find("tandem: error: prove:") != std::string::npos);
}

TEST_CASE("prove --class: a class whose init takes no arguments starts from a real object") {
  // Such an init once started like an entry procedure without inputs: no object, so every
  // field predicate was undefined in that first state.
  ClassSetup s(test::loadText("class E {\n  var x: int = 1;\n  predicate x == 1;\n"
                              "  method m() {\n    x := 1;\n  }\n}\n"),
               smt::Backend::Z3, "E");
  auto r = s.prove();
  CHECK(r.outcome == Outcome::Proved);
  CHECK(r.classInvariant == "x == 1");
  for (const std::string& st : s.states(r)) CHECK(st.find("undefined") == std::string::npos);
}
