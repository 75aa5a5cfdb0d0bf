// The DVE importer: every BEEM model of shared/external/beem/dve, the IR shape it produces, and
// its errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mc/dve/import.h"
#include "mc/dve/lexer.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/system.h"
#include "mc/ir/ir_printer.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;

struct Imported {
  std::unique_ptr<ir::Program> prog;
  std::vector<std::string> errors;  // "LINE:COL: message"
};

Imported import(const std::string& text, const std::string& path = "t.dve") {
  SourceFile file(path, text);
  Diagnostics d(&file);
  Imported r{importDve(file, d), {}};
  for (const auto& e : d.errors())
    r.errors.push_back(std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " +
                       e.message);
  CHECK((r.prog == nullptr) == d.hasErrors());
  return r;
}

std::unique_ptr<ir::Program> importOk(const std::string& text) {
  auto r = import(text);
  CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
  REQUIRE(r.prog);
  return std::move(r.prog);
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path beemDir() { return fs::path(TANDEM_SHARED_DIR) / "external" / "beem" / "dve"; }

const ir::Cfa& process(const ir::Program& p, size_t i) { return p.cfas[p.processes.at(i)]; }

std::vector<std::string> labelsOf(const ir::Program& p, const ir::Cfa& c) {
  std::vector<std::string> out;
  for (ir::LocId l : c.locs) {
    REQUIRE(p.locs[l].labels.size() == 1);
    out.push_back(p.locs[l].labels[0]);
  }
  return out;
}

TEST_CASE("dve import: every BEEM model imports, or fails on its unsupported constructs") {
  const std::set<dve::Tok> unsupported = {dve::Tok::KwCommit, dve::Tok::KwAccept,
                                          dve::Tok::KwAssert, dve::Tok::KwProperty};
  size_t files = 0, imported = 0;
  for (const auto& entry : fs::directory_iterator(beemDir())) {
    if (entry.path().extension() != ".dve") continue;
    ++files;
    CAPTURE(entry.path().filename().string());
    std::string text = readFile(entry.path());
    SourceFile file(entry.path().string(), text);
    Diagnostics lexDiags(&file);
    bool expectFailure = false;
    for (const auto& t : dve::lex(file, lexDiags)) expectFailure |= unsupported.count(t.kind) > 0;
    auto r = import(text, entry.path().string());
    if (!expectFailure) {
      CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
      CHECK(r.prog);
      imported += r.prog != nullptr;
      continue;
    }
    CHECK_FALSE(r.prog);
    REQUIRE_FALSE(r.errors.empty());
    for (const auto& e : r.errors) CHECK(e.find("is not supported") != std::string::npos);
  }
  CHECK(files >= 30);
  CHECK(imported >= 205);  // every file but the LTL property model
}

TEST_CASE("dve import: untyped channels are rendezvous: each sync is a Sync edge") {
  auto r = import(
      "channel c, d;\n"
      "process P { byte x; state a, b; init a; trans a -> b { sync c!300; effect x = 1; },"
      " b -> a { sync d?; }; }\n"
      "process Q { byte y; state a, b; init a; trans a -> b { sync c?y; }, b -> a { sync d!; }; }\n"
      "system async;\n");
  REQUIRE_MESSAGE(r.prog, (r.errors.empty() ? "" : r.errors.front()));
  const ir::Program& p = *r.prog;
  REQUIRE(p.channels.size() == 2);
  CHECK(p.channels[0].fields.size() == 1);  // c carries one value, d none (as used)
  CHECK(p.channels[1].fields.empty());
  int sends = 0, receives = 0;
  for (const ir::Edge& e : p.edges) {
    REQUIRE(e.kind == ir::EdgeKind::Sync);
    (e.syncSend ? sends : receives)++;
  }
  CHECK(sends == 2);
  CHECK(receives == 2);
  // A byte receives the value as DiVinE stores it: 300 mod 256.
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  exec::ScriptedChooser none;
  auto s = ev.makeInitialState(none);
  REQUIRE(s.ok());
  exec::State n = s.value();
  bool stepped = false;
  exec::System(ev).forEachRendezvous(s.value(), [&](const exec::Move& m) {
    REQUIRE(ev.executeSync(n, m.thread, m.edge, m.partner, m.partnerEdge, none).ok());
    stepped = true;
  });
  REQUIRE(stepped);
  CHECK(n.threads[1].processLocals[0] == exec::Value::integer(BigInt(44)));
  CHECK(n.threads[0].processLocals[0] == exec::Value::integer(BigInt(1)));
}

TEST_CASE("dve import: a channel used with one value and with none is an error") {
  auto r = import(
      "channel c;\n"
      "process P { state a; init a; trans a -> a { sync c!1; }, a -> a { sync c!; }; }\n"
      "system async;\n");
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors.front().find("channel 'c' carries 1 value(s) at line 2 but 0 here") !=
        std::string::npos);
}

