// testgen as KLEE users expect it (issue #17 item 4): one test per distinct error unless
// --all-errors, --max-tests, --exit-on-error, line and branch coverage, --tests-out as `test`
// declarations that `check --tests` runs; in the symbolic executor's modes and in --dse.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using test::runTandem;
using test::TempDir;

// An off-by-one: every path through n == 8 writes a[8], at one of two statements.
const char* kFill = R"(proc fill(n: int, k: int) {
  var a: int[8];
  assume 0 <= n && n <= 8;
  var i: int = 0;
  while (i <= n) {
    if (k > i) { a[i] := k; } else { a[i] := i; }
    i := i + 1;
  }
}
)";

uint64_t failing(const test::CliResult& r) { return r.report["stats"]["failing"].get<uint64_t>(); }

TEST_CASE("testgen keeps one test per distinct error; --all-errors keeps every failing path") {
  TempDir dir;
  const std::string file = dir.write("fill.tdm", kFill).string();
  for (const char* mode : {"--solving=mixed", "--solving=classic", "--dse"}) {
    CAPTURE(mode);
    auto one = runTandem({"testgen", file, "--entry", "fill", mode, "--json"});
    REQUIRE(one.rc == 1);
    CHECK(failing(one) == 2);  // a[i] := k and a[i] := i
    CHECK(one.report["stats"]["duplicate_errors"] == 8);
    auto all = runTandem({"testgen", file, "--entry", "fill", mode, "--json", "--all-errors"});
    CHECK(failing(all) == 10);
    CHECK(all.report["stats"]["duplicate_errors"] == 0);
    // Dropping a repeated error does not turn the state it ended into a passing path.
    CHECK(one.report["stats"]["tests"].get<uint64_t>() + 8 ==
          all.report["stats"]["tests"].get<uint64_t>());
  }
}

TEST_CASE("testgen --max-tests and --exit-on-error end the search early, with honest verdicts") {
  TempDir dir;
  const std::string file = dir.write("fill.tdm", kFill).string();
  auto few = runTandem({"testgen", file, "--entry", "fill", "--max-tests", "3", "--json"});
  CHECK(few.rc == 4);  // cut before any failing test: unknown, never completed
  CHECK(few.report["verdict"] == "unknown");
  CHECK(few.report["stats"]["tests"] == 3);
  CHECK(few.report["reason"].get<std::string>().find("--max-tests 3") != std::string::npos);
  auto first = runTandem({"testgen", file, "--entry", "fill", "--exit-on-error", "--json"});
  CHECK(first.rc == 1);
  CHECK(failing(first) == 1);
  auto every = runTandem({"testgen", file, "--entry", "fill", "--json"});
  CHECK(first.report["stats"]["tests"].get<uint64_t>() <
        every.report["stats"]["tests"].get<uint64_t>());
  auto dse = runTandem({"testgen", file, "--entry", "fill", "--dse", "--max-tests", "2", "--json"});
  CHECK(dse.rc == 4);
  CHECK(dse.report["stats"]["tests"] == 2);
}

TEST_CASE("testgen reports line and branch coverage, labels or not") {
  TempDir dir;
  const std::string file = dir.write("g.tdm", R"(proc g(x: int) {
  var y: int = 0;
  if (x > 10) {
    y := 1;
  }
  if (x > 20 && x < 10) {
    y := 2;
  }
}
)")
                               .string();
  auto r = runTandem({"testgen", file, "--entry", "g", "--json"});
  REQUIRE(r.rc == 0);
  const auto& cov = r.report["coverage"];
  CHECK(cov["lines"]["uncovered"] == nlohmann::json::array({7}));  // y := 2 is dead
  CHECK(cov["lines"]["covered"].get<int>() + 1 == cov["lines"]["total"].get<int>());
  CHECK(cov["branches"]["total"] == 4);
  CHECK(cov["branches"]["covered"] == 3);
  auto text = runTandem({"testgen", file, "--entry", "g"});
  CHECK(text.out.find("coverage: ") != std::string::npos);
  CHECK(text.out.find("lines not covered: [7]") != std::string::npos);
  CHECK(text.out.find("covered: [], uncovered: []") == std::string::npos);
}

