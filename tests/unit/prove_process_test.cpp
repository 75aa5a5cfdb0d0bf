// Abstraction fabrication on closed systems written with `pid`, process arrays and process-local
// variables (symbolic threads: SymState::threads, sym_process.cpp), over both back ends.
#include <doctest/doctest.h>

#include <set>

#include "fabricate/prover.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/initial_models.h"
#include "tests/unit/prove_test_support.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using Outcome = fabricate::ProveResult::Outcome;

struct Run {
  std::unique_ptr<ir::Program> p;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  fabricate::ProveResult r;
  std::set<std::string> states;

  Run(const std::string& text, smt::Backend b) : p(test::loadText(text)) {
    ev = std::make_unique<exec::Evaluator>(*p, natives);
    smt::SolverOptions so;
    so.backend = b;
    auto solver = smt::makeSolver(so, smt::programNaming(*p));
    fabricate::ProveOptions o;
    o.limits.timeoutSeconds = 60;
    if (symbolic::needsInitialModels(*p)) {  // as `tandem prove` does
      auto initial = symbolic::enumerateInitialStates(*p, *ev, *solver, 100);
      REQUIRE(initial.complete);
      o.initial = std::make_shared<const std::vector<exec::State>>(std::move(initial.states));
    }
    r = fabricate::prove(*p, *ev, *solver, o);
    states = test::abstractStateTexts(*p, *ev, r);
  }
};

const char* const kTicket = R"(
var next: int = 0;
var serving: int = 0;
process P[3] {
  var t: int = 0;
  predicate t == serving;
  predicate t == serving + 1;
  predicate t == serving + 2;
  A: t, next := next, next + 1;
  B: await GUARD;
  C: skip;
  D: serving := serving + 1;
     goto A;
}
predicate next == serving;
predicate next == serving + 1;
predicate next == serving + 2;
predicate next == serving + 3;
invariant mutex: !(P[0]@C && P[1]@C) && !(P[0]@C && P[2]@C) && !(P[1]@C && P[2]@C);
)";

std::string ticket(const std::string& guard) {
  std::string s = kTicket;
  s.replace(s.find("GUARD"), 5, guard);
  return s;
}

}  // namespace

TEST_CASE("prove: Peterson with pid and a process array") {
  for (auto b : {smt::Backend::Z3, smt::Backend::Cvc5}) {
    CAPTURE(smt::backendName(b));
    std::string text = R"(
var flag: bool[2] = [false, false];
var turn: int = 0;
process P[2] {
  NCS: flag[pid] := true;
  T:   turn := 1 - pid;
  W:   await !flag[1 - pid] || turn == pid;
  CS:  flag[pid] := false;
       goto NCS;
}
predicate turn == 0;
predicate turn == 1;
invariant mutex: !(P[0]@CS && P[1]@CS);
)";
    // Deadlock freedom needs both values of turn: with `turn == 0` alone, the abstract state
    // where both wait with !(turn == 0) has a state (turn == 5) where neither can move.
    Run run(text, b);
    CHECK(run.r.outcome == Outcome::Proved);
    CHECK(run.r.stats.abstractStates == 20);  // the reachable location pairs with flags and turn
    // The elements of the bool array are exact; locations name their instance.
    CHECK(run.states.count(
              "P[0]@CS, P[1]@W: turn == 0 && !(turn == 1) && flag[0] == true && flag[1] == true") ==
          1);
    for (const std::string& s : run.states) CHECK(s.find("P[0]@CS, P[1]@CS") == s.npos);
    // Without turn's predicate, fabrication finds a false alarm, never a real error.
    text.replace(text.find("predicate turn == 0;"), 20, "");
    text.replace(text.find("predicate turn == 1;"), 20, "");
    Run coarse(text, b);
    CHECK(coarse.r.outcome == Outcome::PotentialError);
  }
}

TEST_CASE("prove: a ticket lock with a process-local ticket, three processes") {
  for (auto b : {smt::Backend::Z3, smt::Backend::Cvc5}) {
    CAPTURE(smt::backendName(b));
    Run safe(ticket("serving == t"), b);
    CHECK(safe.r.outcome == Outcome::Proved);
    // Process-local predicates are per instance and print with the instance's name.
    bool named = false;
    for (const std::string& s : safe.states) named = named || s.find("P[2].t == serving") != s.npos;
    CHECK(named);
    // Entering on a ticket one ahead lets two processes in: a real error from the initial state.
    Run broken(ticket("serving == t || serving + 1 == t"), b);
    CHECK(broken.r.outcome == Outcome::Error);
    REQUIRE(broken.r.problem);
    CHECK(!broken.r.problem->fromFabricated);
  }
}

TEST_CASE("prove: P[i].v and P[i]@L with a symbolic instance, process locals initialised by pid") {
  const std::string text = R"(
var k: int;
init 0 <= k && k <= 1;
process P[2] {
  var me: int = pid + 10;
  var n: int = 0;
  predicate n >= 0;
  predicate me == pid + 10;
  A: n := n + 1;
  B: n := n + me - me;
     goto A;
}
predicate 0 <= k;
predicate k <= 1;
invariant owner: P[k].me == k + 10 && P[k].n >= 0 && (P[k]@A || P[k]@B);
)";
  for (auto b : {smt::Backend::Z3, smt::Backend::Cvc5}) {
    CAPTURE(smt::backendName(b));
    Run ok(text, b);
    CHECK(ok.r.outcome == Outcome::Proved);
    std::string bad = text;
    bad.replace(bad.find("P[k].me == k + 10"), 17, "P[k].me == 10");
    Run wrong(bad, b);
    CHECK(wrong.r.outcome == Outcome::Error);  // k == 1 from an initial state
    std::string out = text;
    out.replace(out.find("init 0 <= k && k <= 1;"), 23, "init 0 <= k && k <= 2;");
    Run range(out, b);
    CHECK(range.r.outcome == Outcome::Error);  // P[2] does not exist
    REQUIRE(range.r.problem);
    CHECK(range.r.problem->error.kind == ir::ErrorKind::IndexOutOfBounds);
  }
}
