// The compiled transition system against the generic one (the reference): on every eligible
// conformance model and every small BEEM instance both explore the same states and transitions
// in the same order and reach the same verdict; int64 overflow falls back to the reference
// evaluator; errors carry the reference's kind, location and message, and their traces replay.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "mc/dve/import.h"
#include "mc/exec/evaluator.h"
#include "mc/ir/frontend.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/trace.h"
#include "tests/unit/dve_load.h"

namespace tandem::search {
namespace {

namespace fs = std::filesystem;

// Instances whose generic exploration is cheap enough for a Debug build.
constexpr long kGenericLimit = 8000;

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::unique_ptr<ir::Program> loadTdm(const std::string& name, const std::string& text) {
  SourceFile file(name, text);
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  INFO(err.str());
  return p;
}

using test::loadDve;

struct Compared {
  ExploreResult res;
  Trace trace;
};

// Explores `p` with both engines and checks that they agree step for step.
Compared compare(const ir::Program& p, ExploreOptions o = {}, GenericOptions go = {}) {
  std::string why;
  INFO(why);
  REQUIRE(CompiledSystem::eligible(p, &why));
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  GenericSystem generic(p, ev, go);
  CompiledSystem compiled(p, ev, go);
  Explorer eg(generic, o), ec(compiled, o);
  ExploreResult rg = eg.run(), rc = ec.run();
  CHECK(rc.outcome == rg.outcome);
  CHECK(rc.reason == rg.reason);
  CHECK(rc.states == rg.states);
  CHECK(rc.transitions == rg.transitions);
  CHECK(rc.maxDepth == rg.maxDepth);
  CHECK(rc.errorSource == rg.errorSource);
  CHECK(rc.error.has_value() == rg.error.has_value());
  Compared out{rc, {}};
  if (rc.error && rg.error) {
    CHECK(rc.error->kind == rg.error->kind);
    CHECK(rc.error->message == rg.error->message);
    CHECK(rc.error->loc.line == rg.error->loc.line);
    CHECK(rc.error->move.thread == rg.error->move.thread);
    CHECK(rc.error->move.edges == rg.error->move.edges);
  }
  if (rc.outcome == Outcome::ErrorFound || rc.outcome == Outcome::Deadlock) {
    out.trace = buildTrace(compiled, ec.store(), rc, generic, ev);
    INFO(out.trace.problem);
    CHECK(out.trace.replayed);
    Trace ref = buildTrace(generic, eg.store(), rg, generic, ev);
    CHECK(out.trace.steps.size() == ref.steps.size());
  }
  return out;
}

// instance -> states, from the expected-counts tables.
std::map<std::string, long> expectedStates() {
  std::map<std::string, long> out;
  fs::path dir = fs::path(TANDEM_SHARED_DIR) / "external" / "beem" / "expected";
  for (const char* csv : {"mutex_expected.csv", "state_counts_helena.csv"}) {
    std::ifstream in(dir / csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
      size_t col = std::string(csv) == "mutex_expected.csv" ? 4 : 1;
      if (f.size() <= col) continue;
      try {
        out.emplace(f[0], std::stol(f[col]));
      } catch (...) {
      }
    }
  }
  return out;
}

// "!((A@CS && B@CS) || ...)" over the processes with a CS state; empty if fewer than two.
std::string mutexInvariant(const ir::Program& p) {
  std::vector<std::string> cs;
  for (auto c : p.processes)
    for (auto l : p.cfas[c].locs)
      for (auto& name : p.locs[l].labels)
        if (name == "CS") cs.push_back(p.cfas[c].name);
  std::string pairs;
  for (size_t i = 0; i < cs.size(); ++i)
    for (size_t j = i + 1; j < cs.size(); ++j)
      pairs += (pairs.empty() ? "(" : " || (") + cs[i] + "@CS && " + cs[j] + "@CS)";
  return pairs.empty() ? "" : "!(" + pairs + ")";
}

}  // namespace

TEST_CASE("compiled: the conformance models explore as with the generic engine") {
  int ran = 0, channels = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(TANDEM_SHARED_DIR) / "conformance"))
    files.push_back(entry.path());
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(TANDEM_SOURCE_DIR) / "tests/conformance/cases"))
    files.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(fs::path(TANDEM_SHARED_DIR) / "conformance-next"))
    files.push_back(entry.path());
  for (const auto& path : files) {
    if (path.extension() != ".tdm") continue;
    CAPTURE(path.string());
    auto p = loadTdm(path.string(), readFile(path));
    if (!p || !p->isClosed() || !CompiledSystem::eligible(*p)) continue;
    for (const char* search : {"dfs", "bfs"}) {
      CAPTURE(search);
      ExploreOptions o;
      o.search = *parseStrategy(search);
      o.limits.maxStates = 3000;  // some are infinite (unbounded tickets)
      compare(*p, o);
    }
    ++ran;
    channels += !p->channels.empty();
  }
  CHECK(ran >= 3);
  CHECK(channels >= 8);  // buffered and rendezvous channels (tests/conformance/cases/channels)
}

