// Channels (LANGUAGE.md, Channels): the front end's errors, the print-reparse round trip, the
// lowering (buffered channels as commands over a length and slots, rendezvous as Sync edges) and
// the rendezvous step of the reference evaluator.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "mc/exec/evaluator.h"
#include "mc/exec/system.h"
#include "mc/ir/frontend.h"
#include "mc/lang/parser.h"
#include "mc/lang/printer.h"

namespace tandem {
namespace {

struct Loaded {
  explicit Loaded(const std::string& text) : file("t.tdm", text) {
    prog = loadProgram(file, {}, err);
  }
  SourceFile file;
  std::ostringstream err;
  std::unique_ptr<ir::Program> prog;
};

// The first diagnostic of `text` (empty if it loads).
std::string firstError(const std::string& text) {
  Loaded l(text);
  std::string e = l.err.str();
  return e.substr(0, e.find('\n'));
}

const char* kHeader = "chan c = [1] of { int, bool };\nchan r = [0] of { int };\n";

TEST_CASE("channels: type errors are reported at the statement or declaration") {
  struct Case {
    std::string body, error;
  };
  const Case cases[] = {
      {"process P { c ! 1; }", "t.tdm:3:13: error: channel 'c' carries 2 fields, send has 1"},
      {"process P { c ! 1, 2; }", "field 2 of channel 'c'"},
      {"process P { var b: bool = false; r ? b; }",
       "cannot receive field 1 of channel 'r' ('int') into 'bool'"},
      {"proc f() { r ! 1; }", "'send' outside a process"},
      {"process P { var x: int = 0; x ! 1; }", "'x' is not a channel"},
      {"process P { var x: int = 0; x := r; }", "channel 'r' can only be used in a send"},
      {"process P { atomic { r ! 1; } }", "a rendezvous send inside 'atomic' is not supported"},
      {"process P { r[0] ! 1; }", "channel 'r' is not an array of channels"},
      {"var n: int = 1;\nchan d = [n] of { int };\nprocess P { skip; }",
       "the capacity of channel 'd' must be a constant"},
      {"chan d = [1] of { int[2] };\nprocess P { skip; }",
       "a message field must be an integer, bool or enum type"},
      {"chan d[2] = [1] of { int };\nprocess P { d ! 1; }",
       "'d' is an array of channels: name one as 'd[i]'"},
      {"var c: int = 0;\nprocess P { skip; }", "redeclaration of 'c'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    std::string e = firstError(std::string(kHeader) + c.body + "\n");
    CHECK_MESSAGE(e.find(c.error) != std::string::npos, e);
  }
}

TEST_CASE("channels: declarations and operations survive print-reparse") {
  std::string src = std::string(kHeader) +
                    "chan link[3] = [2] of { bool };\n"
                    "process P[3] {\n  var x: int = 0;\n  var b: bool = false;\n"
                    "  c ! x + 1, true;\n  c ? x, b;\n  r ? 5;\n  link[pid] ! len(c) == 0;\n"
                    "  link[(pid + 1) % 3] ? b;\n  await empty(c) || full(link[pid]);\n}\n";
  SourceFile f("t.tdm", src);
  Diagnostics d(&f);
  auto p = parseProgram(f, d);
  REQUIRE(!d.hasErrors());
  std::string once = printProgram(*p);
  SourceFile g("u.tdm", once);
  Diagnostics d2(&g);
  auto q = parseProgram(g, d2);
  REQUIRE(!d2.hasErrors());
  CHECK(printProgram(*q) == once);
  CHECK(once.find("chan link[3] = [2] of { bool };") != std::string::npos);
  CHECK(once.find("link[(pid + 1) % 3] ? b;") != std::string::npos);
  CHECK(firstError(src).empty());
}

// The conformance files of channels (shared and the project's own) parse and print stably.
TEST_CASE("channels: every channel model survives print-reparse") {
  namespace fs = std::filesystem;
  int n = 0;
  for (const std::string& dir : {std::string(TANDEM_SHARED_DIR) + "/conformance-next",
                                 std::string(TANDEM_SOURCE_DIR) + "/tests/conformance/cases"})
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().extension() != ".tdm") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      if (ss.str().find("chan ") == std::string::npos) continue;
      CAPTURE(e.path().string());
      SourceFile f(e.path().string(), ss.str());
      Diagnostics d(&f);
      auto p = parseProgram(f, d);
      if (d.hasErrors()) continue;  // a file about syntax errors
      std::string once = printProgram(*p);
      SourceFile g("u.tdm", once);
      Diagnostics d2(&g);
      auto q = parseProgram(g, d2);
      REQUIRE(!d2.hasErrors());
      CHECK(printProgram(*q) == once);
      ++n;
    }
  CHECK(n >= 6);
}

TEST_CASE("channels: a buffered channel is a length and slots; a rendezvous is Sync edges") {
  Loaded l(std::string(kHeader) +
           "process P { var x: int = 0; var b: bool = false; c ! 1, true; c ? x, b; r ! 2; }\n"
           "process Q { var y: int = 0; r ? y; }\n");
  REQUIRE_MESSAGE(l.prog, l.err.str());
  const ir::Program& p = *l.prog;
  REQUIRE(p.channels.size() == 2);
  const ir::Channel& c = p.channels[0];
  CHECK(c.capacity == 1);
  REQUIRE(c.length != ir::kNone);
  CHECK(p.vars[c.length].name == "c.len");
  REQUIRE(c.slots.size() == 2);
  CHECK(p.vars[c.slots[0]].name == "c.msgs1");
  CHECK(p.channels[1].length == ir::kNone);  // a rendezvous channel has no state
  int commands = 0, syncs = 0;
  for (const ir::Edge& e : p.edges) {
    if (e.kind == ir::EdgeKind::Sync) {
      ++syncs;
      CHECK(e.channel == 1);
    }
    if (e.kind == ir::EdgeKind::Command && e.guard) ++commands;
  }
  CHECK(syncs == 2);
  CHECK(commands == 2);  // the buffered send (not full) and receive (not empty)
  CHECK(p.hasRendezvous());
}

TEST_CASE("channels: executeSync passes the values, checks matches and channel indices") {
  Loaded l(
      "chan r[2] = [0] of { int, int };\n"
      "process S { r[1] ! 7, 8; }\n"
      "process R { var x: int = 0; r[1] ? 7, x; }\n"
      "process M { var x: int = 0; r[1] ? 6, x; }\n"
      "process W { var x: int = 0; r[0] ? 7, x; }\n");
  REQUIRE_MESSAGE(l.prog, l.err.str());
  exec::NativeRegistry natives;
  exec::Evaluator ev(*l.prog, natives);
  exec::ScriptedChooser none;
  auto init = ev.makeInitialState(none);
  REQUIRE(init.ok());
  const exec::State& s0 = init.value();
  std::vector<std::pair<exec::ThreadId, exec::ThreadId>> pairs;
  exec::System(ev).forEachRendezvous(s0, [&](const exec::Move& m) {
    const auto [t, se, u, re] = m;
    pairs.emplace_back(t, u);
    exec::State n = s0;
    auto r = ev.executeSync(n, t, se, u, re, none);
    if (u == 1) {  // R: the match holds, the value arrives, both move
      REQUIRE(r.ok());
      CHECK(n.threads[1].processLocals[0] == exec::Value::integer(BigInt(8)));
      CHECK(n.threads[0].top().pc == l.prog->edges[se].to);
      CHECK(n.threads[1].top().pc == l.prog->edges[re].to);
    } else {  // M: another constant; W: another channel of the array
      CHECK(r.status() == exec::StepStatus::Blocked);
    }
    exec::State alone = s0;
    CHECK(ev.execute(alone, t, se, none).status() == exec::StepStatus::Blocked);
  });
  CHECK(pairs.size() == 3);
  CHECK(ev.enabledEdges(s0, 0).empty());  // a Sync edge is never a step alone
}

}  // namespace
}  // namespace tandem