TEST_CASE("testgen --tests-out writes `test` declarations that check --tests runs") {
  TempDir dir;
  const std::string file = dir.write("fill.tdm", kFill).string();
  const std::string tests = dir.file("fill_tests.tdm");
  auto gen = runTandem({"testgen", file, "--entry", "fill", "--tests-out", tests, "--json"});
  REQUIRE(gen.rc == 1);
  const std::string text = dir.read("fill_tests.tdm");
  size_t decls = 0;
  for (size_t at = text.find("\ntest fill("); at != std::string::npos;
       at = text.find("\ntest fill(", at + 1))
    ++decls;
  CHECK(decls == gen.report["stats"]["tests"].get<size_t>());
  // The regression run reproduces the error from the tests alone.
  auto rerun = runTandem({"check", file, "--entry", "fill", "--tests", tests, "--json"});
  CHECK(rerun.rc == 1);
  CHECK(rerun.report["error"]["kind"] == "index-out-of-bounds");
  // FILE.json keeps the JSON form.
  auto json =
      runTandem({"testgen", file, "--entry", "fill", "--tests-out", dir.file("t.json"), "--json"});
  CHECK(nlohmann::json::parse(dir.read("t.json"))["tests"].size() ==
        json.report["stats"]["tests"].get<size_t>());
}

// ../shared/reported/testgen_tests_out_nan.tdm: `nan` and `inf` were written as names, which
// check --tests rejected (exit 2), so the saved tests could not be run again.
TEST_CASE("testgen --tests-out writes f64 values that are not finite as expressions") {
  TempDir dir;
  const std::string file = dir.write("nan.tdm", R"(proc main(e: f64) {
  if (e != e) { NAN: skip; }
  if (e > 1e308) { BIG: assert false; }
}
)")
                               .string();
  const std::string tests = dir.file("nan_tests.tdm");
  auto gen = runTandem({"testgen", file, "--entry", "main", "--tests-out", tests, "--json"});
  REQUIRE(gen.rc == 1);
  const std::string text = dir.read("nan_tests.tdm");
  CHECK(text.find("(0.0 / 0.0)") != std::string::npos);
  auto rerun = runTandem({"check", file, "--entry", "main", "--tests", tests, "--json"});
  CHECK(rerun.rc == 1);
  CHECK(rerun.report["verdict"] == "error");
}

TEST_CASE(
    "check --tests: a tests file with anything but tests, or tests that do not type, is exit 2") {
  TempDir dir;
  const std::string file = dir.write("fill.tdm", kFill).string();
  auto proc = runTandem(
      {"check", file, "--entry", "fill", "--tests", dir.write("p.tdm", "proc h() {}\n").string()});
  CHECK(proc.rc == 2);
  CHECK(proc.err.find("p.tdm:1:1: error: a tests file holds only `test` declarations") !=
        std::string::npos);
  auto arity = runTandem({"check", file, "--entry", "fill", "--tests",
                          dir.write("a.tdm", "\ntest fill(1);\n").string()});
  CHECK(arity.rc == 2);
  CHECK(arity.err.find("a.tdm:2:1: error: wrong number of arguments") != std::string::npos);
  auto missing = runTandem({"check", file, "--entry", "fill", "--tests", dir.file("none.tdm")});
  CHECK(missing.rc == 2);
  auto symbolic =
      runTandem({"check", file, "--entry", "fill", "--tests",
                 dir.write("ok.tdm", "test fill(1, 2);\n").string(), "--inputs", "symbolic"});
  CHECK(symbolic.rc == 2);
  auto passing = runTandem({"check", file, "--entry", "fill", "--tests", dir.file("ok.tdm")});
  CHECK(passing.rc == 4);  // no error, but only the tests' executions were explored
  CHECK(passing.out.find("only the executions from the `test` inputs") != std::string::npos);
}

}  // namespace
}  // namespace tandem