TEST_CASE("compiled: small BEEM instances explore as with the generic engine") {
  auto expected = expectedStates();
  fs::path dir = fs::path(TANDEM_SHARED_DIR) / "external" / "beem" / "dve";
  std::vector<fs::path> models;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".dve") models.push_back(entry.path());
  std::sort(models.begin(), models.end());
  int ran = 0;
  for (const auto& path : models) {
    std::string instance = path.stem().string();
    auto it = expected.find(instance);
    if (it == expected.end() || it->second > kGenericLimit) continue;
    CAPTURE(instance);
    std::string text = readFile(path);
    auto p = loadDve(path.string(), text);
    if (!p) continue;  // an unsupported DVE construct (channels)
    if (!CompiledSystem::eligible(*p)) continue;
    auto res = compare(*p).res;
    CHECK(res.states == static_cast<uint64_t>(it->second));
    if (std::string inv = mutexInvariant(*p); !inv.empty()) {
      CAPTURE(inv);
      compare(*loadDve(path.string(), text, {inv}));
    }
    ++ran;
  }
  CHECK(ran >= 5);
}

TEST_CASE("compiled: int64 overflow falls back to the reference evaluator") {
  // x doubles; 2^63 leaves int64 in the step that violates the invariant.
  auto p = loadTdm("ovf.tdm",
                   "var x: int = 1;\n"
                   "process P {\n  L: x := x * 2;\n     goto L;\n}\n"
                   "invariant small: x <= 4611686018427387904;\n");
  REQUIRE(p);
  auto out = compare(*p);
  CHECK(out.res.outcome == Outcome::ErrorFound);
  CHECK(out.res.states == 63);
  REQUIRE(out.res.error);
  CHECK(out.res.error->kind == ir::ErrorKind::Invariant);
  CHECK(out.res.error->message == "invariant 'small' violated");

  // A guard whose intermediate value leaves int64 while the result does not.
  auto g = loadTdm("guard.tdm",
                   "var x: int = 4611686018427387900;\n"
                   "process P {\n  L: await x * 4 / 4 == x;\n     x := x + 1;\n     goto L;\n}\n"
                   "invariant lim: x < 4611686018427387910;\n");
  REQUIRE(g);
  CHECK(compare(*g).res.states == 20);

  // Without an invariant the successor 2^63 cannot be stored: the search is incomplete.
  auto q = loadTdm("big.tdm", "var x: int = 1;\nprocess P {\n  L: x := x * 2;\n  goto L;\n}\n");
  REQUIRE(q);
  exec::NativeRegistry natives;
  exec::Evaluator ev(*q, natives);
  CompiledSystem sys(*q, ev, {});
  Explorer ex(sys, {});
  auto r = ex.run();
  CHECK(r.outcome == Outcome::Incomplete);
  CHECK(r.states == 63);
  CHECK(r.reason.find("does not fit in 64 bits") != std::string::npos);
}