TEST_CASE("dve import: the property models name their unsupported constructs") {
  auto prop = import(readFile(beemDir() / "bakery.1.prop2.dve"));
  std::string all;
  for (const auto& e : prop.errors) all += e + "\n";
  CHECK(all.find("DVE construct 'accept' is not supported") != std::string::npos);
  CHECK(all.find("DVE construct 'property' is not supported") != std::string::npos);
}

TEST_CASE("dve import: peterson.1 has three processes whose states are labelled locations") {
  std::string text = readFile(beemDir() / "peterson.1.dve");
  auto r = import(text);
  REQUIRE(r.prog);
  const ir::Program& p = *r.prog;
  REQUIRE(p.processes.size() == 3);
  CHECK(p.isClosed());
  for (size_t i = 0; i < 3; ++i) {
    const ir::Cfa& c = process(p, i);
    CHECK(c.name == "P_" + std::to_string(i));
    CHECK(c.kind == ir::CfaKind::Process);
    CHECK(c.instances == 1);
    CHECK(labelsOf(p, c) == std::vector<std::string>{"NCS", "CS", "wait", "q2", "q3"});
    CHECK(p.locs[c.entry].labels[0] == "NCS");
    CHECK(p.locs[c.entry].isEntry);
    REQUIRE(c.processLocals.size() == 2);
    CHECK(p.vars[c.processLocals[0]].name == "j");
    CHECK(p.vars[c.processLocals[1]].scope == ir::VarScope::ProcessLocal);
    CHECK(p.vars[c.processLocals[1]].owner == p.processes[i]);
    CHECK(p.vars[c.processLocals[1]].slot == 1);
    CHECK(p.vars[c.processLocals[0]].init->op == Op::IntConst);
    for (ir::LocId l : c.locs) CHECK(p.locs[l].loc.valid());
  }
  // One edge per `->` transition of the file (the lexer counts them independently).
  SourceFile file("peterson.1.dve", text);
  Diagnostics d(&file);
  size_t arrows = 0;
  for (const auto& t : dve::lex(file, d)) arrows += t.kind == dve::Tok::Arrow;
  CHECK(arrows == 21);
  CHECK(p.edges.size() == arrows);
  size_t outs = 0;
  for (const auto& l : p.locs) outs += l.out.size();
  CHECK(outs == p.edges.size());
  for (const auto& e : p.edges) {
    CHECK(e.kind == ir::EdgeKind::Command);
    CHECK(e.loc.valid());
    CHECK(p.locs[e.from].cfa == p.locs[e.to].cfa);
  }
  CHECK(p.edges[1].text == "wait -> q2 { guard j < 3; effect pos[0] = j;}");
  // q3 -> q3 is a self-loop: q3 is a loop head, as are NCS and wait (cycles back to them).
  const ir::Cfa& p0 = process(p, 0);
  CHECK(p.locs[p0.locs[4]].loopHead);
  CHECK(p.locs[p0.locs[0]].loopHead);
  // Globals: byte arrays with zero initialisers.
  REQUIRE(p.globals.size() == 2);
  const ir::Variable& pos = p.vars[p.globals[0]];
  CHECK(pos.name == "pos");
  CHECK(pos.scope == ir::VarScope::Global);
  CHECK(pos.type->kind == TypeKind::Array);
  CHECK(pos.type->length == 3);
  REQUIRE(pos.init->op == Op::ArrayLit);
  CHECK(pos.init->kids.size() == 3);
  CHECK(!ir::programToString(p).empty());
}

TEST_CASE("dve import: surplus initialisers are ignored, missing ones are 0") {
  auto anderson = import(readFile(beemDir() / "anderson.2.dve"));
  REQUIRE(anderson.prog);
  const ir::Variable& slot = anderson.prog->vars[anderson.prog->globals[0]];
  CHECK(slot.name == "Slot");
  CHECK(slot.type->length == 3);
  REQUIRE(slot.init->kids.size() == 3);
  CHECK(slot.init->kid(0)->value == BigInt(1));
  CHECK(slot.init->kid(2)->value == BigInt(0));
  auto p = importOk("byte a[4] = {7, 8}; int b;\nprocess P { state s; init s; }\nsystem async;");
  const ir::Variable& a = p->vars[p->globals[0]];
  REQUIRE(a.init->kids.size() == 4);
  CHECK(a.init->kid(1)->value == BigInt(8));
  CHECK(a.init->kid(3)->value == BigInt(0));
  CHECK(p->vars[p->globals[1]].init->value == BigInt(0));  // never "unconstrained"
}

