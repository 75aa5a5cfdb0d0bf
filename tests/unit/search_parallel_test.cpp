// The multi-core explorer (check --threads N) against the sequential one: the same states,
// transitions and matched states on BEEM instances, dfs and bfs, with 2 and 3 workers sharing
// work from the first state; errors and deadlocks found with traces that replay (shortest under
// bfs); the bounds end it with the sequential explorer's reasons; the shared store under
// concurrent inserts; and the CLI's --threads.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/parallel_explorer.h"
#include "mc/search/por/por_analysis.h"
#include "mc/search/por/por_reducer.h"
#include "mc/search/stores/shared_store.h"
#include "mc/search/trace.h"
#include "tests/unit/cli_run.h"
#include "tests/unit/dve_load.h"

namespace tandem::search {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string beemPath(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name;
}

using test::loadDve;
std::unique_ptr<ir::Program> loadBeem(const std::string& name) {
  std::ifstream in(beemPath(name));
  std::stringstream ss;
  ss << in.rdbuf();
  auto p = loadDve(name, ss.str());
  REQUIRE(p);
  return p;
}

// Counters x[0..2] that each process raises to 6; no process can move at the end (a deadlock
// in DVE, whose states have no valid ends).
const char* const kCounters = R"(
byte x[3];
process P0 { state s; init s; trans s -> s { guard x[0] < 6; effect x[0] = x[0] + 1; }; }
process P1 { state s; init s; trans s -> s { guard x[1] < 6; effect x[1] = x[1] + 1; }; }
process P2 { state s; init s; trans s -> s { guard x[2] < 6; effect x[2] = x[2] + 1; }; }
system async;
)";

// One exploration, sequential (threads 0) or parallel, with the compiled system.
struct Explored {
  ExploreResult res;
  Trace trace;
  unsigned workers = 1;
  size_t storeBytes = 0;
};
Explored explore(const ir::Program& p, unsigned threads, Strategy s, Limits limits = {},
                 bool deadlock = false, const std::atomic<bool>* interrupt = nullptr,
                 StoreKind store = StoreKind::Exact, const PorAnalysis* por = nullptr) {
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  GenericOptions go;
  GenericSystem generic(p, ev, go);
  CompiledSystem compiled(p, ev, go);
  Budget budget(limits, interrupt);
  Explored out;
  if (threads == 0) {
    ExploreOptions eo;
    eo.search = s;
    eo.budget = &budget;
    eo.deadlock = deadlock;
    eo.por = por;
    Explorer ex(compiled, eo);
    out.res = ex.run();
    if (out.res.outcome == Outcome::ErrorFound || out.res.outcome == Outcome::Deadlock)
      out.trace = buildTrace(compiled, ex.store(), out.res, generic, ev);
    return out;
  }
  ParallelOptions po;
  po.threads = threads;
  po.search = s;
  po.budget = &budget;
  po.deadlock = deadlock;
  po.store = store;
  if (por) po.reducer = [por] { return std::make_unique<PorReducer>(*por); };
  po.shareAfter = 0;  // share work from the first state on
  ParallelExplorer px([&] { return std::make_unique<CompiledSystem>(p, ev, go); }, po);
  out.res = px.run();
  out.workers = px.workersStarted();
  out.storeBytes = out.res.storeBytes;
  if (out.res.outcome == Outcome::ErrorFound || out.res.outcome == Outcome::Deadlock)
    out.trace = buildTrace(compiled, px.errorPath(), out.res, generic, ev);
  return out;
}

}  // namespace

TEST_CASE("parallel search: the sequential counts on BEEM instances, dfs and bfs") {
  // Mutual exclusion, a queue lock, and two channel protocols.
  for (const char* name : {"bakery.3.dve", "anderson.2.dve", "at.1.dve", "brp.1.dve",
                           "collision.1.dve", "peterson.2.dve"}) {
    CAPTURE(name);
    auto p = loadBeem(name);
    for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
      CAPTURE(strategyName(s));
      const Explored seq = explore(*p, 0, s);
      REQUIRE(seq.res.outcome == Outcome::Exhausted);
      for (unsigned threads : {2u, 3u}) {
        CAPTURE(threads);
        const Explored par = explore(*p, threads, s);
        CHECK(par.workers == threads);
        CHECK(par.res.outcome == Outcome::Exhausted);
        CHECK(par.res.states == seq.res.states);
        CHECK(par.res.transitions == seq.res.transitions);
        CHECK(par.res.matched == seq.res.matched);
        if (s == Strategy::Bfs) CHECK(par.res.maxDepth == seq.res.maxDepth);  // the levels
      }
    }
  }
}

