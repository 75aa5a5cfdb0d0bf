// Cutpoints (ISSTA'06): loop heads, entries, exits, call and return sites, property locations;
// every location of processes; every location on request.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "mc/ir/cutpoints.h"
#include "mc/ir/frontend.h"

namespace {
std::unique_ptr<tandem::ir::Program> load(const std::string& text) {
  tandem::SourceFile f("cut.tdm", text);
  std::ostringstream err;
  auto p = tandem::loadProgram(f, {}, err);
  INFO(err.str());
  REQUIRE(p);
  return p;
}
}  // namespace

TEST_CASE("cutpoints: loops mode picks loop heads, entry, exit, calls and asserts") {
  auto p = load(R"(
proc g(): int { return 1; }
proc f(n: int) {
  var i: int = 0;
  var r: int = 0;
A: i := 1;
L: while (i < n) {
B:   i := i + 1;
   }
C: r := g();
D: assert r == 1;
E: skip;
}
)");
  auto cut = computeCutpoints(*p, tandem::ir::CutpointMode::Loops);
  auto at = [&](const char* label) { return static_cast<bool>(cut[*p->findLabel(label)]); };
  CHECK(at("A"));   // entry
  CHECK(at("L"));   // loop head
  CHECK(!at("B"));  // inside the loop body
  CHECK(at("C"));   // call site
  CHECK(at("D"));   // after the call, and an assertion
  CHECK(!at("E"));
  auto all = computeCutpoints(*p, tandem::ir::CutpointMode::All);
  for (bool b : all) CHECK(b);
}

TEST_CASE("cutpoints: every location of a process is a cutpoint") {
  auto p = load("var x: int = 0;\nprocess P { A: x := 1; B: x := 2; C: skip; goto A; }\n");
  auto cut = computeCutpoints(*p, tandem::ir::CutpointMode::Loops);
  for (const auto& l : p->locs) CHECK(cut[l.id]);
}

TEST_CASE("cutpoints: paper mode adds memory accesses and leaves out assertions") {
  auto p = load(R"(
proc f(x: int, a: int[]) {
  var px: ref int = null;
  var y: int = 0;
A: y := 1;
B: px := &x;
C: x := x + 1;
D: y := a[0];
E: if (px != null) {
F:   *px := 2;
   }
G: assert y >= 0;
H: skip;
}
)");
  auto cut = computeCutpoints(*p, tandem::ir::CutpointMode::Paper);
  auto at = [&](const char* label) { return static_cast<bool>(cut[*p->findLabel(label)]); };
  CHECK(at("A"));   // entry
  CHECK(!at("B"));  // &x names x without reading it
  CHECK(at("C"));   // x's address is taken: x lives in memory
  CHECK(at("D"));   // array access
  CHECK(!at("E"));  // compares the pointer, does not dereference it
  CHECK(at("F"));   // dereference
  CHECK(!at("G"));  // an assertion is not one of the paper's rules
  CHECK(!at("H"));
  CHECK(tandem::ir::parseCutpointMode("paper") == tandem::ir::CutpointMode::Paper);
  CHECK(std::string(tandem::ir::cutpointModeName(tandem::ir::CutpointMode::Paper)) == "paper");
  CHECK(!tandem::ir::parseCutpointMode("sideways"));
}

TEST_CASE("cutpoints: a process's local steps are not cutpoints, but a cycle keeps one") {
  auto p = load(R"(
var x: int = 0;
process P {
  var j: int = 0;
A: x := 1;
B: j := j + 1;
C: x := j;
L: while (j < 10) {
D:   j := j + 1;
   }
E: j := 0;
F: goto A;
}
invariant never_f: !P@F;
)");
  auto cut = computeCutpoints(*p, tandem::ir::CutpointMode::Loops);
  auto at = [&](const char* label) { return static_cast<bool>(cut[*p->findLabel(label)]); };
  CHECK(at("A"));               // the entry
  CHECK(!at("B"));              // reads and writes j alone
  CHECK(at("C"));               // writes x
  CHECK((at("L") || at("D")));  // the loop L-D-L is local: the target of its back edge stays
  CHECK(!at("E"));
  CHECK(at("F"));  // named by the invariant
  auto all = computeCutpoints(*p, tandem::ir::CutpointMode::All);
  CHECK(all[*p->findLabel("B")]);
}

TEST_CASE("cutpoints: no local steps in a process named positively by an invariant or by code") {
  // At B, P is at no named location: `P@A || P@C || y == 0` can fail there alone.
  const std::string body = R"(
var y: int = 0;
process P {
  var j: int = 0;
A: y := 1;
B: j := j + 1;
C: y := 0;
   goto A;
}
)";
  auto positive = load(body + "invariant i: P@A || P@C || y == 0;\n");
  CHECK(computeCutpoints(*positive, tandem::ir::CutpointMode::Loops)[*positive->findLabel("B")]);
  auto negative = load(body + "invariant i: !(P@C && y == 1);\n");
  CHECK(!computeCutpoints(*negative, tandem::ir::CutpointMode::Loops)[*negative->findLabel("B")]);
  // Another process waits for P to be at A: P's location is read by code.
  auto read = load(body + "process Q { W: await P@A; }\n");
  CHECK(computeCutpoints(*read, tandem::ir::CutpointMode::Loops)[*read->findLabel("B")]);
}

TEST_CASE(
    "cutpoints: no local step into an atomic block, nor where a rendezvous brings its receiver") {
  auto p = load(R"(
chan a = [0] of { int };
var x: int = 0;
process P {
  var j: int = 0;
  var v: int = 0;
A: x := 1;
B: atomic { j := j + 1; x := j; }
C: a ? v;
R: j := j + v;
D: x := j;
   goto A;
}
process Q {
  S: a ! 1;
     goto S;
}
)");
  auto cut = computeCutpoints(*p, tandem::ir::CutpointMode::Loops);
  auto at = [&](const char* label) { return static_cast<bool>(cut[*p->findLabel(label)]); };
  CHECK(at("B"));  // j := j + 1 touches only j, but leads inside the atomic block
  CHECK(at("R"));  // j := j + v touches only P's locals, but the rendezvous at C brings P there
}
