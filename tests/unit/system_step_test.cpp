// The system-step layer (mc/exec/system.h): its contract on small closed systems.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mc/exec/system.h"
#include "mc/ir/frontend.h"

namespace tandem {
namespace {

struct Sys {
  explicit Sys(const std::string& text) : file("t.tdm", text) {
    prog = loadProgram(file, {}, err);
    REQUIRE_MESSAGE(prog, err.str());
    ev = std::make_unique<exec::Evaluator>(*prog, natives);
    auto s = ev->makeInitialState(none);
    REQUIRE(s.ok());
    init = s.value();
  }
  std::vector<exec::Move> moves(const exec::State& s, exec::ThreadId turn) {
    return exec::System(*ev).enabledMoves(s, turn, none);
  }
  SourceFile file;
  std::ostringstream err;
  std::unique_ptr<ir::Program> prog;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  exec::ScriptedChooser none;
  exec::State init;
};

TEST_CASE("system: local steps thread by thread, then rendezvous pairs; a blocked pair is none") {
  Sys m(
      "chan a = [0] of { int };\n"
      "var g: int = 0;\n"
      "process P { a ! 1; }\n"
      "process Q { var y: int = 0; a ? y; }\n"
      "process R { var z: int = 0; a ? 2; }\n"  // the message must be 2: blocked
      "process S { g := 1; }\n");
  exec::System sys(*m.ev);
  std::vector<exec::Move> candidates;
  sys.forEachMove(m.init, exec::kNoThread, [&](const exec::Move& mv) { candidates.push_back(mv); });
  REQUIRE(candidates.size() == 3);
  CHECK(!candidates[0].isRendezvous());
  CHECK(candidates[0].thread == 3);  // S's assignment first
  CHECK(candidates[1].isRendezvous());
  CHECK(candidates[1].partner == 1);  // P with Q, then P with R
  CHECK(candidates[2].partner == 2);
  const auto moves = m.moves(m.init, exec::kNoThread);
  REQUIRE(moves.size() == 2);  // R's match fails
  exec::State n = m.init;
  REQUIRE(sys.step(n, moves[1], m.none).ok());
  CHECK(sys.turnAfter(n, moves[1]) == exec::kNoThread);
  CHECK(sys.status(n, true) == exec::SystemStatus::Running);
}

TEST_CASE("system: the thread inside an atomic block keeps the turn until it is blocked") {
  Sys m(
      "var x: int = 0;\n"
      "process P { atomic { x := 1; await x == 5; x := 0; } }\n"
      "process Q { x := 2; }\n");
  exec::System sys(*m.ev);
  auto first = m.moves(m.init, exec::kNoThread);
  REQUIRE(first.size() == 2);
  exec::State n = m.init;
  REQUIRE(sys.step(n, first[0], m.none).ok());  // P enters the block
  const exec::ThreadId turn = sys.turnAfter(n, first[0]);
  CHECK(turn == 0);
  CHECK(sys.turnIn(n, turn) == exec::kNoThread);  // blocked at the await: Q may move
  const auto after = m.moves(n, sys.turnIn(n, turn));
  REQUIRE(after.size() == 1);
  CHECK(after[0].thread == 1);
}

TEST_CASE("system: no move is a deadlock unless every process is at a valid end") {
  Sys m(
      "var x: int = 0;\n"
      "process P { await x == 1; }\n"
      "process Q { endwait: await x == 1; }\n");
  exec::System sys(*m.ev);
  CHECK(m.moves(m.init, exec::kNoThread).empty());
  CHECK(!sys.validEnd(m.init, 0));
  CHECK(sys.validEnd(m.init, 1));
  CHECK(sys.status(m.init, false) == exec::SystemStatus::Deadlock);
  // The same rule over locations, as the symbolic fragments see a configuration.
  std::vector<ir::LocId> pcs;
  for (const auto& th : m.init.threads) pcs.push_back(th.top().pc);
  CHECK(!exec::allAtValidEnd(*m.prog, pcs));
  pcs.erase(pcs.begin());
  CHECK(exec::allAtValidEnd(*m.prog, pcs));
}

}  // namespace
}  // namespace tandem
