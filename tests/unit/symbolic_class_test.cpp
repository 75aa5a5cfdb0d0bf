// `check --class C`: init on symbolic arguments, then sequences of method calls with symbolic
// arguments (at most --max-calls of them), errors with a replayed call sequence, the bounded and
// unbounded verdicts, and bad usage; over every back end.
#include "symbolic_test_support.h"

#include "mc/cli/cli.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/replay.h"
#include "tests/unit/cli_args.h"

using namespace symbolic_test;

namespace {

std::vector<std::string> callTexts(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& c : report["calls"]) out.push_back(c["call"].get<std::string>());
  return out;
}

const char* const kCounter = R"(
class Counter {
  var c: int = 0;
  var data: int[];
  init(n: int) { assume n >= 0 && n < 3; data := new int[n]; }
  method inc() { c := c + 1; assert c < 4; }
  method dec(k: int) { if (k > 0 && c > 0) { c := c - 1; } }
  method put(i: int, v: int) { data[i] := v; }
  method sum(): int {
    var s: int = 0;
    var i: int = 0;
    while (i < len(data)) { s := s + data[i]; i := i + 1; }
    assert s != 17;
    return s;
  }
}
)";

}  // namespace

TEST_CASE("symbolic class: BoundedStack's index error at L1 with its call sequence") {
  auto p = loadShared("bounded_stack.tdm");
  for (const char* s : kSolvers) {
    CAPTURE(s);
    test::Args o = classOptions("BoundedStack", s);
    o.set("--check", "index-out-of-bounds");
    o.set("--max-calls", "3");
    Run r = runCommand(*p, o);
    CHECK(r.exit == 1);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["kind"] == "index-out-of-bounds");
    CHECK(r.report["error"]["label"] == "L1");
    // The smallest counterexample: capacity 0, pop, then push.
    CHECK(callTexts(r.report) == std::vector<std::string>{"BoundedStack(0)", "pop()", "push(0)"});
    CHECK(r.report["calls"][0]["args"]["capacity"] == 0);
    CHECK(r.report["inputs"]["capacity"] == 0);
    const auto& trace = r.report["error"]["trace"];
    REQUIRE(!trace.empty());
    CHECK(trace[0]["process"] == "BoundedStack(0)");
    CHECK(trace.back()["process"] == "push(0)");
    CHECK(trace.back()["label"] == "L1");
    CHECK(r.err.find("INTERNAL ERROR") == std::string::npos);
  }
}

TEST_CASE("symbolic class: the fixed BoundedStack is error-free up to the bound, not verified") {
  auto p = loadShared("bounded_stack_fixed.tdm");
  for (const char* s : kSolvers) {
    CAPTURE(s);
    test::Args o = classOptions("BoundedStack", s);
    o.set("--check", "index-out-of-bounds");  // negative-size of new int[capacity] is not tracked
    o.set("--max-calls", "3");
    Run r = runCommand(*p, o);
    CHECK(r.exit == 4);
    CHECK(r.report["verdict"] == "unknown");
    const std::string reason = r.report["reason"];
    CHECK(reason.find("bounded") != std::string::npos);
    CHECK(reason.find("--max-calls 3") != std::string::npos);
    CHECK(r.report["stats"]["calls"] == 3);
    CHECK(r.report["stats"]["call_bound_cuts"] > 0);
    CHECK(!r.report.contains("error"));

    o.unset("--check");  // all kinds: capacity < 0 fails `new`
    r = runCommand(*p, o);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["kind"] == "negative-size");
    CHECK(callTexts(r.report) == std::vector<std::string>{"BoundedStack(-1)"});
  }
}

TEST_CASE("symbolic class: --max-calls is honoured") {
  auto p = loadText(kCounter);
  for (const char* s : kSolvers) {
    CAPTURE(s);
    test::Args o = classOptions("Counter", s);
    o.set("--check", "assert");
    // sum() fails after put(0, 17): two calls.
    o.set("--max-calls", "1");
    Run r = runCommand(*p, o);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["stats"]["calls"] == 1);
    o.set("--max-calls", "2");
    r = runCommand(*p, o);
    CHECK(r.report["verdict"] == "error");
    CHECK(callTexts(r.report) == std::vector<std::string>{"Counter(1)", "put(0, 17)", "sum()"});
    CHECK(r.report["stats"]["calls"] == 2);
  }
  // The explorer itself never starts a call beyond the bound.
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  for (uint64_t bound : {0, 1, 2, 3}) {
    CAPTURE(bound);
    auto solver = smt::makeSolver(smt::SolverOptions{}, smt::programNaming(*p));
    symbolic::ExploreOptions eo;
    eo.entry = p->classes[0].init;
    eo.maxCalls = bound;
    eo.stopAtError = false;
    eo.tracked.fill(false);
    auto res = symbolic::exploreSymbolic(*p, ev, *solver, eo);
    CHECK(res.maxCalls == bound);
    CHECK(res.completedCalls == bound);
    CHECK(res.callCuts > 0);
    CHECK(res.outcome == symbolic::Outcome::Incomplete);
    for (const auto& end : res.ends) CHECK(end.calls.size() <= bound);
  }
}

