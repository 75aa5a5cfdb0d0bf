// testgen --compositional and --dse (testgen/dse.h): demand-driven compositional dynamic
// symbolic execution (Anand, Godefroid, Tillmann, TACAS'08) and its whole-program baseline.
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
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

Run dse(const ir::Program& p, const std::string& entry, const std::string& solver,
        bool compositional, const std::string& target = "", uint64_t maxExecutions = 0) {
  test::Args o;
  o.command("testgen");
  o.file("t.tdm");
  o.set("--entry", entry);
  o.set("--solver", solver);
  if (compositional)
    o.flag("--compositional");
  else
    o.unset("--compositional");
  if (!compositional)
    o.flag("--dse");
  else
    o.unset("--dse");
  o.set("--target", target);
  if (maxExecutions) o.set("--max-executions", std::to_string(maxExecutions));
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

const char* const kDseSolvers[] = {"z3", "cvc5"};

// HWM (TACAS'08, Sect. 5) in small: the assertion fails when s holds both words; contains()
// calls containsAt() at every position, so whole-program paths multiply.
const char* const kWords = R"(
proc containsAt(s: int[8], i: int, t: int[3]): bool {
  var j: int = 0;
  while (j < 3) {
    if (i + j >= 8) { return false; }
    if (s[i + j] != t[j]) { return false; }
    j := j + 1;
  }
  return true;
}
proc contains(s: int[8], t: int[3]): bool {
  var i: int = 0;
  while (i < 8) {
    var f: bool = containsAt(s, i, t);
    if (f) { return true; }
    i := i + 1;
  }
  return false;
}
proc main(s: int[8]) {
  var a: bool = contains(s, [1, 2, 3]);
  if (a) {
    var b: bool = contains(s, [4, 5, 6]);
    if (b) {
BOTH: assert false;
    }
  }
}
)";

}  // namespace

TEST_CASE("dse: abs/testAbs reaches its target compositionally, by lazy then relevant queries") {
  auto p = loadShared("abs_compositional.tdm");
  for (const char* s : kDseSolvers) {
    CAPTURE(s);
    Run r = dse(*p, "testAbs", s, true, "TARGET");
    CHECK(r.exit == 1);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["target_reached"] == true);
    CHECK(r.report["stats"]["executions"].get<int>() <= 4);
    CHECK(r.report["stats"]["relevant_sat"].get<int>() >= 1);  // abs's x > 0 was never run
    CHECK(r.report["stats"]["mispredictions"] == 0);
    CHECK(r.report["stats"]["divergences"] == 0);
    CHECK(r.report["summarised"] == nlohmann::json::array({"abs"}));
    // The baseline reaches it too, over whole-program paths, without summaries.
    Run b = dse(*p, "testAbs", s, false, "TARGET");
    CHECK(b.report["verdict"] == "error");
    CHECK(b.report["summarised"].empty());
  }
}

TEST_CASE("dse: a target no combination of paths reaches is reported unreachable") {
  auto p = loadText(R"(
proc abs(x: int): int { if (x >= 0) { return x; } return -x; }
proc f(p: int) {
  var m: int = abs(p);
  if (m < 0) {
NEVER: assert false;
  }
}
)");
  for (const char* s : kDseSolvers) {
    CAPTURE(s);
    for (bool compositional : {true, false}) {
      Run r = dse(*p, "f", s, compositional, "NEVER");
      CHECK(r.exit == 0);
      CHECK(r.report["verdict"] == "completed");
      CHECK(r.report["target_reached"] == false);
      CHECK(r.report["unreachable_targets"][0]["label"] == "NEVER");
    }
  }
}

TEST_CASE("dse: without a target every branch is explored, and a bound is unknown") {
  auto p = loadText(kWords);
  Run all = dse(*p, "main", "z3", true);
  CHECK(all.report["verdict"] == "error");
  CHECK(all.report["covered_labels"] == nlohmann::json::array({"BOTH"}));
  Run cut = dse(*p, "main", "z3", true, "BOTH", 2);
  CHECK(cut.exit == 4);
  CHECK(cut.report["verdict"] == "unknown");
  CHECK(cut.report["reason"] == "execution bound (2)");
  CHECK(cut.report["stats"]["executions"] == 2);
}

