// Lowering to the control-flow IR with the step semantics of LANGUAGE.md ("Semantics"): which
// statements are steps, which are jumps, how locations are named and flagged, calls and returns,
// atomic blocks, verification annotations, rule systems, and `tandem ir` on every shipped file.
#include <doctest/doctest.h>
#include <pthread.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "mc/ir/frontend.h"
#include "mc/ir/ir_printer.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;

std::string conformance(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}

// Parses, checks and lowers `text`; fails the test on any diagnostic.
std::unique_ptr<ir::Program> lowerText(const std::string& text) {
  SourceFile file("t.tdm", text);
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

std::unique_ptr<ir::Program> lowerFile(const std::string& path) {
  std::ostringstream err;
  auto file = readSourceFile(path, err);
  REQUIRE_MESSAGE(file, err.str());
  auto p = loadProgram(*file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

const ir::Cfa& cfa(const ir::Program& p, const std::string& name) {
  const ir::Cfa* c = p.findCfa(name);
  REQUIRE_MESSAGE(c, "no automaton " << name);
  return *c;
}

// The location of `c` labelled `label`.
ir::LocId at(const ir::Program& p, const ir::Cfa& c, const std::string& label) {
  for (auto l : c.locs)
    for (const auto& name : p.locs[l].labels)
      if (name == label) return l;
  FAIL("no label " << label << " in " << c.name);
  return ir::kNone;
}

std::vector<const ir::Edge*> edgesOf(const ir::Program& p, const ir::Cfa& c) {
  std::vector<const ir::Edge*> out;
  for (auto l : c.locs)
    for (auto e : p.locs[l].out) out.push_back(&p.edges[e]);
  return out;
}

// The edges of `c` that are steps (everything but the implicit return to the caller).
size_t steps(const ir::Program& p, const ir::Cfa& c) {
  size_t n = 0;
  for (const auto* e : edgesOf(p, c)) n += e->kind != ir::EdgeKind::Return;
  return n;
}

std::vector<const ir::Edge*> outOf(const ir::Program& p, ir::LocId l) {
  std::vector<const ir::Edge*> out;
  for (auto e : p.locs[l].out) out.push_back(&p.edges[e]);
  return out;
}

std::string str(const ir::Program& p, ExprRef e) { return e ? ir::exprToString(p, e) : "<null>"; }

// The process/procedure's locations' first labels in location order ("" for unlabelled ones).
std::vector<std::string> labelsInOrder(const ir::Program& p, const ir::Cfa& c) {
  std::vector<std::string> out;
  for (auto l : c.locs) out.push_back(p.locs[l].labels.empty() ? "" : p.locs[l].labels.front());
  return out;
}

int runCli(std::vector<std::string> args, std::string* out = nullptr, std::string* err = nullptr) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  int rc = cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
  if (out) *out = o.str();
  if (err) *err = e.str();
  return rc;
}

}  // namespace

TEST_CASE("lower: Peterson and Bakery have four locations per process, named by their labels") {
  auto pet = lowerFile(conformance("peterson2.tdm"));
  REQUIRE(pet->processes.size() == 1);
  const ir::Cfa& p = pet->cfas[pet->processes[0]];
  CHECK(p.kind == ir::CfaKind::Process);
  CHECK(p.instances == 2);
  CHECK(labelsInOrder(*pet, p) == std::vector<std::string>{"NCS", "T", "W", "CS"});
  CHECK(p.entry == at(*pet, p, "NCS"));
  CHECK(p.exit == ir::kNone);  // the body loops: no terminal location
  CHECK(steps(*pet, p) == 4);
  // `goto NCS` takes no step: CS's one edge goes straight back to NCS.
  auto cs = outOf(*pet, at(*pet, p, "CS"));
  REQUIRE(cs.size() == 1);
  CHECK(cs[0]->to == at(*pet, p, "NCS"));
  // The await is a guard, with no assignment.
  auto w = outOf(*pet, at(*pet, p, "W"));
  REQUIRE(w.size() == 1);
  CHECK(w[0]->guard != nullptr);
  CHECK(w[0]->assigns.empty());
  CHECK(w[0]->to == at(*pet, p, "CS"));

  auto bak = lowerFile(conformance("bakery2.tdm"));
  REQUIRE(bak->processes.size() == 2);
  for (auto id : bak->processes) {
    const ir::Cfa& c = bak->cfas[id];
    CAPTURE(c.name);
    CHECK(labelsInOrder(*bak, c) == std::vector<std::string>{"A", "B", "C", "D"});
    CHECK(steps(*bak, c) == 4);
    auto d = outOf(*bak, at(*bak, c, "D"));
    REQUIRE(d.size() == 1);
    CHECK(d[0]->to == at(*bak, c, "A"));
  }
}

TEST_CASE("lower: foo has locations A..H in order, H the exit") {
  auto p = lowerFile(conformance("foo_null.tdm"));
  const ir::Cfa& foo = cfa(*p, "foo");
  CHECK(labelsInOrder(*p, foo) == std::vector<std::string>{"A", "B", "C", "D", "E", "F", "G", "H"});
  CHECK(foo.entry == at(*p, foo, "A"));
  CHECK(foo.exit == at(*p, foo, "H"));
  CHECK(p->locs[foo.exit].isExit);
  // `var px: ref int = null;` is initialised on entry (it calls nothing): no step.
  REQUIRE(foo.entryInits.size() == 1);
  CHECK(str(*p, foo.entryInits[0].lhs) == "px");
  // The exit's only edge is the return to the caller; `H: return;` itself is no step.
  auto h = outOf(*p, foo.exit);
  REQUIRE(h.size() == 1);
  CHECK(h[0]->kind == ir::EdgeKind::Return);
  // Steps: A, B (2), C, D (2), E, F (2), G.
  CHECK(steps(*p, foo) == 10);
}

TEST_CASE("lower: goto L, break, continue and a bare return take no step") {
  SUBCASE("goto L") {
    auto p = lowerText("var x: int = 0;\nproc f() { L: x := x + 1; goto L; }\n");
    const ir::Cfa& f = cfa(*p, "f");
    CHECK(steps(*p, f) == 1);
    auto l = outOf(*p, at(*p, f, "L"));
    REQUIRE(l.size() == 1);
    CHECK(l[0]->to == at(*p, f, "L"));  // a self-loop: the goto is no location of its own
    CHECK(p->locs[at(*p, f, "L")].loopHead);
  }
  SUBCASE("break") {
    auto p = lowerText(R"(
proc f() {
  var i: int = 0;
  while (true) {
    if (i > 3) { break; }
    i := i + 1;
  }
}
)");
    const ir::Cfa& f = cfa(*p, "f");
    // while: 2, if: 2, assignment: 1.
    CHECK(steps(*p, f) == 5);
    CHECK(f.locs.size() == 4);  // head, if, assignment, exit
    // The if's true branch leads straight to the exit.
    bool toExit = false;
    for (const auto* e : edgesOf(*p, f))
      toExit = toExit || (e->guard && str(*p, e->guard) == "i > 3" && e->to == f.exit);
    CHECK(toExit);
  }
  SUBCASE("continue") {
    auto p = lowerText(R"(
proc f() {
  var i: int = 0;
  while (i < 5) {
    i := i + 1;
    if (i == 2) { continue; }
    skip;
  }
}
)");
    const ir::Cfa& f = cfa(*p, "f");
    // while: 2, assignment: 1, if: 2, skip: 1.
    CHECK(steps(*p, f) == 6);
    ir::LocId head = f.entry;
    CHECK(p->locs[head].loopHead);
    bool toHead = false;
    for (const auto* e : edgesOf(*p, f))
      toHead = toHead || (e->guard && str(*p, e->guard) == "i == 2" && e->to == head);
    CHECK(toHead);
  }
  SUBCASE("bare return") {
    auto p = lowerText("proc f(x: int) {\n  if (x > 0) { return; }\n  x := 1;\n}\n");
    const ir::Cfa& f = cfa(*p, "f");
    CHECK(steps(*p, f) == 3);
    CHECK(f.locs.size() == 3);  // if, assignment, exit
    auto entry = outOf(*p, f.entry);
    REQUIRE(entry.size() == 2);
    CHECK(str(*p, entry[0]->guard) == "x > 0");
    CHECK(entry[0]->to == f.exit);
  }
  SUBCASE("return with a value is a step") {
    auto p = lowerText("proc g(a: int): int { return a + 1; }\n");
    const ir::Cfa& g = cfa(*p, "g");
    CHECK(steps(*p, g) == 1);
    auto e = outOf(*p, g.entry);
    REQUIRE(e.size() == 1);
    REQUIRE(e[0]->assigns.size() == 1);
    CHECK(e[0]->assigns[0].lhs->op == Op::Var);
    CHECK(e[0]->assigns[0].lhs->payload == g.resultVar);
    CHECK(p->vars[g.resultVar].hidden);
    CHECK(e[0]->to == g.exit);
  }
}

TEST_CASE("lower: a goto with two targets is one step with two edges") {
  auto p = lowerText(R"(
var x: int = 0;
proc f() {
  L0: goto L1, L2;
  L1: x := 1;
      return;
  L2: x := 2;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  auto l0 = outOf(*p, at(*p, f, "L0"));
  REQUIRE(l0.size() == 2);
  std::set<ir::LocId> targets;
  for (const auto* e : l0) {
    CHECK(e->kind == ir::EdgeKind::Command);
    CHECK(e->guard == nullptr);
    CHECK(e->assigns.empty());
    targets.insert(e->to);
  }
  CHECK(targets == std::set<ir::LocId>{at(*p, f, "L1"), at(*p, f, "L2")});
  CHECK(steps(*p, f) == 4);

  // The same in the conformance file of Christ, Hoenicke, Schaef.
  auto u = lowerFile(conformance("unstructured.tdm"));
  const ir::Cfa& foo = cfa(*u, "foo");
  CHECK(outOf(*u, at(*u, foo, "L0")).size() == 2);
  CHECK(foo.entry == at(*u, foo, "L0"));
}

TEST_CASE("lower: if (*) and while (*) make two unguarded edges") {
  auto p = lowerText(R"(
var x: int = 0;
proc f() {
  A: if (*) { x := 1; } else { x := 2; }
  B: while (*) { x := x + 1; }
  C: skip;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  for (const char* label : {"A", "B"}) {
    CAPTURE(label);
    auto out = outOf(*p, at(*p, f, label));
    REQUIRE(out.size() == 2);
    for (const auto* e : out) {
      CHECK(e->kind == ir::EdgeKind::Command);
      CHECK(e->guard == nullptr);
      CHECK(e->assigns.empty());
    }
    CHECK(out[0]->to != out[1]->to);
  }
  auto b = outOf(*p, at(*p, f, "B"));
  CHECK((b[0]->to == at(*p, f, "C") || b[1]->to == at(*p, f, "C")));
  CHECK(p->locs[at(*p, f, "B")].loopHead);
  CHECK_FALSE(p->locs[at(*p, f, "A")].loopHead);
}

TEST_CASE("lower: if and while conditions are steps with the guard and its negation") {
  auto p = lowerText(R"(
var x: int = 0;
proc f() {
  I: if (x < 4) { x := 1; }
  W: while (x != 7) { x := x + 1; }
  E: skip;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  for (const auto& [label, cond] : {std::pair<const char*, const char*>{"I", "x < 4"},
                                    std::pair<const char*, const char*>{"W", "x != 7"}}) {
    CAPTURE(label);
    auto out = outOf(*p, at(*p, f, label));
    REQUIRE(out.size() == 2);
    REQUIRE(out[0]->guard);
    REQUIRE(out[1]->guard);
    CHECK(str(*p, out[0]->guard) == cond);
    CHECK(out[0]->assigns.empty());
    CHECK(out[1]->assigns.empty());
    // The other edge's guard is exactly the negation of the first (hash-consed).
    CHECK(out[1]->guard->op == Op::Not);
    CHECK(out[1]->guard->kid(0) == out[0]->guard);
  }
  // The false branch of the `if` skips the body; the false branch of the loop leaves it.
  auto i = outOf(*p, at(*p, f, "I"));
  CHECK(i[1]->to == at(*p, f, "W"));
  auto w = outOf(*p, at(*p, f, "W"));
  CHECK(w[1]->to == at(*p, f, "E"));
  CHECK(p->locs[at(*p, f, "W")].loopHead);
}

TEST_CASE("lower: declarations before the first statement are entry inits; later ones are steps") {
  auto p = lowerText(R"(
proc g(a: int): int { return a + 1; }
proc f() {
  var a: int = 1;
  var u: int;
  var b: bool = a > 0;
  var c: int = g(a);
  var d: int = 2;
  d := c;
}
proc h() {
  var n: int = isqrt(4);
  var m: int = 3;
  skip;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  // a and b are initialised on entry (u has no initialiser); c calls g, so it and d are steps.
  REQUIRE(f.entryInits.size() == 2);
  CHECK(str(*p, f.entryInits[0].lhs) == "a");
  CHECK(str(*p, f.entryInits[1].lhs) == "b");
  CHECK(str(*p, f.entryInits[1].rhs) == "a > 0");
  auto first = outOf(*p, f.entry);
  REQUIRE(first.size() == 1);
  const ir::Edge& call = *first[0];
  CHECK(call.kind == ir::EdgeKind::Call);
  CHECK(call.callee == p->findCfaId("g", ir::CfaKind::Proc));
  REQUIRE(call.result);
  CHECK(str(*p, call.result) == "c");
  auto second = outOf(*p, call.to);
  REQUIRE(second.size() == 1);
  CHECK(second[0]->kind == ir::EdgeKind::Command);
  REQUIRE(second[0]->assigns.size() == 1);
  CHECK(str(*p, second[0]->assigns[0].lhs) == "d");
  CHECK(str(*p, second[0]->assigns[0].rhs) == "2");
  CHECK(steps(*p, f) == 3);  // c, d, d := c

  // A declaration that calls a native is no entry init either, but it is no call step.
  const ir::Cfa& h = cfa(*p, "h");
  CHECK(h.entryInits.empty());
  auto n = outOf(*p, h.entry);
  REQUIRE(n.size() == 1);
  CHECK(n[0]->kind == ir::EdgeKind::Command);
  REQUIRE(n[0]->assigns.size() == 1);
  CHECK(str(*p, n[0]->assigns[0].lhs) == "n");
  CHECK(steps(*p, h) == 3);  // n, m, skip
}

TEST_CASE("lower: a call is a Call edge from a call site to an after-call location") {
  auto p = lowerText(R"(
var x: int = 0;
proc f(a: int): int {
  var t: int = a * 2;
  return t;
}
proc main() {
  skip;
  x := f(3);
  call f(1);
  skip;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  const ir::Cfa& main = cfa(*p, "main");
  ir::CfaId fId = p->findCfaId("f", ir::CfaKind::Proc);
  std::vector<const ir::Edge*> calls;
  for (const auto* e : edgesOf(*p, main))
    if (e->kind == ir::EdgeKind::Call) calls.push_back(e);
  REQUIRE(calls.size() == 2);
  for (const auto* c : calls) {
    CHECK(c->callee == fId);
    CHECK(p->locs[c->from].callSite);
    CHECK(p->locs[c->to].afterCall);
    CHECK(c->guard == nullptr);
    REQUIRE(c->args.size() == 1);
  }
  CHECK(str(*p, calls[0]->args[0]) == "3");
  REQUIRE(calls[0]->result);
  CHECK(str(*p, calls[0]->result) == "x");
  CHECK(calls[1]->result == nullptr);
  CHECK(calls[0]->to == calls[1]->from);  // after-call of one is the call site of the next
  CHECK_FALSE(p->locs[main.entry].callSite);
  // The callee returns from its exit location.
  REQUIRE(f.exit != ir::kNone);
  auto ret = outOf(*p, f.exit);
  REQUIRE(ret.size() == 1);
  CHECK(ret[0]->kind == ir::EdgeKind::Return);
  CHECK(f.resultVar != ir::kNone);
  CHECK(p->locs[f.exit].isExit);
  CHECK(p->locs[f.entry].isEntry);
  CHECK(f.pure);
}

TEST_CASE("lower: loop heads are marked") {
  auto p = lowerText(R"(
var x: int = 0;
proc f() {
  A: skip;
  W: while (x < 3) {
    B: x := x + 1;
    V: while (x > 10) { x := x - 1; }
  }
  C: skip;
}
)");
  const ir::Cfa& f = cfa(*p, "f");
  CHECK(p->locs[at(*p, f, "W")].loopHead);
  CHECK(p->locs[at(*p, f, "V")].loopHead);
  for (const char* l : {"A", "B", "C"}) {
    CAPTURE(l);
    CHECK_FALSE(p->locs[at(*p, f, l)].loopHead);
  }
  auto pet = lowerFile(conformance("peterson2.tdm"));
  const ir::Cfa& proc = pet->cfas[pet->processes[0]];
  CHECK(pet->locs[at(*pet, proc, "NCS")].loopHead);
  CHECK_FALSE(pet->locs[at(*pet, proc, "CS")].loopHead);
}

TEST_CASE("lower: atomic blocks mark the locations strictly inside them") {
  auto p = lowerText(R"(
var x: int = 0;
process P {
  A: atomic { x := 1; x := 2; x := 3; }
  D: skip;
}
)");
  const ir::Cfa& c = p->cfas[p->processes[0]];
  REQUIRE(c.locs.size() == 5);  // A, two inside, D, the end
  CHECK_FALSE(p->locs[at(*p, c, "A")].atomic);
  CHECK(p->locs[c.locs[1]].atomic);
  CHECK(p->locs[c.locs[2]].atomic);
  CHECK_FALSE(p->locs[at(*p, c, "D")].atomic);
  CHECK_FALSE(p->locs[c.locs[4]].atomic);
  CHECK(steps(*p, c) == 4);
}

// A label inside an atomic block names a location strictly inside it (label locations are made
// before the block is lowered, so they are marked separately).
TEST_CASE("lower: a labelled location inside an atomic block is atomic") {
  auto p = lowerText(R"(
var x: int = 0;
process P {
  A: atomic { x := 1; B: x := 2; x := 3; }
  D: skip;
}
)");
  const ir::Cfa& c = p->cfas[p->processes[0]];
  REQUIRE(c.locs.size() == 5);
  CHECK_FALSE(p->locs[at(*p, c, "A")].atomic);
  CHECK(p->locs[at(*p, c, "B")].atomic);
  CHECK(p->locs[c.locs[2]].atomic);
  CHECK_FALSE(p->locs[at(*p, c, "D")].atomic);
}

TEST_CASE("lower: assumed ids become hidden bool locals used by verified premises") {
  auto p = lowerFile(conformance("deposit.tdm"));
  const ir::Cfa& d = cfa(*p, "Deposit");
  ir::VarId a = ir::kNone;
  for (auto v : d.locals)
    if (p->vars[v].name == "a") a = v;
  REQUIRE(a != ir::kNone);
  CHECK(p->vars[a].hidden);
  CHECK(p->vars[a].type == p->types->boolType());
  CHECK(p->vars[a].scope == ir::VarScope::Local);
  const ir::Edge* assumed = nullptr;
  const ir::Edge* assertion = nullptr;
  for (const auto* e : edgesOf(*p, d)) {
    if (e->kind == ir::EdgeKind::Assumed) assumed = e;
    if (e->kind == ir::EdgeKind::Assert) assertion = e;
  }
  REQUIRE(assumed);
  REQUIRE(assertion);
  REQUIRE(assumed->assigns.size() == 1);
  CHECK(assumed->assigns[0].lhs->op == Op::Var);
  CHECK(assumed->assigns[0].lhs->payload == a);
  // a := a && e (ICSE'16 §2.1), a true on entry.
  CHECK(str(*p, assumed->assigns[0].rhs) == "a && no_overflow_add(balance, amount)");
  REQUIRE(d.entryInits.size() == 1);
  CHECK(d.entryInits[0].lhs->payload == a);
  CHECK(d.entryInits[0].rhs->isTrue());
  CHECK(str(*p, assumed->cond) == "no_overflow_add(balance, amount)");
  REQUIRE(assertion->premise);
  CHECK(assertion->premise->op == Op::Var);
  CHECK(assertion->premise->payload == a);
  CHECK(std::find(p->assumedNames.begin(), p->assumedNames.end(), "a") != p->assumedNames.end());
  CHECK(p->locs[assertion->from].property);

  // Premises are boolean formulas over the ids.
  auto q = lowerText(R"(
proc f(x: int) {
  assumed x > 0 as pos;
  assumed x < 9 as small;
  assert x != 0 verified pos && !small;
  assert x != 1 verified true;
}
)");
  const ir::Cfa& f = cfa(*q, "f");
  std::vector<const ir::Edge*> asserts;
  for (const auto* e : edgesOf(*q, f))
    if (e->kind == ir::EdgeKind::Assert) asserts.push_back(e);
  REQUIRE(asserts.size() == 2);
  CHECK(str(*q, asserts[0]->premise) == "pos && !small");
  REQUIRE(asserts[1]->premise);
  CHECK(asserts[1]->premise->isTrue());
  size_t hidden = 0;
  for (auto v : f.locals) hidden += q->vars[v].hidden && q->vars[v].type == q->types->boolType();
  CHECK(hidden == 2);
}

TEST_CASE("lower: a rule system is one location with one self-loop per rule") {
  auto p = lowerFile(conformance("bakery2_rules.tdm"));
  CHECK(p->isClosed());
  CHECK(p->processes.empty());
  REQUIRE(p->rules != ir::kNone);
  const ir::Cfa& r = p->cfas[p->rules];
  CHECK(r.kind == ir::CfaKind::Rules);
  REQUIRE(r.locs.size() == 1);
  ir::LocId l = r.locs[0];
  CHECK(r.entry == l);
  auto out = outOf(*p, l);
  REQUIRE(out.size() == 8);
  for (const auto* e : out) {
    CHECK(e->kind == ir::EdgeKind::Command);
    CHECK(e->from == l);
    CHECK(e->to == l);
    CHECK(e->guard != nullptr);
    CHECK_FALSE(e->sequential);  // a rule assigns in parallel
  }
  CHECK(str(*p, out[0]->guard) == "pc1 == A");
  REQUIRE(out[0]->assigns.size() == 2);
  CHECK(str(*p, out[0]->assigns[0].lhs) == "x1");
  CHECK(str(*p, out[0]->assigns[0].rhs) == "x2");
  CHECK(str(*p, out[0]->assigns[1].lhs) == "pc1");
  CHECK(str(*p, out[2]->guard) == "pc1 == C && x1 <= x2");
}

TEST_CASE("lower: tandem ir prints every shipped model") {
  std::vector<fs::path> files;
  for (const auto& dir :
       {fs::path(TANDEM_SHARED_DIR) / "conformance", fs::path(TANDEM_SOURCE_DIR) / "models",
        fs::path(TANDEM_SOURCE_DIR) / "examples"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".tdm") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 19);
  for (const auto& f : files) {
    CAPTURE(f.string());
    std::string out, err;
    int rc = runCli({"ir", f.string()}, &out, &err);
    CHECK_MESSAGE(rc == 0, err);
    CHECK(err.empty());
    // The header counts what the front end lowered, and every automaton is printed.
    auto prog = lowerFile(f.string());
    std::ostringstream header;
    header << "// " << f.string() << ": " << (prog->isClosed() ? "closed" : "open") << " system, "
           << prog->cfas.size() << " automata, " << prog->locs.size() << " locations, "
           << prog->edges.size() << " edges\n";
    CHECK(out.rfind(header.str(), 0) == 0);
    for (const auto& c : prog->cfas) {
      CAPTURE(c.name);
      CHECK((out.find(c.name + "(") != std::string::npos ||
             out.find(c.name + "[" + std::to_string(c.instances) + "](") != std::string::npos));
    }
  }
}

}  // namespace tandem

namespace tandem {
namespace {

// Runs `f` on a thread whose stack is `bytes` (a recursion per statement overflows it).
template <class F>
void onSmallStack(size_t bytes, F f) {
  pthread_attr_t attr;
  pthread_t thread;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, bytes) == 0);
  auto trampoline = [](void* p) -> void* {
    (*static_cast<F*>(p))();
    return nullptr;
  };
  REQUIRE(pthread_create(&thread, &attr, trampoline, &f) == 0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
}

TEST_CASE("lower: a straight-line procedure of 50,000 statements on a 1 MiB stack") {
  // The loop-head search was a recursive DFS, a frame per location: 200,000 statements overflowed
  // the 8 MiB main stack (SIGSEGV), 50,000 overflow 1 MiB.
  std::string text = "proc main(x: int) {\n  var s: int = 0;\n";
  for (int i = 0; i < 50000; ++i) text += "  s := s + " + std::to_string(i % 7) + ";\n";
  text += "  while (s > 0) { s := s - 1; }\n  assert s != 5;\n}\n";
  std::unique_ptr<ir::Program> p;
  std::string err;
  onSmallStack(size_t{1} << 20, [&] {
    SourceFile file("t.tdm", text);
    std::ostringstream e;
    p = loadProgram(file, {}, e);
    err = e.str();
  });
  REQUIRE_MESSAGE(p, err);
  const ir::Cfa& c = cfa(*p, "main");
  CHECK(c.locs.size() > 50000);
  // The loop's head is still found.
  CHECK(std::count_if(c.locs.begin(), c.locs.end(),
                      [&](ir::LocId l) { return p->locs[l].loopHead; }) == 1);
}

}  // namespace
}  // namespace tandem
