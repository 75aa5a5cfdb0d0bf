// Partial-order reduction (check --por): the states it saves on models whose counts are known,
// and models where a reduction without one of its conditions (the necessary enabling sets, the
// visibility of invariants, the cycle proviso) would miss the invariant violation, the failing
// assertion or the deadlock. Each model runs on both engines: compiled, and generic (--dot).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_run.h"

namespace tandem {
namespace {

using test::runTandem;
using test::TempDir;

struct Outcome {
  std::string verdict, kind;
  uint64_t states = 0, reduced = 0;
  bool por = false;
};

// `tandem check FILE --json ARGS`, on the compiled engine or (with --dot) the generic one.
Outcome check(const TempDir& dir, const std::string& file, std::vector<std::string> args,
              bool generic) {
  std::vector<std::string> cmd = {"check", file, "--json", "--quiet"};
  if (generic) cmd.insert(cmd.end(), {"--dot", dir.file("graph.dot")});
  cmd.insert(cmd.end(), args.begin(), args.end());
  auto r = runTandem(cmd);
  const std::string output = r.out + r.err;
  REQUIRE_MESSAGE(r.report.is_object(), output);
  CHECK(r.report["engine"] == (generic ? "generic" : "compiled"));
  Outcome o;
  o.verdict = r.report["verdict"];
  if (r.report.contains("error")) o.kind = r.report["error"]["kind"];
  o.states = r.report["stats"]["states"];
  o.reduced = r.report["stats"].value("por_reduced_states", uint64_t{0});
  o.por = r.report.value("por", false);
  return o;
}

// Three processes that only count their own local to 3, in 7 steps each (four loop tests, three
// increments: 8 local states): 8^3 = 512 interleaved states, and under the reduction one line of
// 1 + 3 * 7 = 22 states (every location of P is local: its steps alone are a stubborn set).
const char* const kIndependent = R"(
process P[3] {
  var i: int = 0;
  while (i < 3) { i := i + 1; }
}
)";

// An invariant violated only when Q takes both its steps before P's. Without the visibility
// condition, P's step (which no other step depends on) alone would be explored at the start,
// and no successor of the initial state violates the invariant.
const char* const kVisible = R"(
var x: int = 0;
var y: int = 0;
process P { x := 1; }
process Q { y := 1; y := 2; }
invariant order: !(x == 0 && y == 2);
)";

// P flips a local forever; Q's steps are independent of P's. Without the cycle proviso the
// reduction would keep choosing P's step and never let Q run (the ignoring problem); the errors
// are two steps of Q away, so the successors of the initial state do not show them.
const char* const kIgnoredInvariant = R"(
var x: int = 0;
process P {
  var b: bool = false;
  while (true) { b := !b; }
}
process Q { x := 1; x := 2; }
invariant never: x != 2;
)";
const char* const kIgnoredAssert = R"(
process P {
  var b: bool = false;
  while (true) { b := !b; }
}
process Q {
  var y: int = 0;
  y := 1;
  assert y == 0;
}
)";

// The deadlock needs Q and R before P's first step: then x ends as 1 and P waits for 2 forever.
// P's step is in conflict with R's guarded step, which Q's step enables: without the necessary
// enabling set of R's step (its guard reads y, which Q writes), {P's step} alone would do, and
// every state after it lets P through.
const char* const kDeadlock = R"(
var x: int = 0;
var y: int = 0;
process P {
  x := 1;
  await x == 2;
}
process Q { y := 1; }
process R {
  await y == 1;
  x := 2;
}
)";

}  // namespace

TEST_CASE("por: independent processes are explored along one interleaving") {
  TempDir dir;
  const std::string f = dir.write("independent.tdm", kIndependent).string();
  for (bool generic : {false, true}) {
    CAPTURE(generic);
    Outcome full = check(dir, f, {}, generic);
    CHECK(full.verdict == "verified");
    CHECK(full.states == 512);
    CHECK_FALSE(full.por);
    Outcome por = check(dir, f, {"--por"}, generic);
    CHECK(por.verdict == "verified");
    CHECK(por.por);
    CHECK(por.states == 22);
    CHECK(por.reduced > 0);
    for (const char* s : {"bfs", "random"}) {
      CAPTURE(s);
      CHECK(check(dir, f, {"--por", "--search", s}, generic).states == 22);
    }
  }
}

TEST_CASE("por: Peterson keeps its verdict and reduces") {
  const std::string f = std::string(TANDEM_SHARED_DIR) + "/conformance/peterson2.tdm";
  TempDir dir;
  for (bool generic : {false, true}) {
    Outcome por = check(dir, f, {"--por"}, generic);
    CHECK(por.verdict == "verified");
    CHECK(por.states <= 20);
  }
}

TEST_CASE("por: a visible step is not reordered past an invariant violation") {
  TempDir dir;
  const std::string f = dir.write("visible.tdm", kVisible).string();
  for (bool generic : {false, true})
    for (const char* s : {"dfs", "bfs"}) {
      CAPTURE(generic);
      CAPTURE(s);
      Outcome o = check(dir, f, {"--por", "--search", s}, generic);
      CHECK(o.verdict == "error");
      CHECK(o.kind == "invariant");
    }
}

TEST_CASE("por: the cycle proviso lets an ignored process run (invariant, assertion)") {
  TempDir dir;
  for (const char* model : {kIgnoredInvariant, kIgnoredAssert}) {
    const std::string f = dir.write("ignored.tdm", model).string();
    for (bool generic : {false, true})
      for (const char* s : {"dfs", "bfs"}) {
        CAPTURE(model);
        CAPTURE(generic);
        CAPTURE(s);
        Outcome o = check(dir, f, {"--por", "--search", s}, generic);
        CHECK(o.verdict == "error");
        CHECK(o.kind == (model == kIgnoredInvariant ? "invariant" : "assert"));
      }
  }
}

TEST_CASE("por: a deadlock behind a disabled step is found") {
  TempDir dir;
  const std::string f = dir.write("deadlock.tdm", kDeadlock).string();
  for (bool generic : {false, true})
    for (const char* s : {"dfs", "bfs"}) {
      CAPTURE(generic);
      CAPTURE(s);
      CHECK(check(dir, f, {"--search", s}, generic).kind == "deadlock");
      Outcome o = check(dir, f, {"--por", "--search", s}, generic);
      CHECK(o.verdict == "error");
      CHECK(o.kind == "deadlock");
    }
}

TEST_CASE("por: --por and --no-por apply to closed systems only") {
  TempDir dir;
  const std::string f = dir.write("independent.tdm", kIndependent).string();
  CHECK(runTandem({"check", f, "--por", "--no-por"}).rc == 2);
  const std::string open = dir.write("open.tdm", "proc main() { var x: int = 1; }\n").string();
  for (const char* flag : {"--por", "--no-por"}) {
    auto r = runTandem({"check", open, "--entry", "main", flag});
    CHECK(r.rc == 2);
    CHECK(r.err.find("closed systems") != std::string::npos);
    CHECK(runTandem({"prove", f, flag}).rc == 2);
  }
  auto off = runTandem({"check", f, "--no-por", "--json"});
  CHECK(off.rc == 0);
  CHECK(off.report["por"] == false);
  CHECK(off.report["stats"]["states"] == 512);
}

}  // namespace tandem