TEST_CASE("parallel search with --por: the verdicts of the full search, in fewer states") {
  uint64_t reduced = 0;
  for (const char* name : {"peterson.2.dve", "anderson.2.dve", "at.1.dve", "collision.1.dve"}) {
    CAPTURE(name);
    auto p = loadBeem(name);
    auto por = PorAnalysis::build(*p, nullptr);
    REQUIRE(por);
    for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
      CAPTURE(strategyName(s));
      const Explored full = explore(*p, 0, s);
      const Explored seq = explore(*p, 0, s, {}, false, nullptr, StoreKind::Exact, por.get());
      for (unsigned threads : {2u, 3u}) {
        CAPTURE(threads);
        const Explored par =
            explore(*p, threads, s, {}, false, nullptr, StoreKind::Exact, por.get());
        CHECK(par.res.outcome == Outcome::Exhausted);
        CHECK(par.res.states <= full.res.states);
        CHECK(par.res.porReduced + par.res.porFull > 0);
        reduced += par.res.porReduced;
        // No fewer states than the sequential reduction needs, give or take the order.
        CHECK(par.res.states * 2 >= seq.res.states);
      }
    }
  }
  CHECK(reduced > 0);
  // Errors and deadlocks behind reduced states are still found, with traces that replay.
  auto inv = loadDve("counters.dve", kCounters, {"x[0] + x[1] < 9"});
  REQUIRE(inv);
  auto dead = loadDve("counters.dve", kCounters);
  REQUIRE(dead);
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    auto porInv = PorAnalysis::build(*inv, nullptr);
    const Explored e = explore(*inv, 2, s, {}, false, nullptr, StoreKind::Exact, porInv.get());
    REQUIRE(e.res.outcome == Outcome::ErrorFound);
    CHECK(e.trace.replayed);
    auto porDead = PorAnalysis::build(*dead, nullptr);
    const Explored d = explore(*dead, 2, s, {}, true, nullptr, StoreKind::Exact, porDead.get());
    REQUIRE(d.res.outcome == Outcome::Deadlock);
    CHECK(d.trace.replayed);
    CHECK(d.res.porReduced > 0);  // x[2] is invisible to everything: P2 runs alone
  }
}

TEST_CASE("parallel search: invariant violations and deadlocks, with traces that replay") {
  auto inv = loadDve("counters.dve", kCounters, {"x[0] + x[1] + x[2] < 14"});
  REQUIRE(inv);
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    CAPTURE(strategyName(s));
    const Explored seq = explore(*inv, 0, s);
    const Explored par = explore(*inv, 2, s);
    REQUIRE(par.res.outcome == Outcome::ErrorFound);
    CHECK(par.res.error->kind == ir::ErrorKind::Invariant);
    INFO(par.trace.problem);
    CHECK(par.trace.replayed);
    // Level-synchronous bfs: the first violation is at the least depth, as sequentially.
    if (s == Strategy::Bfs) CHECK(par.trace.steps.size() == seq.trace.steps.size());
    if (s == Strategy::Bfs) CHECK(par.trace.steps.size() == 14);
  }
  auto dead = loadDve("counters.dve", kCounters);
  REQUIRE(dead);
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    const Explored par = explore(*dead, 2, s, {}, /*deadlock=*/true);
    REQUIRE(par.res.outcome == Outcome::Deadlock);
    CHECK(par.trace.replayed);
    CHECK(par.trace.steps.size() == 18);  // every counter at 6, whatever the order
    const Explored none = explore(*dead, 2, s);
    CHECK(none.res.outcome == Outcome::Exhausted);
    CHECK(none.res.states == 7 * 7 * 7);
  }
}

TEST_CASE("parallel search: bounds and interrupts end it with the sequential reasons") {
  auto p = loadBeem("bakery.3.dve");
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    CAPTURE(strategyName(s));
    Limits states;
    states.maxStates = 5000;
    const Explored a = explore(*p, 2, s, states);
    CHECK(a.res.outcome == Outcome::Incomplete);
    CHECK(a.res.reason == stateBoundReason(5000));
    CHECK(a.res.states == 5000);  // never more than the bound, and the bound is reached

    Limits depth;
    depth.maxDepth = 10;
    const Explored b = explore(*p, 2, s, depth);
    CHECK(b.res.outcome == Outcome::Incomplete);
    CHECK(b.res.reason == depthBoundReason(10));

    std::atomic<bool> interrupt{true};
    const Explored c = explore(*p, 2, s, {}, false, &interrupt);
    CHECK(c.res.outcome == Outcome::Incomplete);
    CHECK(c.res.reason == interruptedReason());
  }
}

