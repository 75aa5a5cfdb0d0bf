// The symbolic executor (mc/symbolic) and its two commands, over every SMT back end.
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
#include "mc/ir/frontend.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/replay.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using tandem::test::loadShared;
using tandem::test::loadText;

struct Run {
  int exit = -1;
  nlohmann::json report;
  std::string err;
};

Run runCommand(const ir::Program& p, test::Args o) {
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  r.err = err.str();
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

test::Args checkOptions(const std::string& entry, const std::string& solver) {
  test::Args o;
  o.command("check");
  o.file("t.tdm");
  o.set("--entry", entry);
  o.set("--solver", solver);
  return o;
}

test::Args testgenOptions(const std::string& entry, const std::string& solver) {
  test::Args o = checkOptions(entry, solver);
  o.command("testgen");
  o.set("--solving", symbolic::solvingName(symbolic::Solving::Classic));
  return o;
}

const char* const kSolvers[] = {"z3", "cvc5"};

// A back end that never knows.
class UnknownSolver final : public smt::Solver {
 public:
  std::string name() const override { return "unknown"; }
  smt::Capabilities capabilities() const override { return {}; }
  unsigned level() const override { return level_; }
  const smt::Model& model() const override { throw smt::SmtError("no model"); }
  void setTimeout(unsigned) override {}

 protected:
  void doAdd(ExprRef) override {}
  smt::CheckResult doCheck(std::span<const ExprRef>) override {
    return smt::CheckResult::unknown("simulated");
  }
  void doPush() override { ++level_; }
  void doPop(unsigned n) override { level_ -= n; }
  void addChainStats(smt::SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
  }

 private:
  unsigned level_ = 0;
};

}  // namespace

TEST_CASE("symbolic: conformance verdicts under both back ends") {
  for (const char* s : kSolvers) {
    CAPTURE(s);
    auto null = loadShared("foo_null.tdm");
    Run r = runCommand(*null, checkOptions("foo", s));
    CHECK(r.exit == 1);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["kind"] == "null-deref");
    CHECK(r.report["error"]["label"] == "G");
    CHECK(r.report["inputs"]["x"] == 3);

    auto fixed = loadShared("foo_fixed.tdm");
    r = runCommand(*fixed, checkOptions("foo", s));
    CHECK(r.exit == 0);
    CHECK(r.report["verdict"] == "verified");

    auto cube = loadShared("mixed_cube.tdm");
    r = runCommand(*cube, checkOptions("test", s));
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["label"] == "ABORT1");
    CHECK(r.report["inputs"]["x"] == 1);
    CHECK(r.report["inputs"]["y"] == 10);
  }
}

TEST_CASE("symbolic: every searcher finds the same error") {
  auto p = loadShared("foo_null.tdm");
  for (const char* search : {"dfs", "bfs", "random", "coverage"}) {
    CAPTURE(search);
    test::Args o = checkOptions("foo", "z3");
    o.set("--search", search);
    Run r = runCommand(*p, o);
    CHECK(r.report["error"]["label"] == "G");
  }
}

TEST_CASE("symbolic: a depth bound gives unknown, an exhausted loop verified") {
  auto p = loadText(R"(
proc f(n: int) {
  var i: int = 0;
  assume n <= 3;
  while (i < n) { i := i + 1; }
  assert i == n || n < 0;
}
)");
  for (const char* s : kSolvers) {
    CAPTURE(s);
    Run r = runCommand(*p, checkOptions("f", s));
    CHECK(r.report["verdict"] == "verified");
    test::Args o = checkOptions("f", s);
    o.set("--max-depth", "4");
    r = runCommand(*p, o);
    CHECK(r.exit == 4);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("depth") != std::string::npos);
  }
}

TEST_CASE("symbolic: implicit checks are found with a model") {
  auto p = loadText(R"(
var g: int;
proc div(a: int, b: int): int { return a / (b - 2); }
proc idx(i: int) { var a: int[3] = [1, 2, 3]; a[i] := 0; }
proc nul(c: bool) { var x: int = 0; var p: ref int = null; if (c) { p := &x; } *p := 1; }
proc neg(n: int) { var q: int[] = new int[2]; if (n == 4) { q := new int[-1]; } }
proc hav() { havoc g; if (g == 5) { BAD: assert false; } }
)");
  struct Case {
    const char* entry;
    const char* kind;
    const char* input;
    int value;
  };
  for (const char* s : kSolvers) {
    CAPTURE(s);
    for (Case c : {Case{"div", "div-by-zero", "b", 2}, Case{"idx", "index-out-of-bounds", "i", -1},
                   Case{"nul", "null-deref", "c", 0}, Case{"neg", "negative-size", "n", 4},
                   Case{"hav", "assert", "havoc#1", 5}}) {
      CAPTURE(c.entry);
      Run r = runCommand(*p, checkOptions(c.entry, s));
      CHECK(r.report["verdict"] == "error");
      CHECK(r.report["error"]["kind"] == c.kind);
      if (std::string(c.input) == "c")
        CHECK(r.report["inputs"]["c"] == false);
      else
        CHECK(r.report["inputs"][c.input] == c.value);
    }
  }
}

TEST_CASE("symbolic: testgen gives one replayed test per path") {
  auto p = loadText(R"(
var g: int;
proc f(a: int, b: int) {
  if (a > 0) { A: skip; } else { B: skip; }
  if (b > 5) { C: skip; } else { D: skip; }
}
proc h(x: int) { if (x * x == 49 && x > 0) { S: assert x != 7; } }
)");
  for (const char* s : kSolvers) {
    CAPTURE(s);
    Run r = runCommand(*p, testgenOptions("f", s));
    CHECK(r.exit == 0);
    CHECK(r.report["verdict"] == "completed");
    CHECK(r.report["stats"]["tests"] == 4);
    CHECK(r.report["stats"]["paths"] == 4);
    CHECK(r.report["stats"]["divergences"] == 0);
    CHECK(r.report["uncovered_labels"].empty());
    for (auto& t : r.report["tests"]) CHECK(t["result"] == "pass");

    r = runCommand(*p, testgenOptions("h", s));
    CHECK(r.exit == 1);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["stats"]["divergences"] == 0);
    CHECK(r.report["covered_labels"].size() == 1);
  }
}

TEST_CASE("symbolic: an unknown answer is never a proof") {
  auto p = loadText("proc f(a: int) { if (a > 0) { A: skip; } }\n");
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  UnknownSolver solver;
  symbolic::ExploreOptions eo;
  eo.entry = p->findCfaId("f", ir::CfaKind::Proc);
  auto r = symbolic::exploreSymbolic(*p, ev, solver, eo);
  CHECK(r.outcome == symbolic::Outcome::Incomplete);
  CHECK(r.unknownAnswers > 0);
  CHECK(r.reason.find("unknown") != std::string::npos);
}

TEST_CASE("symbolic: generated inputs replay along their paths") {
  auto p = loadShared("foo_fixed.tdm");
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  for (auto b : smt::allBackends()) {
    smt::SolverOptions so;
    so.backend = b;
    auto solver = smt::makeSolver(so, smt::programNaming(*p));
    symbolic::ExploreOptions eo;
    eo.entry = p->findCfaId("foo", ir::CfaKind::Proc);
    eo.stopAtError = false;
    auto r = symbolic::exploreSymbolic(*p, ev, *solver, eo);
    CHECK(r.outcome == symbolic::Outcome::Complete);
    REQUIRE(!r.ends.empty());
    for (const auto& end : r.ends) CHECK(symbolic::replayPath(ev, eo.entry, end).followed);
  }
}