TEST_CASE("dve import: assignments wrap to the variable's type; effects are sequential") {
  auto p = importOk(
      "byte x; int y; byte a[2];\n"
      "process P { state s; init s;\n"
      "  trans s -> s { effect x = x + 1, y = y - 1, a[x] = 3, x = 0; }; }\n"
      "system async;");
  REQUIRE(p->edges.size() == 1);
  const ir::Edge& e = p->edges[0];
  CHECK(e.sequential);
  REQUIRE(e.assigns.size() == 4);
  CHECK(e.assigns[0].rhs->op == Op::Mod);  // (x + 1) % 256
  CHECK(e.assigns[0].rhs->kid(1)->value == BigInt(256));
  CHECK(e.assigns[1].rhs->op == Op::Sub);  // ((y - 1 + 32768) % 65536) - 32768
  CHECK(e.assigns[1].rhs->kid(0)->op == Op::Mod);
  CHECK(e.assigns[2].lhs->op == Op::Select);
  CHECK(e.assigns[2].rhs->op == Op::IntConst);  // a constant in range needs no wrap
  CHECK(e.assigns[3].rhs->op == Op::IntConst);
}

TEST_CASE("dve import: `P.s` is an AtLoc, `P->x` and `P.x` are ProcLocals") {
  auto p = importOk(
      "process P { byte x; state idle, cs; init idle; trans idle -> cs {}; }\n"
      "process Q { state a, b; init a;\n"
      "  trans a -> b { guard P.cs && P->x == 0 and not P.x; },\n"
      "        b -> a { guard P.idle imply true; }; }\n"
      "system async;");
  REQUIRE(p->edges.size() == 3);
  ExprRef g = p->edges[1].guard;
  REQUIRE(g->op == Op::And);
  ExprRef at = g->kid(0)->kid(0);
  REQUIRE(at->op == Op::AtLoc);
  CHECK(at->payload == 0);
  CHECK(at->kid(0)->op == Op::IntConst);
  CHECK(p->locs[static_cast<size_t>(*at->value.toInt64())].labels[0] == "cs");
  ExprRef eq = g->kid(0)->kid(1);
  REQUIRE(eq->op == Op::Eq);
  CHECK(eq->kid(0)->op == Op::ProcLocal);
  CHECK(p->vars[static_cast<size_t>(*eq->kid(0)->value.toInt64())].name == "x");
  CHECK(g->kid(1)->op == Op::Not);
  CHECK(p->edges[2].guard == nullptr);  // `P.idle imply true` folds to true
}

TEST_CASE("dve import: syntax errors are reported at their exact position") {
  auto r = import(
      "byte x;\nprocess P {\n  state a;\n  init a;\n  trans a -> a { guard x == ; };\n}\n"
      "system async;\n");
  CHECK_FALSE(r.prog);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0] == "5:29: expected an expression, found ';'");
  CHECK(import("byte x\nsystem async;").errors ==
        std::vector<std::string>{"2:1: expected ';' after the declaration, found 'system'"});
  CHECK(import("process P { state a; init a; }").errors ==
        std::vector<std::string>{"1:31: expected 'system async;' at the end of the model"});
  CHECK(import("byte x = 1 $;").errors ==
        std::vector<std::string>{"1:12: unexpected character '$'"});
  CHECK(import("/* open").errors == std::vector<std::string>{"1:1: unterminated comment"});
  // The scanner the .tdm lexer shares: one error per UTF-8 character, shown as written.
  CHECK(import("byte x = 1 \xC3\xA9;").errors ==
        std::vector<std::string>{"1:12: unexpected character '\xC3\xA9'"});
  CHECK(import("byte x = 1 \xFF;").errors ==
        std::vector<std::string>{"1:12: unexpected character '\\xFF'"});
}

