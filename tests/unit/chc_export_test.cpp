// export-chc (chc/): the Horn clauses of safe and unsafe programs, solved by Z3's Horn engine
// through the C++ API (CHC-COMP convention: sat = safe, unsat = an error is reachable), the
// predicates and clauses counted, and the shapes the export refuses.
#include <doctest/doctest.h>
#include <z3++.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "chc/horn_export.h"
#include "chc/unsupported.h"
#include "mc/cli/cli.h"
#include "mc/symbolic/sym_state.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using test::loadShared;
using test::loadText;

chc::HornSystem exportOf(const ir::Program& p, const std::string& entry = "",
                         ir::CutpointMode mode = ir::CutpointMode::Loops) {
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  chc::HornOptions o;
  o.cutpoints = mode;
  if (!entry.empty()) o.entry = p.findCfaId(entry, ir::CfaKind::Proc);
  return chc::exportHorn(p, ev, o);
}

// Z3's answer on the script, from Spacer (the HORN logic's automatic choice would take the
// Datalog engine for bit-vector programs, which tabulates every 32-bit value).
std::string solveHorn(const std::string& text) {
  z3::context ctx;
  z3::solver s(ctx, "HORN");
  z3::params params(ctx);
  params.set("timeout", 60000u);
  params.set("engine", "spacer");
  s.set(params);
  s.from_string(text.c_str());
  switch (s.check()) {
    case z3::sat:
      return "sat";
    case z3::unsat:
      return "unsat";
    default:
      return "unknown";
  }
}

struct CliRun {
  int rc;
  std::string out, err;
};

CliRun tandemCli(std::vector<std::string> args) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  int rc = cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
  return {rc, o.str(), e.str()};
}

std::string sharedFile(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}

const char* const kArrays = R"(
var flag: bool[2] = [false, false];
var turn: int = 0;
var entries: int[2];
init entries[0] == 0 && entries[1] == 0;
process P1 {
  A: flag[0] := true;
  B: turn := 1;
  C: await !flag[1] || turn == 0;
  D: entries[0] := entries[0] + 1;
  E: flag[0] := false;
     goto A;
}
process P2 {
  A: flag[1] := true;
  B: turn := 0;
  C: await !flag[0] || turn == GUARD;
  D: entries[1] := entries[1] + 1;
  E: flag[1] := false;
     goto A;
}
invariant mutex: !(P1@E && P2@E);
invariant counted: entries[turn] >= 0;
)";

std::string arrays(const std::string& guard) {
  std::string s = kArrays;
  s.replace(s.find("GUARD"), 5, guard);
  return s;
}

}  // namespace

TEST_CASE("export-chc: Bakery is safe and its broken tie-break unsafe in Z3's Horn engine") {
  auto safe = loadShared("bakery2.tdm");
  chc::HornSystem hs = exportOf(*safe);
  CHECK(hs.text.find("(set-logic HORN)") != std::string::npos);
  CHECK(hs.text.find("(declare-fun inv_P1.A_P2.A (Int Int) Bool)") != std::string::npos);
  CHECK(hs.text.find("(check-sat)") != std::string::npos);
  CHECK(hs.predicates == 16);  // every pair of locations; (D, D) is in the graph, not reachable
  CHECK(hs.initClauses == 1);
  // The mutex invariant at (D, D), and deadlock freedom at (C, C) (x1 <= x2 and x2 < x1 cannot
  // both be false, but the clause does not know it).
  CHECK(hs.queryClauses == 2);
  CHECK(hs.clauses == hs.initClauses + hs.stepClauses + hs.queryClauses);
  CHECK(hs.maxArity == 2);
  CHECK(solveHorn(hs.text) == "sat");

  auto race = loadShared("bakery2_race.tdm");
  CHECK(solveHorn(exportOf(*race).text) == "unsat");
}

TEST_CASE("export-chc: references and error ends of an open system (foo of ISSTA'06)") {
  auto fixed = loadShared("foo_fixed.tdm");
  for (auto mode : {ir::CutpointMode::Loops, ir::CutpointMode::All}) {
    chc::HornSystem hs = exportOf(*fixed, "foo", mode);
    CHECK(hs.queryClauses >= 1);  // the null dereference at G
    CHECK(solveHorn(hs.text) == "sat");
  }
  CHECK(exportOf(*fixed, "foo", ir::CutpointMode::All).predicates == 8);  // labels A to H
  auto buggy = loadShared("foo_null.tdm");
  CHECK(solveHorn(exportOf(*buggy, "foo").text) == "unsat");
}

