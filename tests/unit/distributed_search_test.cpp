// The distributed search without MPI: the partition of states over ranks, Safra's termination
// detection, and K ranks in one process (LocalNetwork) against the sequential Explorer: the same
// counts and outcomes, bounds as `unknown`, errors whose path gathered from the ranks replays.
// The runs over MPI itself are the ctest `distributed_mpi` (tests/distributed/).
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/load.h"
#include "mc/exec/evaluator.h"
#include "mc/ir/frontend.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/distributed_explorer.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/explore/partition.h"
#include "mc/search/explore/termination.h"
#include "mc/search/generic_system.h"
#include "mc/search/trace.h"

namespace tandem::search {
namespace {

std::string conformance(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}
std::string beem(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name + ".dve";
}

TEST_CASE("distributed: owners are even and independent of the store's table and tag bits") {
  constexpr int kStates = 200000;
  for (int k = 1; k <= 5; ++k) {
    std::vector<int> owned(static_cast<size_t>(k));
    int lowBit = 0, highBit = 0, ofRank0 = 0;
    for (int i = 0; i < kStates; ++i) {
      const uint64_t h = StateStore::hash("state " + std::to_string(i));
      const int o = ownerOf(h, k);
      REQUIRE(o >= 0);
      REQUIRE(o < k);
      ++owned[static_cast<size_t>(o)];
      if (o == 0) {
        ++ofRank0;
        lowBit += static_cast<int>(h & 1);
        highBit += static_cast<int>(h >> 63);
      }
    }
    CAPTURE(k);
    for (int n : owned) CHECK(std::abs(n - kStates / k) < kStates / k / 50);  // within 2%
    // A rank's states still use both halves of its table and of the tags.
    CHECK(std::abs(2 * lowBit - ofRank0) < ofRank0 / 50);
    CHECK(std::abs(2 * highBit - ofRank0) < ofRank0 / 50);
  }
}

TEST_CASE("distributed: Safra's token ends the search only when no batch is in flight") {
  Token tok;
  Termination alone(0, 1);
  CHECK(alone.passive(tok) == Termination::Action::Terminated);

  Termination t0(0, 3), t1(1, 3), t2(2, 3);
  CHECK(t1.passive(tok) == Termination::Action::None);  // no token here
  t1.sent();                                            // a batch to rank 2, still in flight
  REQUIRE(t0.passive(tok) == Termination::Action::Forward);
  CHECK(t0.passive(tok) == Termination::Action::None);  // the round is out
  t1.tokenArrived(tok);
  REQUIRE(t1.passive(tok) == Termination::Action::Forward);
  CHECK(tok.count == 1);
  t2.tokenArrived(tok);
  REQUIRE(t2.passive(tok) == Termination::Action::Forward);
  t0.tokenArrived(tok);
  REQUIRE(t0.passive(tok) == Termination::Action::Forward);  // a batch in flight: round 2
  t2.received();  // it arrives; rank 2 works and is passive again
  t1.tokenArrived(tok);
  REQUIRE(t1.passive(tok) == Termination::Action::Forward);
  t2.tokenArrived(tok);
  REQUIRE(t2.passive(tok) == Termination::Action::Forward);
  CHECK(tok.count == 0);
  CHECK(tok.black);  // rank 2 received behind the first token
  t0.tokenArrived(tok);
  REQUIRE(t0.passive(tok) == Termination::Action::Forward);  // black: round 3
  t1.tokenArrived(tok);
  REQUIRE(t1.passive(tok) == Termination::Action::Forward);
  t2.tokenArrived(tok);
  REQUIRE(t2.passive(tok) == Termination::Action::Forward);
  t0.tokenArrived(tok);
  CHECK(t0.passive(tok) == Termination::Action::Terminated);
}

TEST_CASE("distributed: a batch that reaches rank 0 behind the token starts another round") {
  Token tok;
  Termination t0(0, 2), t1(1, 2);
  t1.sent();
  REQUIRE(t0.passive(tok) == Termination::Action::Forward);
  t1.tokenArrived(tok);
  REQUIRE(t1.passive(tok) == Termination::Action::Forward);
  t0.received();  // the batch arrives after the round started: 1 - 1 = 0, but rank 0 is black
  t0.tokenArrived(tok);
  CHECK(t0.passive(tok) == Termination::Action::Forward);
  t1.tokenArrived(tok);
  REQUIRE(t1.passive(tok) == Termination::Action::Forward);
  t0.tokenArrived(tok);
  CHECK(t0.passive(tok) == Termination::Action::Terminated);
}

// One rank's engine: its own evaluator and transition system, as each MPI process has.
struct RankEngine {
  RankEngine(const ir::Program& p, bool compiled) : ev(p, natives) {
    GenericOptions go;
    if (compiled)
      sys = std::make_unique<CompiledSystem>(p, ev, go);
    else
      sys = std::make_unique<GenericSystem>(p, ev, go);
  }
  exec::NativeRegistry natives;
  exec::Evaluator ev;
  std::unique_ptr<TransitionSystem> sys;
};

struct Cluster {
  Cluster(const ir::Program& p, int k, bool compiled) {
    for (int r = 0; r < k; ++r) {
      engines.push_back(std::make_unique<RankEngine>(p, compiled));
      systems.push_back(engines.back()->sys.get());
    }
  }
  DistributedResult run(DistributedOptions o) { return exploreInProcess(systems, o); }
  std::vector<std::unique_ptr<RankEngine>> engines;
  std::vector<TransitionSystem*> systems;
};

ExploreResult sequential(const ir::Program& p, bool compiled, ExploreOptions eo) {
  RankEngine e(p, compiled);
  return Explorer(*e.sys, eo).run();
}

TEST_CASE("distributed: 1 to 4 ranks explore the states, transitions and matches of one") {
  struct Model {
    std::string path;
    bool compiled;
  };
  const std::vector<Model> models = {
      {conformance("peterson2.tdm"), false},
      {conformance("peterson2.tdm"), true},
      {beem("anderson.2"), true},
      {beem("phils.2"), true},
      {beem("fischer.1"), false},
      {beem("bakery.2"), true},
  };
  for (const Model& m : models) {
    auto p = engine::loadModel(m.path, {});
    for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
      ExploreOptions eo;
      eo.search = s;
      eo.deadlock = true;
      const ExploreResult one = sequential(*p, m.compiled, eo);
      for (int k = 1; k <= 4; ++k) {
        CAPTURE(m.path);
        CAPTURE(m.compiled);
        CAPTURE(strategyName(s));
        CAPTURE(k);
        Cluster c(*p, k, m.compiled);
        DistributedOptions o;
        o.search = s;
        o.deadlock = true;
        o.batchBytes = 256;  // many small batches: more interleavings of the ranks
        const DistributedResult d = c.run(o);
        CHECK(d.ranks == k);
        CHECK(d.result.outcome == one.outcome);
        if (one.outcome != Outcome::Exhausted) continue;
        CHECK(d.result.states == one.states);
        CHECK(d.result.transitions == one.transitions);
        CHECK(d.result.matched == one.matched);
        REQUIRE(d.perRank.size() == static_cast<size_t>(k));
        uint64_t sum = 0;
        for (const RankStats& r : d.perRank) {
          sum += r.states;
          if (one.states > 100) CHECK(r.states > one.states / k / 2);  // hashing spreads them
          if (k > 1 && one.states > 100) CHECK(r.messages > 0);
        }
        CHECK(sum == one.states);
      }
    }
  }
}

TEST_CASE("distributed: an error found on any rank has a path that replays") {
  auto p = engine::loadModel(conformance("bakery2_race.tdm"), {});
  for (int k = 1; k <= 3; ++k) {
    for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
      CAPTURE(k);
      Cluster c(*p, k, true);
      DistributedOptions o;
      o.search = s;
      o.deadlock = true;
      o.batchBytes = 256;
      const DistributedResult d = c.run(o);
      REQUIRE(d.result.outcome == Outcome::ErrorFound);
      REQUIRE(d.result.error);
      CHECK(!d.path.empty());
      RankEngine ref(*p, false);
      auto& generic = static_cast<GenericSystem&>(*ref.sys);
      const Trace tr = buildTrace(*c.systems[0], d.path, d.result, generic, ref.ev);
      CHECK_MESSAGE(tr.replayed, tr.problem);
      CHECK(tr.steps.size() == d.path.size());  // each state's step, the failing one last
    }
  }
}

