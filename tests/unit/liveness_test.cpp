// Dead process-local variables (mc/ir/liveness.h).
#include <doctest/doctest.h>

#include "mc/ir/liveness.h"
#include "test_programs.h"

using tandem::test::loadText;

TEST_CASE("liveness: a process local overwritten before it is read is dead") {
  auto p = loadText(R"(
var x: int = 0;
process P {
  var j: int = 0;
  var m: int = 0;
  var k: int = 0;
A: x := 1;
B: j, m := 0, 0;
C: x := j + m;
D: m := x;
E: k := k + 1;
   goto A;
}
process Q { A: await P.k > 3; }
)");
  auto dead = tandem::ir::deadProcessLocals(*p);
  auto isDead = [&](const char* label, const char* var) {
    tandem::ir::LocId l = *p->findLabel(label);
    for (tandem::ir::VarId v : dead[l])
      if (p->vars[v].name == var) return true;
    return false;
  };
  CHECK(isDead("A", "j"));
  CHECK(isDead("A", "m"));
  CHECK(isDead("B", "j"));
  CHECK(!isDead("C", "j"));
  CHECK(!isDead("C", "m"));
  CHECK(isDead("D", "m"));   // written at D before any read
  CHECK(isDead("D", "j"));   // next written at B
  CHECK(!isDead("A", "k"));  // Q reads P.k: never dead
}
