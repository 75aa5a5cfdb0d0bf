// testgen --guide and ir --instrumented: may/must-unverified conditions inferred from
// verification annotations, and symbolic execution guided by them (Christakis, Mueller,
// Wuestholz, ICSE'16).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "abstraction/bool_fn.h"
#include "abstraction/unverified.h"
#include "mc/cli/cli.h"
#include "mc/ir/ir_printer.h"
#include "mc/smt/solver_factory.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using tandem::test::loadShared;
using tandem::test::loadText;

struct Run {
  int exit = -1;
  nlohmann::json report;
};

Run testgen(const ir::Program& p, const std::string& entry, std::optional<abstraction::Guide> g,
            const std::string& solver = "z3", std::optional<uint64_t> maxInterrupts = {}) {
  test::Args o;
  o.command("testgen");
  o.file("t.tdm");
  o.set("--entry", entry);
  o.set("--solver", solver);
  if (g) o.set("--guide", abstraction::guideName(*g));
  if (maxInterrupts) o.set("--max-interrupts", std::to_string(*maxInterrupts));
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

// The conditions at the location of source line `line` of procedure `proc` ("" when none).
std::string condAt(const ir::Program& p, const abstraction::UnverifiedConditions& c,
                   const std::string& proc, uint32_t line, bool may) {
  for (const ir::Cfa& cfa : p.cfas) {
    if (cfa.name != proc) continue;
    for (ir::LocId l : cfa.locs) {
      if (p.locs[l].loc.line != line) continue;
      ExprRef e = may ? c.may[l] : c.must[l];
      if (e) return ir::exprToString(p, e);
    }
  }
  return "";
}

using abstraction::Guide;

}  // namespace

TEST_CASE("guided: truth tables of assumption ids, and their cubes") {
  using abstraction::BoolFn;
  const BoolFn a = BoolFn::variable(2, 0), b = BoolFn::variable(2, 1);
  CHECK((a & ~a).isConstant(false));
  CHECK((a | ~a).isConstant(true));
  CHECK((a & b).substitute(0, true) == b);
  CHECK((a & b).substitute(1, false).isConstant(false));
  CHECK((a | b).restrict({true, std::nullopt}).isConstant(true));
  auto cubes = (a & ~b).cubes();
  REQUIRE(cubes.size() == 1);
  CHECK(cubes[0].size() == 2);
  CHECK((a | b).cubes().size() == 2);
  CHECK(BoolFn::constant(3, true).cubes().size() == 1);
  CHECK(BoolFn::constant(3, true).cubes()[0].empty());
  CHECK(BoolFn::constant(3, false).cubes().empty());
}

TEST_CASE("guided: Deposit's conditions are the paper's Figs. 4 and 5") {
  auto p = loadShared("deposit.tdm");
  const auto c = abstraction::inferUnverified(*p, ir::defaultErrorKinds());
  // Fig. 4: the ReviewDeposit branch is verified (a is still true there): pruned.
  CHECK(condAt(*p, c, "Deposit", 27, true) == "false");
  // After `assumed ... as a`: only executions where the assumption failed are unverified.
  CHECK(condAt(*p, c, "Deposit", 30, true) == "!a");
  // Fig. 5: and they are the ones that must reach the unverified assertion.
  CHECK(condAt(*p, c, "Deposit", 30, false) == "!a");
  // The entry and the else-branch carry none (May is true there: trivial), nor does the join
  // before the assertion (every predecessor's condition implies its own).
  CHECK(condAt(*p, c, "Deposit", 26, true).empty());
  CHECK(condAt(*p, c, "Deposit", 29, true).empty());
  CHECK(condAt(*p, c, "Deposit", 35, true).empty());
  CHECK(condAt(*p, c, "Deposit", 35, false).empty());
}

