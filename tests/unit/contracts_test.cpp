// requires/ensures (issue #17 item 3): parsed and printed, typed (`result`, `old`, what a
// precondition may read), lowered to assertions every engine checks: a precondition at each
// call (and assumed on entry), a postcondition where the body ends.
#include <doctest/doctest.h>

#include "mc/lang/parser.h"
#include "mc/lang/printer.h"
#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using test::runTandem;

const char* kAbs =
    "proc absdiff(a: int, b: int): int\n"
    "  requires a >= 0 && b >= 0;\n"
    "  ensures result >= 0;\n"
    "{\n"
    "  if (a > b) { return a - b; }\n"
    "  return b - a;\n"
    "}\n";

TEST_CASE("contracts: printed as written, and parsed back the same") {
  SourceFile file("t.tdm", kAbs);
  Diagnostics diags(&file);
  auto p = parseProgram(file, diags);
  REQUIRE_FALSE(diags.hasErrors());
  REQUIRE(p->procs.size() == 1);
  CHECK(p->procs[0]->preconditions.size() == 1);
  CHECK(p->procs[0]->postconditions.size() == 1);
  const std::string printed = printProgram(*p);
  CHECK(printed.find("  requires a >= 0 && b >= 0;\n  ensures result >= 0;\n{") !=
        std::string::npos);
  SourceFile again("u.tdm", printed);
  Diagnostics d2(&again);
  auto q = parseProgram(again, d2);
  REQUIRE_FALSE(d2.hasErrors());
  CHECK(printProgram(*q) == printed);
  // Contextual words: a variable may still be called `requires`.
  SourceFile named("v.tdm", "proc f() { var requires: int = 1; requires := requires + 1; }\n");
  Diagnostics d3(&named);
  parseProgram(named, d3);
  CHECK_FALSE(d3.hasErrors());
}

TEST_CASE("contracts: what they may say is checked (exit 2, FILE:LINE:COL)") {
  test::TempDir tmp;
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"proc f(x: int) requires old(x) > 0; { }\n", "'old' in a precondition"},
      {"proc f(x: int) ensures result > 0; { }\n", "unknown name 'result'"},
      {"proc f(x: int) requires x; { }\n", "precondition"},
      {"proc g(x: int): int requires x > 0; { return x; }\n"
       "proc f(y: int) { var z: int = 0; z := g(y) + 1; }\n",
       "has a precondition"},
      {"class C { var n: int; init(c: int) requires n > 0; { n := c; } }\n",
       "a precondition of init cannot read the field 'n'"},
      {"@concrete proc f(x: int): int ensures result > 0; { return x; }\n", "@concrete"},
      {"proc f(x: int) requires x > 0 { }\n", "expected ';' after precondition"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    auto file = tmp.write("bad.tdm", c.text);
    auto r = runTandem({"check", file.string(), "--entry", "f"});
    CHECK(r.rc == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.err.find("bad.tdm:") != std::string::npos);
  }
}

TEST_CASE("contracts: every engine checks them, with both solvers") {
  test::TempDir tmp;
  auto file = tmp.write("abs.tdm", std::string(kAbs) +
                                       "proc client(u: int) {\n"
                                       "  var d: int = 0;\n"
                                       "  d := absdiff(u, 3);\n"
                                       "}\n"
                                       "proc wrong(x: int): int\n"
                                       "  ensures result > x;\n"
                                       "{\n"
                                       "  x := x + 1;\n"
                                       "  return x - 1;\n"
                                       "}\n");
  const std::string f = file.string();
  for (const char* solver : {"z3", "cvc5"}) {
    CAPTURE(solver);
    // The precondition is assumed on entry: absdiff is correct.
    CHECK(runTandem({"check", f, "--entry", "absdiff", "--solver", solver}).rc == 0);
    CHECK(runTandem({"prove", f, "--entry", "absdiff", "--solver", solver}).rc == 0);
    // A caller that may break it: an assert error at the call, in every engine.
    for (std::vector<std::string> args :
         {std::vector<std::string>{"check"}, {"prove"}, {"testgen"}, {"cover"}}) {
      CAPTURE(args[0]);
      args.insert(args.end(), {f, "--entry", "client", "--solver", solver, "--json"});
      auto r = runTandem(args);
      CHECK(r.rc == 1);
      REQUIRE(r.report.contains("error"));
      CHECK(r.report["error"]["kind"] == "assert");
      CHECK(r.report["error"]["line"] == 10);
      CHECK(r.report["error"]["message"] == "'requires of absdiff: a >= 0 && b >= 0' failed");
    }
    // `x` in `ensures` is its value on entry, though the body assigns it: result == x fails.
    auto w = runTandem({"check", f, "--entry", "wrong", "--solver", solver, "--json"});
    CHECK(w.rc == 1);
    CHECK(w.report["error"]["message"] == "'ensures result > x' failed");
    CHECK(runTandem({"prove", f, "--entry", "wrong", "--solver", solver}).rc == 1);
  }
  // The explicit engine (no inputs) and run: the same assertion.
  auto run = runTandem({"run", f, "--entry", "client", "--args", "-4"});
  CHECK(run.rc == 1);
  CHECK(run.out.find("requires of absdiff") != std::string::npos);
}

}  // namespace
}  // namespace tandem
