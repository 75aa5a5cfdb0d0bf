// Symbolic search speed on the KLEE tutorial's maze (examples/maze.tdm): the 4 solutions, and at
// most 5 solver queries per path (a deterministic count, never a time), under both back ends, in
// the default (mixed) and classic solving; the tests are the ones the unsliced, non-incremental
// search found (the same minimised inputs).
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
#include "mc/exec/natives.h"
#include "mc/ir/frontend.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "tests/unit/cli_args.h"

using namespace tandem;

namespace {

std::unique_ptr<ir::Program> loadMaze() {
  std::ostringstream err;
  auto file = readSourceFile(std::string(TANDEM_SOURCE_DIR) + "/examples/maze.tdm", err);
  REQUIRE_MESSAGE(file, err.str());
  auto p = loadProgram(*file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

nlohmann::json testgen(const ir::Program& p, const std::string& solver,
                       const std::string& solving) {
  test::Args o;
  o.command("testgen");
  o.file("maze.tdm");
  o.set("--entry", "maze");
  o.set("--solver", solver);
  o.set("--solving", solving);
  o.flag("--json");
  o.flag("--quiet");
  o.flag("--all-errors");  // every solution fails the same assertion
  std::ostringstream out, err;
  CHECK(o.execute(const_cast<ir::Program&>(p), out, err) == 1);  // solutions fail
  return nlohmann::json::parse(out.str());
}

std::string moves(const nlohmann::json& program) {
  std::string s;
  for (const auto& v : program) {
    const int c = v.get<int>();
    if (c == 0) break;
    s += static_cast<char>(c);
  }
  return s;
}

}  // namespace

TEST_CASE("symbolic speed: the maze's 4 solutions with at most 5 queries per path") {
  auto p = loadMaze();
  for (const char* solver : {"z3", "cvc5"})
    for (const char* solving : {"mixed", "classic"}) {
      CAPTURE(solver);
      CAPTURE(solving);
      nlohmann::json r = testgen(*p, solver, solving);
      const auto& s = r["stats"];
      CHECK(s["paths"] == 309);
      CHECK(s["divergences"] == 0);
      std::vector<std::string> solutions;
      for (const auto& t : r["tests"])
        if (t["result"] == "error") solutions.push_back(moves(t["inputs"]["program"]));
      CHECK(solutions == std::vector<std::string>{"sddwddddsddw", "sddwddddssssddwwww",
                                                  "ssssddddwwaawwddddsddw",
                                                  "ssssddddwwaawwddddssssddwwww"});
      // Before incremental solving, the counterexample cache and sliced minimisation: 63,065
      // queries (z3), 204 per path.
      CHECK(s["solver_queries"].get<uint64_t>() <= 5 * s["paths"].get<uint64_t>());
    }
}

TEST_CASE("symbolic speed: branches the cache decides never reach the solver chain") {
  auto p = loadMaze();
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  smt::SolverOptions so;
  auto solver = smt::makeSolver(so, smt::programNaming(*p));
  symbolic::ExploreOptions eo;
  eo.entry = p->findCfaId("maze", ir::CfaKind::Proc);
  eo.stopAtError = false;
  eo.solving = symbolic::Solving::Classic;
  symbolic::ExploreResult r = symbolic::exploreSymbolic(*p, ev, *solver, eo);
  CHECK(r.paths == 309);
  // Every check of the path solver is a cache answer or one query of the chain, which reaches
  // the back end exactly once (the chain is incremental, without its own cache); the inputs of
  // the maze's paths need no query (each move is a group of its own, solved by evaluation).
  const smt::SolverStats st = solver->stats();
  CHECK(r.solving.checks == r.solving.cacheSat + r.solving.cacheUnsat + st.queries);
  CHECK(st.backendQueries == st.queries);
  CHECK(r.solving.cacheSat > 0);
  CHECK(r.solverQueries == st.queries);
}