TEST_CASE("distributed: a deadlock is found and replays; --no-deadlock explores on") {
  std::ostringstream err;
  SourceFile file("stuck.tdm",
                  "var ready: bool = false;\nvar data: int = 0;\n"
                  "process Q {\n  data := 42;\n  skip;\n}\n"
                  "process P {\n  await ready;\n  assert data == 42;\n}\n");
  auto p = loadProgram(file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  for (int k = 1; k <= 3; ++k) {
    Cluster c(*p, k, false);
    DistributedOptions o;
    o.deadlock = true;
    const DistributedResult d = c.run(o);
    REQUIRE(d.result.outcome == Outcome::Deadlock);
    RankEngine ref(*p, false);
    const Trace tr =
        buildTrace(*c.systems[0], d.path, d.result, static_cast<GenericSystem&>(*ref.sys), ref.ev);
    CHECK_MESSAGE(tr.replayed, tr.problem);
    o.deadlock = false;
    Cluster again(*p, k, false);
    const DistributedResult on = again.run(o);
    CHECK(on.result.outcome == Outcome::Exhausted);
    CHECK(on.result.states == 3);
  }
}

TEST_CASE("distributed: --max-states bounds all ranks together, as in one process") {
  auto p = engine::loadModel(beem("anderson.2"), {});
  ExploreOptions eo;
  const ExploreResult all = sequential(*p, true, eo);
  REQUIRE(all.outcome == Outcome::Exhausted);
  for (int k = 1; k <= 3; ++k) {
    CAPTURE(k);
    // Fewer states than the model has, exactly as many (the bound is hit: unknown, as with one
    // process), and one more (exhausted).
    for (uint64_t max : {uint64_t{200}, all.states, all.states + 1}) {
      CAPTURE(max);
      Cluster c(*p, k, true);
      DistributedOptions o;
      o.limits.maxStates = max;
      const DistributedResult d = c.run(o);
      eo.limits.maxStates = max;
      const ExploreResult one = sequential(*p, true, eo);
      CHECK(d.result.outcome == one.outcome);
      if (d.result.outcome == Outcome::Incomplete) {
        CHECK(d.result.reason == "state bound (" + std::to_string(max) + ")");
        CHECK(d.result.states >= max);
      } else {
        CHECK(d.result.states == all.states);
      }
    }
  }
}

TEST_CASE("distributed: --max-depth and an interrupt end every rank with unknown") {
  auto p = engine::loadModel(beem("anderson.2"), {});
  for (int k = 1; k <= 3; ++k) {
    CAPTURE(k);
    Cluster c(*p, k, true);
    DistributedOptions o;
    o.limits.maxDepth = 5;
    const DistributedResult d = c.run(o);
    CHECK(d.result.outcome == Outcome::Incomplete);
    CHECK(d.result.reason == "depth bound (5)");
    const std::atomic<bool> interrupted{true};
    Budget budget({}, &interrupted);
    Cluster again(*p, k, true);
    DistributedOptions i;
    i.budget = &budget;
    const DistributedResult stopped = again.run(i);
    CHECK(stopped.result.outcome == Outcome::Incomplete);
    CHECK(stopped.result.reason == "interrupted");
  }
}

}  // namespace
}  // namespace tandem::search