TEST_CASE("parallel search: a run that ends before the work is shared is the sequential one") {
  auto p = loadDve("counters.dve", kCounters, {"x[0] + x[1] + x[2] < 14"});
  REQUIRE(p);
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  for (Strategy s : {Strategy::Dfs, Strategy::Bfs}) {
    const Explored seq = explore(*p, 0, s);
    Budget budget;
    ParallelOptions po;
    po.threads = 2;
    po.search = s;
    po.budget = &budget;  // shareAfter: the default, far above these 343 states
    ParallelExplorer px([&] { return std::make_unique<CompiledSystem>(*p, ev, GenericOptions{}); },
                        po);
    const ExploreResult r = px.run();
    CHECK(px.workersStarted() == 1);
    CHECK(r.states == seq.res.states);
    CHECK(r.transitions == seq.res.transitions);
    CHECK(r.maxDepth == seq.res.maxDepth);
    CHECK(px.errorPath().size() == seq.trace.steps.size());  // the states before the last move
  }
}

TEST_CASE("shared store: concurrent inserts add each state once, through many doublings") {
  constexpr unsigned kThreads = 4;
  constexpr uint64_t kStates = 60000;
  SharedStateStore store(kThreads);
  std::atomic<uint64_t> added{0};
  std::vector<std::vector<SharedStateStore::Ref>> refs(kThreads);
  auto work = [&](unsigned w) {
    // Every worker inserts every state, in its own order, with the state's index as parent.
    for (uint64_t k = 0; k < kStates; ++k) {
      const uint64_t i = (k * (w + 1) * 7919) % kStates;
      const std::string s = "state-" + std::to_string(i) + std::string(i % 13, 'x');
      REQUIRE(store.enter(w, [](size_t) { return true; }));
      const auto ins = store.insert(w, s, StateStore::hash(s), StateKey{i});
      store.leave(w);
      REQUIRE(store.growIfDue(w, [](size_t) { return true; }));
      if (ins.isNew) added.fetch_add(1);
    }
  };
  std::vector<std::thread> ts;
  for (unsigned w = 0; w < kThreads; ++w) ts.emplace_back(work, w);
  for (auto& t : ts) t.join();
  CHECK(added.load() == kStates);
  CHECK(store.size() == kStates);
  CHECK(store.memory().tableSlots >= kStates);
  // Every state is found again, with its bytes and the parent of its first insert.
  for (uint64_t i = 0; i < kStates; i += 97) {
    const std::string s = "state-" + std::to_string(i) + std::string(i % 13, 'x');
    REQUIRE(store.enter(0, [](size_t) { return true; }));
    const auto ins = store.insert(0, s, StateStore::hash(s), StateKey{0});
    store.leave(0);
    CHECK_FALSE(ins.isNew);
    CHECK(store.get(0, ins.key) == s);
    CHECK(store.parent(ins.key).id == i);
  }
}

TEST_CASE("shared store: a refused doubling makes the store full, not bigger") {
  SharedStateStore store(1);
  bool full = false;
  for (int i = 0; i < 100000 && !full; ++i) {
    const std::string s = std::to_string(i);
    if (!store.enter(0, [](size_t) { return false; })) break;
    store.insert(0, s, StateStore::hash(s), kNoKey);
    store.leave(0);
    full = !store.growIfDue(0, [](size_t) { return false; });
  }
  CHECK(full);
  CHECK(store.full());
  CHECK(store.memory().tableSlots == 65536);  // never grew
}

// Two counters up to 200: their varints take one byte or two, so the states have three lengths.
const char* const kWide = R"(
int x[2];
process P0 { state s; init s; trans s -> s { guard x[0] < 200; effect x[0] = x[0] + 1; }; }
process P1 { state s; init s; trans s -> s { guard x[1] < 200; effect x[1] = x[1] + 1; }; }
system async;
)";

TEST_CASE("tree store: the exact counts, dfs, with 1 to 3 workers, in less memory") {
  for (const char* name : {"bakery.3.dve", "at.1.dve", "brp.1.dve", "peterson.2.dve"}) {
    CAPTURE(name);
    auto p = loadBeem(name);
    const Explored seq = explore(*p, 0, Strategy::Dfs);
    const Explored exact = explore(*p, 2, Strategy::Dfs);
    for (unsigned threads : {1u, 2u, 3u}) {
      CAPTURE(threads);
      const Explored tree =
          explore(*p, threads, Strategy::Dfs, {}, false, nullptr, StoreKind::Tree);
      CHECK(tree.res.outcome == Outcome::Exhausted);
      CHECK(tree.res.states == seq.res.states);
      CHECK(tree.res.transitions == seq.res.transitions);
      CHECK(tree.res.matched == seq.res.matched);
      if (seq.res.states > 100000) CHECK(tree.storeBytes < exact.storeBytes);
    }
  }
  auto wide = loadDve("wide.dve", kWide);
  REQUIRE(wide);
  const Explored tree = explore(*wide, 2, Strategy::Dfs, {}, false, nullptr, StoreKind::Tree);
  CHECK(tree.res.states == 201 * 201);
  CHECK(tree.res.transitions == 2 * 200 * 201);
}