TEST_CASE("symbolic class: without --max-calls the verdict is never verified") {
  auto p = loadText(kCounter);
  for (const char* s : kSolvers) {
    CAPTURE(s);
    test::Args o = classOptions("Counter", s);
    o.set("--check", "div-by-zero");  // Counter divides nowhere, but the search is endless
    o.set("--max-states", "300");
    Run r = runCommand(*p, o);
    CHECK(r.exit == 4);
    CHECK(r.report["verdict"] == "unknown");
    const std::string reason = r.report["reason"];
    CHECK(reason.find("unbounded") != std::string::npos);
    CHECK(r.report["max_calls"].is_null());
    // Unbounded, the search goes on to the four calls inc() needs.
    o.set("--check", "assert");
    o.unset("--max-states");
    Run e = runCommand(*p, o);
    CHECK(e.report["verdict"] == "error");
  }
  // A class without methods: init is everything, so the search ends by itself.
  auto q = loadText("class K { var v: int; init(a: int) { v := 10 / a; } }\n");
  test::Args o = classOptions("K", "z3");
  o.set("--check", "assert");
  CHECK(runCommand(*q, o).report["verdict"] == "verified");
  o.unset("--check");
  Run r = runCommand(*q, o);
  CHECK(r.report["error"]["kind"] == "div-by-zero");
  CHECK(r.report["calls"][0]["args"]["a"] == 0);
}

TEST_CASE("symbolic class: every path of a class analysis replays, method entry errors included") {
  auto p = loadText(R"(
var total: int = 0;
class Account {
  var balance: int = 0;
  var log: int[];
  var n: int = 0;
  init(cap: int) { assume cap >= 0; log := new int[cap]; }
  method deposit(x: int) {
    if (x <= 0) { return; }
    balance := balance + x;
    total := total + x;
    call record(x);
    assert balance == old(balance) + x;
  }
  method record(x: int) {
    if (n < len(log)) { log[n] := x; n := n + 1; }
  }
  method withdraw(x: int): bool {
    var q: int = 100 / x;
    if (x > balance) { return false; }
    balance := balance - x;
    return true;
  }
}
)");
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    smt::SolverOptions so;
    so.backend = b;
    auto solver = smt::makeSolver(so, smt::programNaming(*p));
    symbolic::ExploreOptions eo;
    eo.entry = p->classes[0].init;
    eo.maxCalls = 2;
    eo.stopAtError = false;
    auto r = symbolic::exploreSymbolic(*p, ev, *solver, eo);
    REQUIRE(!r.ends.empty());
    bool entryError = false;
    for (const auto& end : r.ends) {
      symbolic::Replay rp = symbolic::replayPath(ev, eo.entry, end);
      CHECK_MESSAGE(rp.followed, rp.problem);
      if (end.errorAtEntry) {
        entryError = true;
        CHECK(end.error->kind == ir::ErrorKind::DivByZero);
        REQUIRE(rp.error);
        CHECK(rp.errorLoc == p->cfas[end.calls.back().method].entry);
      }
    }
    CHECK(entryError);  // withdraw(0) fails on entry
  }
}

TEST_CASE("symbolic class: objects, fields through references, methods calling methods") {
  auto p = loadText(R"(
class Node {
  var next: Node;
  var val: int;
  init() { next := null; }
  method link(v: int) {
    var o: Node = null;
    o := new Node();
    o.val := v;
    next := o;
  }
  method get(): int { return next.val; }
  method twice(v: int) { call link(v); call link(v + 1); assert next.val == v + 1; }
}
)");
  for (const char* s : kSolvers) {
    CAPTURE(s);
    test::Args o = classOptions("Node", s);
    o.set("--max-calls", "2");
    Run r = runCommand(*p, o);
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["kind"] == "null-deref");
    CHECK(callTexts(r.report) == std::vector<std::string>{"Node()", "get()"});
    o.set("--check", "assert");
    r = runCommand(*p, o);
    CHECK(r.report["verdict"] == "unknown");  // bounded
  }
}

TEST_CASE("symbolic class: bad usage exits 2 with a message") {
  const std::string file = std::string(TANDEM_SHARED_DIR) + "/conformance/bounded_stack.tdm";
  auto run = [](std::vector<std::string> args) {
    args.insert(args.begin(), "tandem");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream out, err;
    int rc = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    return std::make_pair(rc, err.str());
  };
  auto [rc, err] = run({"check", file, "--class", "NoSuchClass"});
  CHECK(rc == 2);
  CHECK(err.find("no class 'NoSuchClass'") != std::string::npos);
  std::tie(rc, err) = run({"check", file, "--class", "BoundedStack", "--entry", "push"});
  CHECK(rc == 2);
  CHECK(err.find("--entry and --class") != std::string::npos);
  std::tie(rc, err) = run({"check", file, "--class", "BoundedStack", "--max-calls", "x"});
  CHECK(rc == 2);
  std::tie(rc, err) = run({"testgen", file, "--class", "BoundedStack", "--solving", "classic"});
  CHECK(rc == 2);
  CHECK(err.find("--class does not apply to 'testgen'") != std::string::npos);
  // A method argument of a class type has no symbolic value yet: said, not ignored.
  auto p = loadText("class A { var x: int; init() {} method m(o: A) { x := 1; } }\n");
  Run r = runCommand(*p, classOptions("A", "z3"));
  CHECK(r.exit == 2);
  CHECK(r.err.find("not implemented yet") != std::string::npos);
}