TEST_CASE("compiled: errors carry the reference's kind, line and message, and replay") {
  auto oob = loadTdm("oob.tdm",
                     "var a: int[3] = [0, 0, 0];\nvar i: int = 0;\n"
                     "process P {\n  L: a[i] := i + 1;\n     i := i + 1;\n     goto L;\n}\n");
  REQUIRE(oob);
  auto out = compare(*oob);
  REQUIRE(out.res.error);
  CHECK(out.res.error->kind == ir::ErrorKind::IndexOutOfBounds);
  CHECK(out.res.error->message == "index 3 out of bounds for length 3");
  CHECK(out.res.error->loc.line == 4);
  CHECK(out.trace.steps.size() == 7);

  auto div = loadTdm("div.tdm",
                     "var x: int = 3;\nvar y: int = 0;\n"
                     "process P {\n  L: y := 7 / (x - 1) + (-7) % x;\n     x := x - 1;\n"
                     "     goto L;\n}\n");
  REQUIRE(div);
  out = compare(*div);
  REQUIRE(out.res.error);
  CHECK(out.res.error->kind == ir::ErrorKind::DivByZero);
  CHECK(out.res.error->message == "division by zero (7 / 0)");

  // Untracked errors end that execution silently, in both engines.
  GenericOptions go;
  go.tracked[static_cast<size_t>(ir::ErrorKind::IndexOutOfBounds)] = false;
  CHECK(compare(*oob, {}, go).res.outcome == Outcome::Exhausted);

  auto inst = loadTdm("inst.tdm",
                      "var k: int = 0;\nprocess P[2] {\n  L: await P[k]@L;\n     k := k + 1;\n"
                      "     goto L;\n}\n");
  REQUIRE(inst);
  out = compare(*inst);
  REQUIRE(out.res.error);
  CHECK(out.res.error->message == "process instance 2 of P out of bounds for 2 instances");
}

TEST_CASE("compiled: atomic blocks keep the turn and store no intermediate state") {
  auto p = loadTdm("atomic.tdm",
                   "var x: int = 0;\nvar y: int = 0;\n"
                   "process P[2] {\n  L: atomic { x := x + 1; y := y + 1; x := x + 1; }\n"
                   "     await x < 6;\n     goto L;\n}\n"
                   "invariant even: x % 2 == 0;\n");
  REQUIRE(p);
  for (const char* search : {"dfs", "bfs"}) {
    ExploreOptions o;
    o.search = *parseStrategy(search);
    auto out = compare(*p, o);
    CHECK(out.res.outcome == Outcome::Exhausted);
    CHECK(out.res.states == 12);
  }
  // An atomic loop that never leaves: the step bound makes the search incomplete.
  auto loop = loadTdm(
      "spin.tdm",
      "var x: int = 0;\nprocess P {\n  atomic { x := 5; while (true) { x := 1 - x; } }\n}\n");
  REQUIRE(loop);
  GenericOptions go;
  go.atomicDepth = 50;
  CHECK(compare(*loop, {}, go).res.outcome == Outcome::Incomplete);
}

TEST_CASE("compiled: DVE effects run left to right") {
  const std::string text =
      "byte x = 0; byte y = 0; byte a[2];\n"
      "process P { state s, t; init s;\n"
      "  trans s -> t { effect x = 1, y = x + 1, a[x] = y; }; }\nsystem async;\n";
  auto p = loadDve("seq.dve", text);
  REQUIRE(p);
  REQUIRE(CompiledSystem::eligible(*p));
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  CompiledSystem sys(*p, ev, {});
  struct Collect final : SuccessorSink {
    std::vector<std::string> states;
    void successor(std::string_view s, const Move&) override { states.emplace_back(s); }
    void error(const FoundError&) override { FAIL("no error expected"); }
    void incomplete(const std::string&) override { FAIL("complete"); }
  } init, next;
  sys.initialStates(init);
  REQUIRE(init.states.size() == 1);
  sys.successors(init.states[0], next);
  REQUIRE(next.states.size() == 1);
  exec::State s = sys.decode(next.states[0]);
  CHECK(s.globals[0] == exec::Value::integer(BigInt(1)));
  CHECK(s.globals[1] == exec::Value::integer(BigInt(2)));
  CHECK(s.globals[2].at(1) == exec::Value::integer(BigInt(2)));
  // The reference agrees, and replays the error only the sequential reading reaches.
  auto q = loadDve("seq.dve", text, {"y != 2"});
  REQUIRE(q);
  CHECK(compare(*q).res.outcome == Outcome::ErrorFound);
}