TEST_CASE("dve import: unsupported constructs and semantic errors") {
  auto errorsOf = [](const std::string& text) { return import(text).errors; };
  using V = std::vector<std::string>;
  const std::string proc = "process P { state a; init a; }\n";
  CHECK(errorsOf("channel c;\n" + proc + "system async;").empty());
  CHECK(errorsOf("process P { channel c; state a; init a; }\nsystem async;") ==
        V{"1:13: DVE construct 'channel' is not supported"});
  CHECK(errorsOf(proc + "system sync;") == V{"2:8: DVE construct 'system sync' is not supported"});
  CHECK(
      errorsOf("process P { state a; init a; commit a; accept a; assert a: 1; }\nsystem async;") ==
      V{"1:30: DVE construct 'commit' is not supported",
        "1:40: DVE construct 'accept' is not supported",
        "1:50: DVE construct 'assert' is not supported"});
  CHECK(errorsOf("process P { state a; init a; trans a -> a { sync c!1; }; }\nsystem async;") ==
        V{"1:50: unknown channel 'c'"});
  CHECK(errorsOf(proc + "system async property P;") ==
        V{"2:14: DVE construct 'property' is not supported"});
  CHECK(
      errorsOf("byte x; byte y;\nprocess P { state a; init a; trans a -> a { effect x = x | y; }; }"
               "\nsystem async;")
          .empty());
  CHECK(errorsOf("byte x; byte y;\nprocess P { state a; init a; trans a -> a { effect x = "
                 "(x << 62) | y; }; }\nsystem async;")[0]
            .find("2:66: operator '|' needs operands of bounded range") == 0);
  CHECK(errorsOf("process P { state a; init a; trans a -> b {}; }\nsystem async;") ==
        V{"1:41: process 'P' has no state 'b'"});
  CHECK(errorsOf("process P { state a; init b; }\nsystem async;") ==
        V{"1:27: process 'P' has no state 'b'"});
  CHECK(errorsOf("process P { state a; }\nsystem async;") ==
        V{"1:1: process 'P' has no 'init' state"});
  CHECK(errorsOf("process P { state a; init a; trans a -> a { guard z > 0; }; }\nsystem async;") ==
        V{"1:51: unknown name 'z'"});
  CHECK(errorsOf("process P { state a; init a; trans a -> a { guard Q.s; }; }\nsystem async;") ==
        V{"1:51: unknown process 'Q'"});
  CHECK(errorsOf("const byte N = 2; byte a[N];\nprocess P { state a; init a; trans a -> a "
                 "{ effect N = 1, a = 1; }; }\nsystem async;") ==
        V{"2:52: cannot assign to constant 'N'", "2:59: array 'a' needs an index: a[i] = ..."});
  CHECK(errorsOf("byte x; byte a[x];\n" + proc + "system async;") ==
        V{"1:16: the length of 'a' must be a constant expression"});
  CHECK(errorsOf("byte a[0];\n" + proc + "system async;") ==
        V{"1:8: the length of 'a' must be in 1..65536, got 0"});
  CHECK(errorsOf("system async;") == V{"1:1: a DVE model needs at least one process"});
}

TEST_CASE("dve import: constants fold, with C semantics") {
  auto p = importOk(
      "const int K = -7 / 2; byte a[K + 5] = {K, (1 << 4) | 3, K % 2};\n"
      "process P { const byte L = 2; state s; init s;\n"
      "  trans s -> s { guard a[L] == K * 2 + 1 - 0; }; }\n"
      "system async;");
  const ir::Variable& a = p->vars[p->globals[0]];
  CHECK(a.type->length == 2);                   // -3 + 5
  CHECK(a.init->kid(0)->value == BigInt(253));  // -3 wrapped into a byte
  CHECK(a.init->kid(1)->value == BigInt(19));
  ExprRef g = p->edges[0].guard;
  REQUIRE(g->op == Op::Eq);
  CHECK(g->kid(0)->kid(1)->value == BigInt(2));
  CHECK(g->kid(1)->value == BigInt(-5));
}

TEST_CASE("dve import: never crashes or hangs on malformed input") {
  std::string text = readFile(beemDir() / "peterson.1.dve");
  for (size_t cut = 0; cut < text.size(); cut += 7) import(text.substr(0, cut));
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    std::string t = text;
    for (int k = 0; k < 3; ++k) {
      size_t at = rng() % t.size();
      const char* junk[] = {"", "(", ")", "{", "}", ";", ",", "->", "[", "]", "|", "P_1.", "x"};
      t.replace(at, rng() % 5, junk[rng() % 13]);
    }
    import(t);
  }
  CHECK(import(std::string(100000, '(')).errors.size() == 1);
  std::string chain = "byte x;\nprocess P { state a; init a; trans a -> a { guard x";
  for (int i = 0; i < 100000; ++i) chain += " + x";
  CHECK(import(chain + "; }; }\nsystem async;").errors.size() == 1);
  CHECK(import("byte a[99999999999999999999];").errors.size() == 1);
  CHECK(import(std::string("\x01\xff\xfe", 3)).errors.size() == 3);
}

}  // namespace
}  // namespace tandem