TEST_CASE("export-chc: fixed-length arrays become one argument per element") {
  auto safe = loadText(arrays("1"));
  chc::HornSystem hs = exportOf(*safe);
  // flag[0], flag[1], turn, entries[0], entries[1]: Bool and Int only, no array theory (the
  // input `entries` included).
  CHECK(hs.text.find("(Bool Bool Int Int Int) Bool)") != std::string::npos);
  CHECK(hs.text.find("Array") == std::string::npos);
  CHECK(solveHorn(hs.text) == "sat");
  // P2 enters on its own turn too: both may be in the critical section.
  auto unsafe = loadText(arrays("0 || true"));
  CHECK(solveHorn(exportOf(*unsafe).text) == "unsat");
}

TEST_CASE("export-chc: i32 wraps around in the clauses as in the language") {
  // Spacer solves this loop-free program at once; loops over bit-vectors are beyond it in 60 s.
  const std::string text = R"(
proc main(a: i32) {
  var x: i32 = a;
  assume x > 0 && x <= BOUND;
  x := x + 1;
  assert x > 0;
})";
  auto safe = loadText(std::string(text).replace(text.find("BOUND"), 5, "1000"));
  chc::HornSystem hs = exportOf(*safe, "main");
  CHECK(hs.text.find("(_ BitVec 32)") != std::string::npos);
  CHECK(solveHorn(hs.text) == "sat");
  // 2147483647 + 1 wraps to the smallest i32.
  auto wraps = loadText(std::string(text).replace(text.find("BOUND"), 5, "2147483647"));
  CHECK(solveHorn(exportOf(*wraps, "main").text) == "unsat");
}

TEST_CASE("export-chc: the prove models are safe for Z3 as well") {
  for (const char* name : {"ticket_lock.tdm", "bakery_reset.tdm", "lock_rounds.tdm",
                           "producer_consumer.tdm", "counter_loop.tdm"}) {
    CAPTURE(name);
    std::ostringstream err;
    auto file = readSourceFile(std::string(TANDEM_SOURCE_DIR) + "/models/prove/" + name, err);
    REQUIRE(file);
    auto p = loadProgram(*file, {}, err);
    REQUIRE(p);
    CHECK(solveHorn(exportOf(*p, p->isClosed() ? "" : "main").text) == "sat");
  }
}

TEST_CASE("export-chc: unsupported shapes are refused, never exported in part") {
  auto objects = loadText(R"(
class C { var f: int = 0; init(v: int) { f := v; } }
proc main() {
  var o: C = new C(1);
  o.f := o.f + 1;
  assert o.f == 2;
})");
  CHECK_THROWS_AS(exportOf(*objects, "main"), symbolic::NotImplemented);
  auto dynamic = loadText("proc main(a: int[]) { var i: int = 0; while (i < len(a)) i := i + 1; }");
  CHECK_THROWS_AS(exportOf(*dynamic, "main"), chc::Unsupported);
  auto calls = loadText("proc main(a: int) { var y: int = hash1(a); assert y != 3; }");
  CHECK_THROWS_AS(exportOf(*calls, "main"), chc::Unsupported);
}

TEST_CASE("export-chc: the command line") {
  auto list = tandemCli({"--list-commands"});
  CHECK(list.out.find("export-chc\n") != std::string::npos);

  auto text = tandemCli({"export-chc", sharedFile("bakery2.tdm")});
  CHECK(text.rc == 0);
  CHECK(text.out.find("(set-logic HORN)") != std::string::npos);

  const std::string out = "chc_export_test_out.smt2";
  auto file = tandemCli({"export-chc", sharedFile("foo_null.tdm"), "--entry", "foo", "-o", out});
  CHECK(file.rc == 0);
  CHECK(file.out.find("predicates") != std::string::npos);
  std::ifstream in(out);
  std::stringstream written;
  written << in.rdbuf();
  CHECK(solveHorn(written.str()) == "unsat");
  std::remove(out.c_str());

  auto json = tandemCli({"export-chc", sharedFile("bakery2.tdm"), "--json"});
  CHECK(json.rc == 0);
  auto report = nlohmann::json::parse(json.out);
  CHECK(report["command"] == "export-chc");
  CHECK(report["verdict"] == "completed");
  CHECK(report["stats"]["predicates"] == 16);
  CHECK(report["smtlib"].get<std::string>().find("(set-logic HORN)") != std::string::npos);

  // Only assertions tracked: the mutex invariant gives no query.
  auto noInv = tandemCli({"export-chc", sharedFile("bakery2.tdm"), "--check", "assert", "--json"});
  CHECK(nlohmann::json::parse(noInv.out)["stats"]["query_clauses"] == 0);

  auto open = tandemCli({"export-chc", sharedFile("foo_null.tdm")});
  CHECK(open.rc == 2);
  CHECK(open.err.find("give --entry") != std::string::npos);
  auto cls = tandemCli({"export-chc", sharedFile("bounded_stack_fixed.tdm"), "--class", "C"});
  CHECK(cls.rc == 2);
  auto misplaced = tandemCli({"prove", sharedFile("bakery2.tdm"), "-o", out});
  CHECK(misplaced.rc == 2);
  auto pid = tandemCli({"export-chc", sharedFile("peterson2.tdm"), "--json"});
  CHECK(pid.rc == 0);
  CHECK(nlohmann::json::parse(pid.out)["stats"]["predicates"] == 16);
}