TEST_CASE("compiled: shifts by a variable amount (the DVE table of 2^k) run as bytecode") {
  // synapse's `1 << m`: the import indexes a table of 2^0 .. 2^30; an amount outside it is the
  // model's index error, with the reference's message.
  const std::string text =
      "byte m = 0; int x = 0;\n"
      "process P { state s; init s;\n"
      "  trans s -> s { guard m < 32; effect x = x | (1 << m), m = m + 1; }; }\nsystem async;\n";
  auto p = loadDve("shift.dve", text);
  REQUIRE(p);
  std::string why;
  CHECK(CompiledSystem::eligible(*p, &why));
  INFO(why);
  Compared c = compare(*p);
  CHECK(c.res.outcome == Outcome::ErrorFound);
  REQUIRE(c.res.error);
  CHECK(c.res.error->kind == ir::ErrorKind::IndexOutOfBounds);
}

TEST_CASE("compiled: slots, exec states and bytes convert both ways") {
  auto p = loadTdm("conv.tdm",
                   "enum C { R, G, B }\nvar a: int[2][3] = [[0, 1], [2, 3], [4, 5]];\n"
                   "var b: bool = true;\nvar c: C = B;\nvar n: int = -5;\n"
                   "process P[2] { var m: int = 0; L: m := m + 1; goto L; }\n");
  REQUIRE(p);
  REQUIRE(CompiledSystem::eligible(*p));
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  CompiledSystem sys(*p, ev, {});
  const SlotLayout& l = sys.layout();
  REQUIRE(l.slots() == 6 + 3 + 2 * 2);
  const int64_t values[] = {0, 14, 15, -1, INT64_MIN, INT64_MAX, 1, 2, 7, 0, 1234567, 0, -99};
  std::vector<int64_t> slots(values, values + 13), back(13);
  std::string why;
  exec::State s = l.toExec(slots.data());
  REQUIRE(l.fromExec(s, back.data(), why));
  CHECK(back == slots);
  std::vector<uint8_t> bytes(l.maxEncodedBytes());
  size_t n = l.encode(slots.data(), bytes.data());
  std::fill(back.begin(), back.end(), 42);
  l.decode(std::string_view(reinterpret_cast<const char*>(bytes.data()), n), back.data());
  CHECK(back == slots);
  // Small values take a nibble each.
  std::vector<int64_t> small(13, 3);
  small[9] = small[11] = 0;  // the pcs
  CHECK(l.encode(small.data(), bytes.data()) == 7);
  // A value beyond int64 does not fit.
  s.globals[3] = exec::Value::integer(BigInt(INT64_MAX) + BigInt(1));
  CHECK(!l.fromExec(s, back.data(), why));
  CHECK(why.find("64 bits") != std::string::npos);
}

TEST_CASE("compiled: what is not eligible runs on the generic engine") {
  auto havoc = loadTdm("havoc.tdm", "var x: int = 0;\nprocess P { L: x := *; goto L; }\n");
  REQUIRE(havoc);
  std::string why;
  CHECK(!CompiledSystem::eligible(*havoc, &why));
  CHECK(why == "a nondeterministic assignment");
  auto call = loadTdm("call.tdm",
                      "var x: int = 0;\nproc f() { x := x + 1; }\n"
                      "process P { L: call f(); goto L; }\n");
  REQUIRE(call);
  CHECK(!CompiledSystem::eligible(*call, &why));
  auto open = loadTdm("open.tdm", "proc f(a: int) { assert a > 0; }\n");
  REQUIRE(open);
  CHECK(!CompiledSystem::eligible(*open, &why));
}

}  // namespace tandem::search
