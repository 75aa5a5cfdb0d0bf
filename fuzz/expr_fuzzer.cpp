// libFuzzer harness for the expressions of `--invariant` and `--predicates`: the input is the
// expression's text, resolved against a fixed .tdm model (through loadProgram, as `--invariant`
// on a .tdm file) and a fixed DVE model (through resolveGlobalCondition, as on a
// .dve file). An accepted expression becomes an invariant that both explicit engines check on
// every reachable state, so the evaluator and the compiled engine are compared on it.
#include <cstddef>
#include <cstdint>

#include <sstream>

#include "fuzz/fuzz_support.h"
#include "mc/dve/import.h"
#include "mc/ir/frontend.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

using namespace tandem;

namespace {

// Globals of each kind the checker knows (unbounded integers, i32, bool, arrays),
// and a process array with locals, so `P[1].v`, `P[0]@CS`, `pid`-free locals all resolve.
constexpr const char* kTdmBase = R"(
const N: int = 2;
var flag: bool[2] = [false, false];
var turn: int = 0;
var count: int = 0;
var w: i32 = 2147483647;
var a: int[3] = [1, -2, 3];
process P[2] {
  var v: int = 0;
  NCS: flag[pid] := true;
  T:   turn := 1 - pid;
       v := v + 1;
       w := w + 1;
  W:   await !flag[1 - pid] || turn == pid;
  CS:  count := (count + 1) % 4;
       flag[pid] := false;
       v := 0;
       goto NCS;
}
)";

constexpr const char* kDveBase = R"(
byte pos[2];
int t = -3;
process P_0 {
byte j = 0;
state NCS, CS, wait;
init NCS;
trans
 NCS -> wait { effect j = 1, pos[0] = 1; },
 wait -> CS { guard pos[1] == 0 || t < 0; effect t = t + 1; },
 CS -> NCS { effect pos[0] = 0, j = 0; };
}
process P_1 {
byte j = 0;
state NCS, CS, wait;
init NCS;
trans
 NCS -> wait { effect j = 1, pos[1] = 1; },
 wait -> CS { guard pos[0] == 0; effect t = t - 1; },
 CS -> NCS { effect pos[1] = 0, j = 0; };
}
system async;
)";

void againstTdm(const std::string& text) {
  // The CLI's own path: loadProgram with the expression as an --invariant.
  SourceFile base("base.tdm", kTdmBase);
  std::ostringstream err;
  static const bool baseLoads = loadProgram(base, FrontendOptions{}, err) != nullptr;
  fuzz::require(baseLoads, "the base model loads");
  FrontendOptions fo;
  fo.extraInvariants = {text};
  auto program = loadProgram(base, fo, err);
  if (!program) return;
  fuzz::walkIr(*program);
  fuzz::exploreBoth(*program, 500);
}

void againstDve(const std::string& text) {
  SourceFile base("base.dve", kDveBase);
  Diagnostics d(&base);
  auto program = importDve(base, d);
  fuzz::require(program && !d.hasErrors(), "the base DVE model imports");
  SourceFile exprFile("--invariant", text);
  Diagnostics de(&exprFile);
  auto e = parseExpression(exprFile, de);
  if (!e || de.hasErrors()) return;
  ExprRef cond = resolveGlobalCondition(*e, *program, de, "--invariant");
  if (!cond || de.hasErrors()) return;
  program->invariants.push_back({"--invariant", cond, {}});
  fuzz::exploreBoth(*program, 500);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::asText(data, size);
  againstTdm(text);
  againstDve(text);
  return 0;
}