TEST_CASE("dse: summaries with array arguments need fewer executions than whole paths") {
  auto p = loadText(kWords);
  for (const char* s : kDseSolvers) {
    CAPTURE(s);
    Run c = dse(*p, "main", s, true, "BOTH");
    CHECK(c.report["verdict"] == "error");
    CHECK(c.report["stats"]["mispredictions"] == 0);
    CHECK(c.report["summarised"] == nlohmann::json::array({"containsAt", "contains"}));
    Run w = dse(*p, "main", s, false, "BOTH");
    CHECK(w.report["verdict"] == "error");
    CHECK(c.report["stats"]["executions"].get<int>() < w.report["stats"]["executions"].get<int>());
  }
}

TEST_CASE("dse: a target reached only by returning from a call is not called unreachable") {
  // Whole-program paths (--dse): every condition of the first run is inside spaces(), from which
  // T is reached only by returning. Once, no node was a candidate and T was said unreachable.
  auto p = loadText(R"(
proc spaces(s: int[4]): int {
  var i: int = 0;
  while (i < 4) {
    if (s[i] != 32) { return i; }
    i := i + 1;
  }
  return i;
}
proc f(s: int[4]) {
  var n: int = spaces(s);
  if (n == 2) {
T: assert false;
  }
}
)");
  for (bool compositional : {true, false}) {
    CAPTURE(compositional);
    Run r = dse(*p, "f", "z3", compositional, "T");
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["unreachable_targets"].empty());
  }
}

TEST_CASE("dse: inputs a query does not read keep their values") {
  // The first query of the baseline constrains a[0] alone: the other elements stay 0 (DART's
  // rule), not the solver's default for an unread array element.
  auto p = loadText(R"(
proc f(a: int[3]) {
  if (a[0] > 0) {
    if (a[1] > 0) {
      if (a[2] > 0) {
T: assert false;
      }
    }
  }
}
)");
  Run r = dse(*p, "f", "z3", false, "T");
  REQUIRE(r.report["tests"].size() == 4);
  CHECK(r.report["tests"][1]["inputs"]["a"][1] == 0);
  CHECK(r.report["tests"][1]["inputs"]["a"][2] == 0);
}

TEST_CASE("dse: an execution cut by --max-depth leaves the run unknown") {
  auto p = loadText(kWords);
  test::Args o;
  o.command("testgen");
  o.file("t.tdm");
  o.set("--entry", "main");
  o.flag("--compositional");
  o.set("--max-depth", "20");
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  CHECK(o.execute(const_cast<ir::Program&>(*p), out, err) == 4);
  nlohmann::json rep = nlohmann::json::parse(out.str());
  CHECK(rep["verdict"] == "unknown");
  CHECK(rep["reason"].get<std::string>().find("depth bound (20)") == 0);
}

TEST_CASE("dse: a call inside an expression takes the run's values, and then nothing is complete") {
  // f(p) in a condition is run concretely (as DART does): its assertion fails only for p == 5,
  // which no branch of the tree shows. Once, the loop said `completed` after one execution.
  auto p = loadText(R"(
proc f(x: int): int {
  assert x != 5;
  return x;
}
proc main(p: int) {
  var y: int = 0;
  if (f(p) == 2) {
    y := 1;
  }
}
)");
  for (bool compositional : {true, false}) {
    Run r = dse(*p, "main", "z3", compositional);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("concretization") != std::string::npos);
    CHECK(r.report["stats"]["concretizations"].get<int>() > 0);
  }
}

TEST_CASE("dse: --target names every location with the label, in the procedures the entry calls") {
  // Labels are unqualified and may repeat: L in h (never called, first in the program) and L in
  // g (reachable with x == 7) are both locations of L; from main only g's counts. Once, the
  // first location of L in the program was the target, and main never reached it.
  auto p = loadText(R"(
proc h() {
L: assert false;
}
proc g(x: int) {
  if (x == 7) {
L: assert false;
  }
}
proc main(x: int) {
  call g(x);
}
)");
  Run r = dse(*p, "main", "z3", true, "L");
  CHECK(r.report["verdict"] == "error");
  CHECK(r.report["target_reached"] == true);
  Run none = dse(*p, "h", "z3", true, "M");
  CHECK(none.exit == 2);
}
