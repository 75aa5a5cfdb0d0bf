// tandem cover (Christ, Hoenicke, Schaef): unwinding, the reachability verification condition and
// its three enumerations, through the engine API, on both back ends.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "engine/api.h"
#include "test_programs.h"

namespace tandem {
namespace {

report::Report cover(ir::Program& p, const std::string& entry, uint32_t k, cover::Algo algo,
                     const std::string& solver = "z3", bool guided = true) {
  engine::CoverRequest r;
  r.guided = guided;
  r.file = "t.tdm";
  r.entry = entry;
  r.unwind = k;
  r.algo = algo;
  r.solver.backend = *smt::parseBackend(solver);
  return engine::cover(p, r);
}

std::set<std::string> labels(const report::Report& r, const char* key) {
  std::set<std::string> out;
  const nlohmann::json j = r.toJson();  // not in the range-for: it would dangle
  for (const auto& l : j[key]) out.insert(l.get<std::string>());
  return out;
}

const cover::Algo kAlgos[] = {cover::Algo::Paths, cover::Algo::Statements, cover::Algo::Fm};
const char* const kSolvers[] = {"z3", "cvc5"};

// Every algorithm on both solvers: the same verdict and the same infeasible labels; returns them.
std::set<std::string> agreed(ir::Program& p, const std::string& entry, uint32_t k,
                             report::Verdict verdict) {
  std::optional<std::set<std::string>> first;
  for (const char* solver : kSolvers)
    for (int i = 0; i < 4; ++i) {  // the three algorithms, and statements without guidance
      const cover::Algo a = i < 3 ? kAlgos[i] : cover::Algo::Statements;
      CAPTURE(solver);
      CAPTURE(i);
      report::Report r = cover(p, entry, k, a, solver, i < 3);
      CHECK(r.verdict == verdict);
      std::set<std::string> inf = labels(r, "infeasible_labels");
      if (!first) first = inf;
      CHECK(inf == *first);
      // Every label is covered or infeasible, never both.
      for (const std::string& l : labels(r, "covered_labels")) CHECK(!inf.count(l));
    }
  return *first;
}

TEST_CASE("cover: infeasible.tdm, the loop unwound K times without added executions") {
  auto p = test::loadShared("infeasible.tdm");
  // K = 2: paths 2 (the first if) x 3 (0, 1 or 2 iterations); DEEP needs i == 3.
  for (const char* solver : kSolvers) {
    CAPTURE(solver);
    report::Report r2 = cover(*p, "g", 2, cover::Algo::Paths, solver);
    CHECK(r2.stats.paths == 6);
    CHECK(r2.toJson()["bounded"] == true);
    report::Report r3 = cover(*p, "g", 3, cover::Algo::Paths, solver);
    CHECK(r3.stats.paths == 8);  // 4 loop paths; the third iteration takes DEEP
    CHECK(labels(r3, "covered_labels").count("DEEP"));
  }
  CHECK(agreed(*p, "g", 2, report::Verdict::Completed) == std::set<std::string>{"DEAD", "DEEP"});
  CHECK(agreed(*p, "g", 3, report::Verdict::Completed) == std::set<std::string>{"DEAD"});
  CHECK(agreed(*p, "g", 0, report::Verdict::Completed) == std::set<std::string>{"DEAD", "DEEP"});
}

TEST_CASE("cover: statements needs fewer queries than paths, and each test is a real execution") {
  auto p = test::loadShared("infeasible.tdm");
  report::Report pc = cover(*p, "g", 4, cover::Algo::Paths);
  report::Report sc = cover(*p, "g", 4, cover::Algo::Statements);
  CHECK(sc.stats.solver_queries.value() < pc.stats.solver_queries.value());
  CHECK(pc.stats.solver_queries.value() == pc.stats.paths.value() + 1);
  const nlohmann::json scJson = sc.toJson();
  for (const auto& t : scJson["tests"]) CHECK(t["result"] == "pass");
}

TEST_CASE("cover: guided statements learn from unsat cores; a dead location needs no last query") {
  // The first guided path aims at A, C and DEAD together: the core names DEAD alone, so DEAD is
  // dead and the next paths aim at A and C, then B and D. Nothing is left for an enabling
  // query: 3 queries for 2 tests. Suspecting the whole path instead (no core) takes a fourth.
  auto p = test::loadText(R"(
    proc h(x: int) {
      if (x > 0) { A: skip; } else { B: skip; }
      if (x > 5) { C: skip; } else { D: skip; }
      if (x > 100 && x < 50) { DEAD: skip; }
    }
  )");
  for (const char* solver : kSolvers) {
    CAPTURE(solver);
    report::Report r = cover(*p, "h", 2, cover::Algo::Statements, solver);
    CHECK(labels(r, "infeasible_labels") == std::set<std::string>{"DEAD"});
    CHECK(r.stats.tests == 2);
    CHECK(r.stats.solver_queries == 3);
  }
}

TEST_CASE("cover: i32 arithmetic wraps, int does not") {
  auto p = test::loadText(R"(
    proc w(x: i32) { var y: i32 = x + 1; if (y < x) { WRAP: y := 0; } }
    proc m(x: int) { var y: int = x + 1; if (y < x) { NEVER: y := 0; } }
  )");
  CHECK(agreed(*p, "w", 2, report::Verdict::Completed).empty());
  CHECK(agreed(*p, "m", 2, report::Verdict::Completed) == std::set<std::string>{"NEVER"});
}

TEST_CASE("cover: an assertion is a conditional choice: a failing test is an error") {
  auto p = test::loadText(R"(
    proc f(x: int, a: int[]) {
      if (len(a) > 2 && a[2] == x) {
        HIT: assert x != 7;
      }
      if (x > 3 && x < 2) { DEAD: x := 0; }
    }
  )");
  CHECK(agreed(*p, "f", 1, report::Verdict::Error) == std::set<std::string>{"DEAD"});
  report::Report r = cover(*p, "f", 1, cover::Algo::Statements);
  REQUIRE(r.error);
  CHECK(r.error->kind == "assert");
  CHECK(!r.error->trace.empty());
}

TEST_CASE("cover: calls are inlined, recursion unwound K times") {
  auto p = test::loadText(R"(
    proc r(n: int): int {
      if (n <= 0) { return 0; }
      var t: int = r(n - 1);
      return t + 1;
    }
    proc main(n: int) {
      var v: int = r(n);
      if (v == 3) { DEEP: v := 0; }
      if (v < 0) { NEG: v := 0; }
    }
  )");
  // r(3) needs four activations of r: K = 2 allows three.
  CHECK(agreed(*p, "main", 2, report::Verdict::Completed) == std::set<std::string>{"DEEP", "NEG"});
  CHECK(agreed(*p, "main", 3, report::Verdict::Completed) == std::set<std::string>{"NEG"});
}

report::Report coverSummaries(ir::Program& p, const std::string& entry, uint32_t k,
                              cover::Algo algo, const std::string& solver) {
  engine::CoverRequest r;
  r.file = "t.tdm";
  r.entry = entry;
  r.unwind = k;
  r.algo = algo;
  r.summaries = true;
  r.solver.backend = *smt::parseBackend(solver);
  return engine::cover(p, r);
}

// --summaries on statements and fm, both solvers: the verdict, covered and infeasible labels of
// inlining; returns the reports (statements z3 first).
std::vector<report::Report> summarisedAgrees(ir::Program& p, const std::string& entry, uint32_t k) {
  report::Report inlined = cover(p, entry, k, cover::Algo::Statements);
  std::vector<report::Report> out;
  for (const char* solver : kSolvers)
    for (cover::Algo a : {cover::Algo::Statements, cover::Algo::Fm}) {
      CAPTURE(solver);
      CAPTURE(cover::algoName(a));
      report::Report r = coverSummaries(p, entry, k, a, solver);
      CHECK(r.verdict == inlined.verdict);
      CHECK(labels(r, "infeasible_labels") == labels(inlined, "infeasible_labels"));
      CHECK(labels(r, "covered_labels") == labels(inlined, "covered_labels"));
      CHECK(r.stats.summarised_procedures.value() > 0);
      out.push_back(std::move(r));
    }
  return out;
}

TEST_CASE(
    "cover --summaries: callees by their tests' paths; dead code of the caller needs no inlining") {
  auto p = test::loadText(R"(
    proc noisy(x: int): int {
      var n: int = *;
      var i: int = 0;
      var s: int = 0;
      while (i < 2) {
        if (n > x) { BIG: s := s + n; } else { SMALL: s := s - 1; }
        i := i + 1;
      }
      if (x > 5 && x < 3) { CALLEE_DEAD: s := 0; }
      return s;
    }
    proc main(a: int): int {
      var r: int = noisy(a);
      var t: int = noisy(r);
      if (t > r) { UP: t := t - r; } else { DOWN: t := r - t; }
      if (a > 0 && a < 0) { CALLER_DEAD: t := 0; }
      return t;
    }
  )");
  std::vector<report::Report> rs = summarisedAgrees(*p, "main", 3);
  CHECK(labels(rs[0], "infeasible_labels") == std::set<std::string>{"CALLEE_DEAD", "CALLER_DEAD"});
  // CALLEE_DEAD is infeasible in noisy's own analysis, CALLER_DEAD even when noisy returns any
  // value: no inlined verification condition is built. The unwound caller is smaller.
  CHECK(rs[0].stats.refinements == 0);
  CHECK(rs[0].stats.location_copies <
        cover(*p, "main", 3, cover::Algo::Statements).stats.location_copies);
  // The tests through noisy's paths (each reads noisy's havoc) are real: each was replayed.
  CHECK(rs[0].stats.tests.value() >= 2);
}

TEST_CASE("cover --summaries: what the callee's tests leave out is asked with the calls inlined") {
  auto p = test::loadText(R"(
    proc clamp(x: int, lo: int, hi: int): int {
      if (x < lo) { LOW: return lo; }
      if (x > hi) { HIGH: return hi; }
      return x;
    }
    proc check(x: int): int {
      assert x != 7;
      return x;
    }
    proc main(a: int, b: int): int {
      var c: int = clamp(a, 0, 10);
      if (c > 200) { DEAD: c := 0; }
      if (c == 4) { FOUR: c := check(b); }
      return c;
    }
  )");
  std::vector<report::Report> rs = summarisedAgrees(*p, "main", 1);
  CHECK(labels(rs[0], "infeasible_labels") == std::set<std::string>{"DEAD"});
  // DEAD is infeasible only because clamp's result is at most 10: with clamp returning any
  // value it is reachable, so the refinement inlines the calls to say it.
  CHECK(rs[0].stats.refinements == 1);
  // check's failing test, spliced into main's: the error and its trace are main's.
  REQUIRE(rs[0].error);
  CHECK(rs[0].error->kind == "assert");
  CHECK(!rs[0].error->trace.empty());
}

TEST_CASE("cover --summaries: an execution that fails in the callee reaches what came before") {
  // L is reached only by executions that fail in f (the branch blocks after the call), through
  // f's then branch (x = 5) in the first program, its else branch (x = -5) in the second. f's own
  // cover keeps one failing test, through one of them, so in one program the tests miss L, and
  // L must not be dismissed as infeasible when f returns any value: f may fail instead. The
  // else branches cover the rest of f.
  for (const char* v : {"a > 0", "a < 0"}) {
    CAPTURE(v);
    const bool pos = std::string(v) == "a > 0";
    auto p = test::loadText(std::string(R"(
      proc f(x: int): int {
        var y: int = 0;
        if (x > 0) { y := 1; } else { y := 2; }
        assert x != 5 && x != -5;
        return x + y;
      }
      proc main(a: int) {
        var r: int = 0;
        if ()") + v + R"() {
      L:  r := f(a);
          assume r > 100 && r < 50;
        } else {
          r := f(a )" + (pos ? "+" : "-") +
                            R"( 100);
        }
      }
    )");
    std::vector<report::Report> rs = summarisedAgrees(*p, "main", 1);
    CHECK(labels(rs[0], "covered_labels").count("L") == 1);
  }
}

TEST_CASE("cover --summaries: an error the tests' results would fold away is still asked") {
  // g's one test (through T) returns 1; with the callee inlined, g may return 0 and the assertion
  // fail. A result kept as the test's constant would fold `r != 0` to true, and no error arc
  // would be left to ask about.
  auto p = test::loadText(R"(
    proc g(x: int): int {
      var y: int = 0;
      if (x > 0) { T: y := 1; }
      return y;
    }
    proc main(a: int) {
      var r: int = g(a);
      assert r != 0;
    }
  )");
  std::vector<report::Report> rs = summarisedAgrees(*p, "main", 1);
  CHECK(rs[0].verdict == report::Verdict::Error);
}

TEST_CASE("cover: a loop of gotos is unwound like a while loop") {
  auto p = test::loadText(R"(
    proc g(n: int) {
      var i: int = 0;
    L1: goto L2, L3;
    L2: assume i < n;
        i := i + 1;
        goto L1;
    L3: assume i >= n;
        if (i == 2) { TWO: i := 0; }
        return;
    }
  )");
  CHECK(agreed(*p, "g", 1, report::Verdict::Completed) == std::set<std::string>{"TWO"});
  CHECK(agreed(*p, "g", 2, report::Verdict::Completed).empty());
  CHECK(cover(*p, "g", 2, cover::Algo::Paths).stats.paths == 3);
}

TEST_CASE("cover: references that differ where paths meet keep their paths apart") {
  auto p = test::loadShared("foo_null.tdm");
  CHECK(agreed(*p, "foo", 2, report::Verdict::Error) == std::set<std::string>{"E"});
}

TEST_CASE("cover: a bound gives unknown and claims nothing infeasible") {
  auto p = test::loadShared("infeasible.tdm");
  engine::CoverRequest r;
  r.file = "t.tdm";
  r.entry = "g";
  r.unwind = 50;
  r.limits.maxStates = 20;
  report::Report rep = engine::cover(*p, r);
  CHECK(rep.verdict == report::Verdict::Unknown);
  CHECK(rep.reason == "state bound (20)");
  CHECK(rep.toJson()["infeasible_labels"].empty());
}

TEST_CASE("cover: what the encoding cannot express is an input error") {
  auto p = test::loadText(R"(
    proc h(x: int): int { return x / 2; }
    proc f(x: int) { var y: int = h(x) + h(x + 1); if (y > 3) { A: y := 0; } }
  )");
  engine::CoverRequest r;
  r.file = "t.tdm";
  r.entry = "f";
  CHECK_THROWS_AS(engine::cover(*p, r), report::CommandError);
  r.entry = "nosuch";
  CHECK_THROWS_AS(engine::cover(*p, r), report::CommandError);
}

}  // namespace
}  // namespace tandem

namespace tandem {
namespace {

TEST_CASE("cover --prove-infeasible: DEAD is infeasible for every unwinding, DEEP is not") {
  for (const char* solver : kSolvers) {
    CAPTURE(solver);
    auto p = test::loadShared("infeasible.tdm");
    engine::CoverRequest r;
    r.file = std::string(TANDEM_SHARED_DIR) + "/conformance/infeasible.tdm";
    r.entry = "g";
    r.unwind = 2;
    r.proveInfeasible = true;
    r.solver.backend = *smt::parseBackend(solver);
    report::Report rep = engine::cover(*p, r);
    std::map<std::string, std::string> result;
    const nlohmann::json repJson = rep.toJson();
    for (const auto& j : repJson["proved_infeasible"])
      if (j.contains("label")) result[j["label"].get<std::string>()] = j["result"];
    CHECK(result["DEAD"] == "infeasible");
    CHECK(result["DEEP"] == "feasible");  // prove finds the third iteration
  }
}

}  // namespace
}  // namespace tandem

namespace tandem {
namespace {

TEST_CASE("cover --tests-out: one `test f(...)` per test, which check --inputs tests runs") {
  const std::string out = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                          "/tandem_cover_tests_" + std::to_string(::getpid()) + ".tdm";
  const std::string src = "proc g(x: int, y: int) { if (x > y) { A: x := 0; } assert y != 7; }\n";
  auto p = test::loadText(src);
  engine::CoverRequest r;
  r.file = "t.tdm";
  r.entry = "g";
  r.testsOut = out;
  report::Report rep = engine::cover(*p, r);
  CHECK(rep.verdict == report::Verdict::Error);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(out.c_str());
  size_t tests = 0;
  for (size_t at = text.str().find("test g("); at != std::string::npos;
       at = text.str().find("test g(", at + 1))
    ++tests;
  CHECK(tests == rep.toJson()["tests"].size());
  // The program with its tests: check --inputs tests runs them and finds the failing one.
  auto withTests = test::loadText(src + text.str());
  engine::CheckRequest c;
  c.file = "t.tdm";
  c.entry = "g";
  c.inputs = engine::Inputs::Tests;
  report::Report checked = engine::check(*withTests, c);
  CHECK(checked.verdict == report::Verdict::Error);
}

}  // namespace
}  // namespace tandem