TEST_CASE("guided: loops reach a fixpoint; calls carry their callee's verdict") {
  auto p = loadText(R"(
var g: int;
proc Bad(x: int) {
  assert x > 0;
}
proc Good(x: int) {
  assert x == x verified true;
}
proc Loop(n: int) {
  var i: int = 0;
  while (i < n) {
    assumed i < 100 as a;
    i := i + 1;
  }
  assert i >= 0 verified a;
}
proc Calls(c: int) {
  if (c > 0) {
    call Bad(c);
  } else {
    call Good(c);
  }
}
)");
  const auto c = abstraction::inferUnverified(*p, ir::defaultErrorKinds());
  // In the loop every execution may run the body again and meet the `assumed` (the fixpoint
  // says May is true there); leaving it, a (true on entry, unknown after the body) decides.
  CHECK(condAt(*p, c, "Loop", 11, true).empty());
  CHECK(condAt(*p, c, "Loop", 13, true).empty());
  CHECK(condAt(*p, c, "Loop", 15, true) == "!a");
  // Bad has an assertion without a premise: unverified; a call of it must be unverified.
  CHECK(condAt(*p, c, "Bad", 4, true).empty());  // May true: nothing to prune
  CHECK(condAt(*p, c, "Good", 7, true) == "false");
  CHECK(condAt(*p, c, "Calls", 21, true) == "false");  // the Good branch is pruned
  CHECK(condAt(*p, c, "Calls", 19, true).empty());
  for (const char* solver : {"z3", "cvc5"}) {
    CAPTURE(solver);
    auto may = testgen(*p, "Calls", Guide::May, solver);
    CHECK(may.report["stats"]["tests"] == 1);
    CHECK(may.report["stats"]["pruned"] == 1);
    CHECK(may.report["stats"]["non_redundant_tests"] == 1);
    auto none = testgen(*p, "Calls", Guide::None, solver);
    CHECK(none.report["stats"]["tests"] == 2);  // Bad (its assertion holds there) and Good
    CHECK(none.report["stats"]["redundant_tests"] == 1);
  }
}

TEST_CASE("guided: checks in a callee's initialisers and in procedures called in expressions") {
  // difftest seed 11547: h's declaration initialiser indexes out of bounds as the call enters
  // (the call edge's error); the call was taken for verified and the only execution pruned.
  auto init = loadText(R"(
var G: int = 8;
proc h(x: i32): int {
  var a: int[4] = [1, 5, 1, 2];
  var v: int = a[G];
}
proc main(x: i32) {
  G := h(x);
}
)");
  // f runs to its end inside main's expression: its division is the expression's check.
  auto inExpr = loadText(R"(
var G: int = 0;
proc f(x: int): int { return 10 / x; }
proc main(a: int) {
  var y: int = f(a) + 1;
  G := y;
}
)");
  for (ir::Program* p : {init.get(), inExpr.get()}) {
    const auto c = abstraction::inferUnverified(*p, ir::defaultErrorKinds());
    const auto implicit = abstraction::implicitCheckEdges(*p, ir::defaultErrorKinds());
    const ir::Cfa& main = *p->findCfa("main");
    CHECK(implicit.at(p->locs[main.entry].out.at(0)));
    CHECK(c.may.at(main.entry) == nullptr);  // May is true: nothing pruned
    auto may = testgen(*p, "main", Guide::MayMust, "z3");
    CHECK(may.exit == 1);
    CHECK(may.report["stats"]["pruned"] == 0);
  }
}

TEST_CASE("guided: Deposit tests, counted as the paper counts them") {
  auto p = loadShared("deposit.tdm");
  for (const char* solver : {"z3", "cvc5"}) {
    CAPTURE(solver);
    auto uv = testgen(*p, "Deposit", Guide::Ignore, solver);
    CHECK(uv.exit == 1);
    CHECK(uv.report["guide"] == "ignore");
    CHECK(uv.report["stats"]["tests"] == 4);
    CHECK(uv.report["stats"]["non_redundant_tests"] == 1);
    CHECK(uv.report["stats"]["redundant_tests"] == 3);
    CHECK(uv.report["stats"]["failing"] == 1);
    auto mm = testgen(*p, "Deposit", Guide::MayMust, solver);
    CHECK(mm.exit == 1);
    CHECK(mm.report["error"]["kind"] == "assert");
    CHECK(mm.report["stats"]["tests"] == 1);
    CHECK(mm.report["stats"]["non_redundant_tests"] == 1);
    CHECK(mm.report["stats"]["pruned"] >= 1);
    // MUST alone keeps every test but runs the unverified execution first: the others were set
    // aside at the `tryfirst`.
    auto must = testgen(*p, "Deposit", Guide::Must, solver);
    CHECK(must.report["stats"]["tests"] == 4);
    CHECK(must.report["stats"]["interrupts"] == 1);
    CHECK(must.report["tests"][0]["result"] == "error");
    auto none = testgen(*p, "Deposit", Guide::Must, solver, 0);
    CHECK(none.report["stats"]["interrupts"] == 0);
  }
  // Without --guide the report has no guidance counts.
  auto plain = testgen(*p, "Deposit", std::nullopt);
  CHECK_FALSE(plain.report.contains("guide"));
  CHECK_FALSE(plain.report["stats"].contains("non_redundant_tests"));
}