TEST_CASE("export-chc: pid and process-local variables are arguments per instance") {
  const std::string ticket = R"(
var next: int = 0;
var serving: int = 0;
process P[2] {
  var t: int = 0;
  A: t, next := next, next + 1;
  B: await serving == t;
  C: skip;
  D: serving := serving + 1;
     goto A;
}
invariant mutex: !(P[0]@C && P[1]@C);
)";
  chc::HornSystem hs = exportOf(*loadText(ticket));
  // next, serving, P[0].t, P[1].t
  CHECK(hs.text.find("(declare-fun inv_P0.A_P1.A (Int Int Int Int) Bool)") != std::string::npos);
  CHECK(solveHorn(hs.text) == "sat");
  // Without the ticket's own variable the lock is broken: a process enters on any ticket.
  std::string broken = ticket;
  broken.replace(broken.find("await serving == t"), 18, "await serving >= 0");
  CHECK(solveHorn(exportOf(*loadText(broken)).text) == "unsat");
}

// ../shared/reported/*_init_*: an initialiser that fails is an error of the model (LANGUAGE.md),
// so its condition is a query clause; Spacer said sat (safe) while they were dropped.
TEST_CASE("export-chc: a failing initialiser is a query clause") {
  const char* const unsafe[][2] = {
      {"proc main(a: int) { var arr: int[3] = [0, 0, 0]; var b: int = arr[a]; }", "main"},
      // (Division by an input is left out: Spacer answers unknown on `div` by a variable.)
      {"proc main(a: int) { var arr: int[2] = [0, 0]; var b: int = arr[a * 2 + 1]; }", "main"},
      {"var k: int; var arr: int[3] = [0, 0, 0]; var y: int = arr[k]; proc main() { skip; }",
       "main"},
      {"var k: int = 3; var arr: int[3] = [0, 0, 0]; process P { var t: int = arr[k]; skip; }", ""},
      {"var k: int = 3; var arr: int[3] = [0, 0, 0]; var y: int = arr[k]; process P { skip; }", ""},
  };
  for (const auto& [text, entry] : unsafe) {
    CAPTURE(text);
    auto p = loadText(text);
    chc::HornSystem hs = exportOf(*p, entry);
    CHECK(hs.queryClauses >= 1);
    CHECK(solveHorn(hs.text) == "unsat");
  }
  // `init` is due as soon as the globals it reads are set: it excludes the failing inputs.
  auto safe = loadText(
      "var k: int; init 0 <= k && k < 3; var arr: int[3] = [0, 0, 0]; var y: int = arr[k];\n"
      "proc main() { skip; }");
  CHECK(solveHorn(exportOf(*safe, "main").text) == "sat");
}

TEST_CASE("export-chc: old() values are predicate arguments, set on the procedure's entry") {
  // difftest seed 11365: with old(G) left free in the query, Spacer answered unsat (an error) for
  // a program whose G is never written.
  const char* const safe[] = {
      "var G: i32 = 5; proc main(a: i32, b: i32) { L: skip; assert G == old(G) || a < b; }",
      // A loop: the location after it is reached again, so its old() is not the globals there.
      "var G: int; proc main(n: int) { var i: int = 0; while (i < n) { G := G + 1; i := i + 1; }"
      " assert G >= old(G); }",
      "var A: int[2]; proc main() { L: skip; assert A[0] == old(A[0]) && A[1] == old(A[1]); }",
  };
  for (const char* text : safe) {
    CAPTURE(text);
    chc::HornSystem hs = exportOf(*loadText(text), "main");
    CHECK(hs.text.find("main.old_") != std::string::npos);
    CHECK(solveHorn(hs.text) == "sat");
  }
  auto unsafe = loadText(
      "var G: int; proc main(n: int) { var i: int = 0; while (i < n) { G := G + 1; i := i + 1; }"
      " assert G <= old(G); }");
  CHECK(solveHorn(exportOf(*unsafe, "main").text) == "unsat");
}
