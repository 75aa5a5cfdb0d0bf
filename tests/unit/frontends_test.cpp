#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "mc/frontends/registry.h"

using namespace tandem;

TEST_CASE("front ends: a file goes to the front end of its extension, others to .tdm") {
  CHECK(frontends::frontEndFor("models/anderson.1.dve").name == "dve");
  CHECK(frontends::frontEndFor("bakery.tdm").name == "tdm");
  CHECK(frontends::frontEndFor("notes.txt").name == "tdm");  // its parser says what is wrong
  CHECK(frontends::frontEndFor("a.dve.tdm").name == "tdm");
  // One default, every loader set, no extension claimed twice.
  int defaults = 0;
  std::set<std::string_view> seen;
  for (const frontends::FrontEnd& f : frontends::frontEnds()) {
    CAPTURE(f.name);
    CHECK(static_cast<bool>(f.load));
    if (f.extensions.empty()) ++defaults;
    for (std::string_view e : f.extensions) CHECK(seen.insert(e).second);
  }
  CHECK(defaults == 1);
}

TEST_CASE("front ends: each loads its language, with the command line's invariants") {
  std::ostringstream err;
  SourceFile dve("m.dve",
                 "byte x;\nprocess P { state a; init a; trans a -> a { effect x = 1; }; }\n"
                 "system async;\n");
  const frontends::FrontEnd& fe = frontends::frontEndFor(dve.path());
  auto p = fe.load(dve, {{"x <= 1"}, {}}, err, nullptr);
  REQUIRE(p);
  CHECK(p->invariants.size() == 1);
  CHECK_FALSE(fe.load(dve, {{"y <= 1"}, {}}, err, nullptr));  // no such variable
  SourceFile tdm("m.tdm",
                 "var x: int = 0;\nprocess P {\n  A: await x < 3;\n  x := x + 1;\n  goto A;\n}\n");
  auto q = frontends::frontEndFor(tdm.path()).load(tdm, {{"x <= 3"}, {}}, err, nullptr);
  REQUIRE(q);
  CHECK(q->invariants.size() == 1);
}