TEST_CASE("mixed solving: a non-linear term over an array element stays with the solver") {
  // Found by the ICSE'16 benchmark: the array was pinned to an integer and both back ends
  // refused the query (exit 2).
  auto p = loadText("proc F(a: int[2], n: int) { assert a[0] * n <= a[0]; }\n");
  for (const char* solver : {"z3", "cvc5"}) {
    CAPTURE(solver);
    auto r = testgen(*p, "F", std::nullopt, solver);
    CHECK(r.exit == 1);
    CHECK(r.report["error"]["kind"] == "assert");
  }
}

TEST_CASE("guided: PV trusts assertions verified true; UV checks them") {
  auto p = loadText(R"(
proc f(x: int) {
  assert x != 3 verified true;
}
)");
  // The annotation is wrong: UV (annotations ignored) finds it, PV does not test it.
  CHECK(testgen(*p, "f", Guide::Ignore).exit == 1);
  auto pv = testgen(*p, "f", Guide::None);
  CHECK(pv.exit == 0);
  CHECK(pv.report["stats"]["failing"] == 0);
}

namespace {

Run prove(const ir::Program& p, const std::string& entry) {
  test::Args o;
  o.command("prove");
  o.file("t.tdm");
  o.set("--entry", entry);
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

}  // namespace

TEST_CASE("prove: old() past a call, with default predicates over old()") {
  // Deposit's assertion needs old(): states fabricated after the call keep old(balance) apart
  // from balance, related by the predicate balance >= old(balance) (and its precondition through
  // the assignment, which leaves old() alone).
  auto ok = loadText(R"(
var balance: int;
proc Review(a: int) { skip; }
proc Deposit(amount: int) {
  if (amount <= 0) {
    call Review(amount);
  } else {
    balance := balance + amount;
  }
  assert balance >= old(balance);
}
)");
  auto r = prove(*ok, "Deposit");
  CHECK(r.exit == 0);
  CHECK(r.report["verdict"] == "proved");
  auto bad = loadText(R"(
var balance: int;
proc Review(a: int) { skip; }
proc Deposit(amount: int) {
  call Review(amount);
  balance := balance + amount;
  assert balance >= old(balance);
}
)");
  auto e = prove(*bad, "Deposit");
  CHECK(e.exit == 1);
  CHECK(e.report["verdict"] == "error");
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("prove --annotate: Tandem's own partial proof guides testgen to the overflow") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tandem_annotate_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "deposit.tdm").string(), out = (dir / "annotated.tdm").string();
  // Deposit without annotations, and an assertion that holds; a helper with one that no
  // assumption saves (not called: it is not annotated).
  std::ofstream(in) << R"(var balance: i32;
proc Other(x: int) {
  assert x != 7;
}
proc ReviewDeposit(amount: i32) { skip; }
proc Deposit(amount: i32) {
  assert amount == amount;
  if (amount <= 0 || 50000 < amount) {
    call ReviewDeposit(amount);
  } else {
    balance := balance + amount;  // the overflow
  }
  assert balance >= old(balance);
}
)";
  test::Args o;
  o.command("prove");
  o.file(in);
  o.set("--entry", "Deposit");
  o.set("--annotate", out);
  o.flag("--json");
  o.flag("--quiet");
  auto p = test::loadText(slurp(in));
  std::ostringstream sout, serr;
  CHECK(o.execute(*p, sout, serr) == 1);  // the overflow is a real error
  auto rep = nlohmann::json::parse(sout.str());
  REQUIRE(rep["annotations"].size() == 2);
  CHECK(rep["annotations"][0]["result"] == "verified");
  CHECK(rep["annotations"][1]["result"] == "assumed");
  const std::string text = slurp(out);
  CHECK(text.find("assert amount == amount verified true;") != std::string::npos);
  CHECK(text.find("    assumed no_overflow_add(balance, amount) as a1;") != std::string::npos);
  CHECK(text.find("assert balance >= old(balance) verified a1;") != std::string::npos);
  CHECK(text.find("assert x != 7;") != std::string::npos);
  CHECK(text.find("// the overflow") != std::string::npos);  // comments stay
  // testgen on the annotated file: the ReviewDeposit branch is pruned, the overflow found.
  auto annotated = test::loadText(text);
  auto guided = testgen(*annotated, "Deposit", Guide::MayMust);
  CHECK(guided.exit == 1);
  CHECK(guided.report["stats"]["tests"] <= 3);
  auto plain = testgen(*annotated, "Deposit", Guide::Ignore);
  CHECK(guided.report["stats"]["tests"] < plain.report["stats"]["tests"]);
  // Run from Other, its assertion is unverified: `verified false`.
  o.set("--entry", "Other");
  std::ostringstream out2;
  CHECK(o.execute(*p, out2, serr) == 1);
  CHECK(slurp(out).find("assert x != 7 verified false;") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("guided: implicit checks are unverified unless --check leaves them out") {
  // No annotation speaks for the division: with it tracked, the branch that divides is not
  // pruned, and its error is found; with --check assert it is, and the verified branch too.
  auto p = loadText(R"(
proc f(x: int, d: int) {
  var y: int = 0;
  if (x > 0) {
    y := x / d;
  }
  assert y == y verified true;
}
)");
  auto all = abstraction::inferUnverified(*p, ir::defaultErrorKinds());
  CHECK(condAt(*p, all, "f", 5, true).empty());     // the division: may be unverified
  CHECK(condAt(*p, all, "f", 7, true) == "false");  // the other branch: verified
  std::array<bool, ir::kErrorKinds> onlyAsserts{};
  onlyAsserts[static_cast<size_t>(ir::ErrorKind::Assert)] = true;
  auto asserts = abstraction::inferUnverified(*p, onlyAsserts);
  CHECK(condAt(*p, asserts, "f", 4, true) == "false");  // everything verified from the entry
  auto may = testgen(*p, "f", Guide::May);
  CHECK(may.exit == 1);
  CHECK(may.report["error"]["kind"] == "div-by-zero");
  // Pruned: the branch without the division; once the division ran, the execution is unverified
  // whatever follows, and both its failure and its pass are tests.
  CHECK(may.report["stats"]["pruned"] == 1);
  CHECK(may.report["stats"]["tests"] == 2);
  CHECK(may.report["stats"]["non_redundant_tests"] == 2);
  // Unguided, the tests that ran the division are the non-redundant ones.
  auto pv = testgen(*p, "f", Guide::None);
  CHECK(pv.report["stats"]["tests"] == 3);
  CHECK(pv.report["stats"]["non_redundant_tests"] == 2);
}

TEST_CASE("guided: an execution that ran an unverified assertion is never pruned after it") {
  // After the assertion everything is verified (May is false there), but the
  // executions where `a` failed passed an unverified assertion: they are kept (found by the
  // ICSE'16 benchmark: pruning them lost non-redundant passing tests).
  auto p = loadText(R"(
proc g(x: int) {
  assumed x < 100 as a;
  assert x + 1 > x verified a;
  if (x > 5) {
    skip;
  } else {
    skip;
  }
}
)");
  auto may = testgen(*p, "g", Guide::May);
  CHECK(may.exit == 0);
  CHECK(may.report["stats"]["tests"] == 1);  // x >= 100, so x > 5
  CHECK(may.report["stats"]["non_redundant_tests"] == 1);
  // The verified executions (x < 100) are pruned where `a` is set: `assume !a` there.
  CHECK(may.report["stats"]["pruned"] == 1);
}

TEST_CASE("guided: a loop at the entry does not vouch for itself") {
  // Every assertion is verified; the entry is the loop head, whose back edge comes from a
  // location with the same condition: the entry still gets `assume false` (found by the ICSE'16
  // bench on a file prove --annotate wrote: 8 tests where none was needed).
  auto p = loadText(R"(
proc f(a: int[4]): int {
  var i: int = 1;
  while (i < 4) {
    assert 0 <= i verified true;
    i := i + 1;
  }
  return i;
}
)");
  auto c = abstraction::inferUnverified(*p, ir::defaultErrorKinds());
  CHECK(condAt(*p, c, "f", 4, true) == "false");
  auto r = testgen(*p, "f", Guide::May);
  CHECK(r.report["stats"]["tests"] == 0);
  CHECK(r.report["stats"]["pruned"] == 1);
}
