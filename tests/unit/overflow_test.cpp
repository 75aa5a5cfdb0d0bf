// --check overflow (issue #17 item 5): i32/i64 arithmetic that wraps is an error of kind
// `overflow` in every engine, as CBMC's --signed-overflow-check; without it, it wraps silently.
// The concrete rule (exec::overflowOf) and the symbolic obligation (SymEvaluator) must agree on
// every boundary value, in both back ends.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using test::runTandem;
using test::TempDir;

const char* kAvg = R"(proc avg(a: i32, b: i32): i32 {
  var s: i32 = a + b;
  return s / 2;
}
proc main(a: i32, b: i32) {
  assume a >= 0 && b >= 0;
  var m: i32 = avg(a, b);
  assert m >= 0;
}
)";

TEST_CASE("--check overflow: every engine reports the wrapping addition, kind overflow") {
  TempDir dir;
  const std::string file = dir.write("avg.tdm", kAvg).string();
  const std::vector<std::vector<std::string>> commands = {
      {"check", file, "--entry", "main"},
      {"check", file, "--entry", "main", "--solving", "mixed"},
      {"prove", file, "--entry", "main"},
      {"testgen", file, "--entry", "main"},
      {"testgen", file, "--entry", "main", "--solving", "dart"},
      {"testgen", file, "--entry", "main", "--dse"},
      {"cover", file, "--entry", "main"},
      {"run", file, "--entry", "main", "--args", "2147483647,1"},
  };
#ifdef TANDEM_SANITIZED
  const std::vector<const char*> solvers = {"z3"};  // memory errors, not the back ends' semantics
#else
  const std::vector<const char*> solvers = {"z3", "cvc5"};
#endif
  for (const char* solver : solvers)
    for (std::vector<std::string> c : commands) {
      const bool run = c[0] == "run";
      if (!run) c.insert(c.end(), {"--solver", solver});
      c.insert(c.end(), {"--check", "assert,overflow", "--json"});
      CAPTURE(c[0] + " " + c[3] + " " + solver);
      auto r = runTandem(c);
      CHECK(r.rc == 1);
      CHECK(r.report["error"]["kind"] == "overflow");
      CHECK(r.report["error"]["message"].get<std::string>().find("i32 addition overflows") == 0);
      // Without --check overflow the sum wraps, and the assertion fails instead.
      c.erase(c.end() - 3, c.end());
      c.insert(c.end(), {"--json"});
      auto wraps = runTandem(c);
      CHECK(wraps.rc == 1);
      CHECK(wraps.report["error"]["kind"] == "assert");
    }
  // Tracked alone, the overflow is the only error; the assertion is then not checked.
  auto only = runTandem({"check", file, "--entry", "main", "--check", "overflow", "--json"});
  CHECK(only.report["error"]["kind"] == "overflow");
  // A program without the overflow proves under --check overflow.
  const std::string safe = dir.write("safe.tdm", R"(proc f(a: i32) {
  assume a >= 0 && a < 1000;
  var b: i32 = a * 1000 - 5;
  assert b >= -5;
}
)")
                               .string();
  CHECK(runTandem({"prove", safe, "--entry", "f", "--check", "assert,overflow"}).rc == 0);
  CHECK(runTandem({"check", safe, "--entry", "f", "--check", "assert,overflow"}).rc == 0);
}

// Boundary values of a width, and the operators with their syntax.
std::vector<int64_t> boundaries(unsigned w) {
  const int64_t max = w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1, min = -max - 1;
  return {min, min + 1, -2, -1, 0, 1, 2, max / 2, max / 2 + 1, max - 1, max};
}

TEST_CASE("--check overflow: concrete and symbolic evaluation agree on boundary values") {
  TempDir dir;
  struct Case {
    std::string file, proc, args, op;
  };
#ifdef TANDEM_SANITIZED
  const std::vector<std::string> ops = {"+", "*", "neg"};
#else
  const std::vector<std::string> ops = {"+", "-", "*", "/", "%", "neg", "abs"};
#endif
#ifdef TANDEM_SANITIZED
  const std::vector<unsigned> widths = {32};  // memory errors, not semantics: one width is enough
#else
  const std::vector<unsigned> widths = {32, 64};
#endif
  for (unsigned w : widths) {
    const std::string t = "i" + std::to_string(w);
    const std::vector<int64_t> vals = boundaries(w);
    // One procedure per case: `assume` pins the operands, which stay symbols for the solver.
    std::vector<Case> cases;
    std::string text;
    for (const std::string& op : ops) {
      text.clear();
      const std::string file = dir.file(t + "_" + std::to_string(cases.size()) + ".tdm");
      for (int64_t a : vals)
        for (int64_t b : {vals[0], vals[3], vals[5], vals[7], vals[10]}) {
#ifdef TANDEM_SANITIZED
          if (b != vals[0] && b != vals[10]) continue;
#endif
          const bool unary = op == "neg" || op == "abs";
          if (unary && b != vals[0]) continue;
          const std::string name = "t" + std::to_string(cases.size());
          const std::string A = std::to_string(a), B = std::to_string(b);
          const std::string expr = op == "neg" ? "-a" : op == "abs" ? "abs(a)" : "a " + op + " b";
          text += "proc " + name + "(a: " + t + ", b: " + t + ") {\n  assume a == " + A +
                  " && b == " + B + ";\n  var r: " + t + " = " + expr + ";\n}\n";
          cases.push_back({file, name, A + "," + B, op});
        }
      dir.write(file.substr(file.rfind('/') + 1), text);
    }
    for (size_t i = 0; i < cases.size(); ++i) {
      CAPTURE(t + " " + cases[i].op + " on " + cases[i].args);
      auto concrete = runTandem({"run", cases[i].file, "--entry", cases[i].proc, "--args",
                                 cases[i].args, "--check", "overflow", "--json"});
      const char* solver = i % 2 ? "cvc5" : "z3";  // each back end on half the cases
      auto symbolic = runTandem({"check", cases[i].file, "--entry", cases[i].proc, "--check",
                                 "overflow", "--solver", solver, "--json"});
      const bool wraps = concrete.report["verdict"] == "error";
      CHECK((wraps || concrete.report["verdict"] == "completed"));
      CHECK(symbolic.report["verdict"] == (wraps ? "error" : "verified"));
      if (wraps) {
        CHECK(concrete.report["error"]["kind"] == "overflow");
        CHECK(symbolic.report["error"]["kind"] == "overflow");
      }
    }
  }
}

}  // namespace
}  // namespace tandem