TEST_CASE("tree store: errors and deadlocks with a trace from the kept paths") {
  auto inv = loadDve("counters.dve", kCounters, {"x[0] + x[1] + x[2] < 14"});
  REQUIRE(inv);
  for (unsigned threads : {1u, 2u}) {
    const Explored par = explore(*inv, threads, Strategy::Dfs, {}, false, nullptr, StoreKind::Tree);
    REQUIRE(par.res.outcome == Outcome::ErrorFound);
    INFO(par.trace.problem);
    CHECK(par.trace.replayed);
    CHECK(par.trace.steps.size() >= 14);
  }
  auto dead = loadDve("counters.dve", kCounters);
  REQUIRE(dead);
  const Explored d = explore(*dead, 2, Strategy::Dfs, {}, true, nullptr, StoreKind::Tree);
  REQUIRE(d.res.outcome == Outcome::Deadlock);
  CHECK(d.trace.replayed);
  CHECK(d.trace.steps.size() == 18);
}

using test::runTandem;
using test::TempDir;

// An initial value the explicit search cannot enumerate (a ref input) leaves it unknown, with one
// worker or two: the parallel search once dropped the initial states' reason and said verified.
TEST_CASE("check --threads: an input it cannot enumerate is unknown, not verified") {
  TempDir dir;
  const std::string file =
      dir.write("input.tdm", "var p: ref int;\nvar n: int = 0;\nrule r: n < 2 -> n := n + 1;\n")
          .string();
  for (const char* threads : {"1", "2"}) {
    CAPTURE(threads);
    auto r = runTandem({"check", file, "--json", "--threads", threads});
    CHECK(r.rc == 4);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("unbounded type") != std::string::npos);
  }
}

TEST_CASE("check --threads: the counts of one thread, and where it does not apply") {
  const std::string model = beemPath("bakery.4.dve");
  auto one = runTandem({"check", model, "--threads", "1", "--no-deadlock", "--json", "--quiet"});
  auto two = runTandem({"check", model, "--threads", "2", "--no-deadlock", "--json", "--quiet"});
  REQUIRE(one.rc == 0);
  REQUIRE(two.rc == 0);
  CHECK(one.report["stats"]["threads"] == 1);
  CHECK(two.report["stats"]["threads"] == 2);  // 157,003 states: past the sequential start
  CHECK(two.report["stats"]["states"] == 157003);
  CHECK(two.report["stats"]["transitions"] == one.report["stats"]["transitions"]);

  const std::string tdm = std::string(TANDEM_SHARED_DIR) + "/conformance/peterson2.tdm";
  for (std::vector<std::string> bad : {std::vector<std::string>{"--search", "random"},
                                       {"--dot", "/tmp/tandem_threads.dot"},
                                       {"--threads", "0"}}) {
    std::vector<std::string> args = {"check", tdm, "--threads", "2"};
    args.insert(args.end(), bad.begin(), bad.end());
    auto r = runTandem(args);
    CAPTURE(bad.front());
    CHECK(r.rc == 2);
  }
  CHECK(!fs::exists("/tmp/tandem_threads.dot"));
  // --store: tree searches depth-first; the explicit search of closed systems only.
  const std::string counter = std::string(TANDEM_SHARED_DIR) + "/conformance/peterson2.tdm";
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"--store", "tree", "--search", "bfs"},
        {"--store", "tree", "--dot", "/tmp/tandem_tree.dot"},
        {"--store", "exact", "--entry", "P1"},
        {"--store", "tree", "--por"},
        {"--store", "zip"}}) {
    std::vector<std::string> args = {"check", counter};
    args.insert(args.end(), bad.begin(), bad.end());
    CAPTURE(bad[1]);
    CHECK(runTandem(args).rc == 2);
  }
  auto tree = runTandem({"check", model, "--store", "tree", "--no-deadlock", "--json", "--quiet"});
  REQUIRE(tree.rc == 0);
  CHECK(tree.report["store"] == "tree");
  CHECK(tree.report["stats"]["states"] == 157003);
  CHECK(tree.report["stats"]["transitions"] == one.report["stats"]["transitions"]);
  // --por with two threads: the reduction runs in every worker.
  auto por = runTandem({"check", beemPath("peterson.3.dve"), "--threads", "2", "--por",
                        "--no-deadlock", "--json", "--quiet"});
  REQUIRE(por.rc == 0);
  CHECK(por.report["stats"]["threads"] == 2);
  CHECK(por.report["por"] == true);
  CHECK(por.report["stats"]["por_reduced_states"] > 0);
  CHECK(por.report["stats"]["states"] < 170156);
}

}  // namespace tandem::search
