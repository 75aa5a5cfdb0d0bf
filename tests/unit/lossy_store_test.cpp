// The lossy stores of check (--store hc, hash compaction; --store bitstate, supertrace): they
// find the exact counts where they omit nothing, say when they may have omitted states (an
// exhausted search is `unknown`, with the estimated omission probability), replay every error
// they find from the states on their stacks, share those stacks between workers, and refuse
// the flags that do not apply to them.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "mc/dve/import.h"
#include "mc/exec/evaluator.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/parallel_explorer.h"
#include "mc/search/stores/bitstate_store.h"
#include "mc/search/stores/hash_compaction_store.h"
#include "mc/search/trace.h"

namespace tandem::search {
namespace {

using test::runTandem;

std::string beem(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name;
}
const std::string kMutex = "!(P_0@CS && P_1@CS)";

struct Explored {
  ExploreResult res;
  Trace trace;
  unsigned workers = 1;
};
// BEEM `name` with the parallel explorer over `store`, work shared from the first state.
Explored explore(const std::string& name, unsigned threads, StoreKind store, bool deadlock) {
  std::ifstream in(beem(name));
  std::stringstream ss;
  ss << in.rdbuf();
  SourceFile file(name, ss.str());
  Diagnostics d(&file);
  auto p = importDve(file, d);
  REQUIRE(p);
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  GenericOptions go;
  GenericSystem generic(*p, ev, go);
  CompiledSystem compiled(*p, ev, go);
  Budget budget(Limits{});
  ParallelOptions po;
  po.threads = threads;
  po.budget = &budget;
  po.store = store;
  po.deadlock = deadlock;
  po.shareAfter = 0;
  ParallelExplorer px([&] { return std::make_unique<CompiledSystem>(*p, ev, go); }, po);
  Explored out;
  out.res = px.run();
  out.workers = px.workersStarted();
  if (out.res.outcome == Outcome::ErrorFound || out.res.outcome == Outcome::Deadlock)
    out.trace = buildTrace(compiled, px.errorPath(), out.res, generic, ev);
  return out;
}

}  // namespace

TEST_CASE("lossy stores: hc finds the exact counts of BEEM instances, unknown with a tiny p") {
  // The expected counts: external/beem/expected/state_counts_helena.csv.
  for (auto [name, states] :
       {std::pair{"peterson.1.dve", 12498}, {"bakery.3.dve", 32919}, {"collision.1.dve", 5593}}) {
    CAPTURE(name);
    const auto r =
        runTandem({"check", beem(name), "--store", "hc", "--json", "--quiet", "--no-deadlock"});
    CHECK(r.rc == 4);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["store"] == "hc");
    CHECK(r.report["stats"]["states"] == states);
    CHECK(r.report["reason"].get<std::string>().find("lossy") != std::string::npos);
    const double p = r.report["stats"]["omission_probability"];
    CHECK(p > 0);
    CHECK(p < 1e-10);  // about n^2 / 2^65
    // The exact store's verdict on the same model.
    CHECK(runTandem({"check", beem(name), "--quiet", "--no-deadlock", "--threads", "1"}).rc == 0);
  }
}

TEST_CASE("lossy stores: bitstate with a tiny array omits states and says so") {
  const auto tiny = runTandem({"check", beem("peterson.1.dve"), "--store", "bitstate",
                               "--bitstate-bits", "10", "--json", "--quiet", "--no-deadlock"});
  CHECK(tiny.rc == 4);
  REQUIRE(tiny.report.is_object());
  CHECK(tiny.report["verdict"] == "unknown");
  CHECK(tiny.report["stats"]["states"] < 12498);
  CHECK(tiny.report["stats"]["expected_omissions"] > 1.0);
  CHECK(tiny.report["stats"]["omission_probability"] > 0.5);
  CHECK(tiny.report["bitstate"]["log2_bits"] == 10);
  CHECK(tiny.report["reason"].get<std::string>().find("2^10 bits") != std::string::npos);
  // The default array (2^27 bits, SPIN's -w27) holds them all.
  const auto big = runTandem({"check", beem("peterson.1.dve"), "--store", "bitstate", "--json",
                              "--quiet", "--no-deadlock"});
  CHECK(big.rc == 4);
  CHECK(big.report["stats"]["states"] == 12498);
  CHECK(big.report["bitstate"]["log2_bits"] == 27);
  CHECK(big.report["stats"]["omission_probability"] < 1e-6);
  // Without --bitstate-bits the array shrinks to half of --memory-limit: 30 MB holds 2^26 bits.
  const auto fit = runTandem({"check", beem("peterson.1.dve"), "--store", "bitstate",
                              "--memory-limit", "30", "--json", "--quiet", "--no-deadlock"});
  REQUIRE(fit.report.is_object());
  CHECK(fit.report["bitstate"]["log2_bits"] == 26);
}

TEST_CASE("lossy stores: an error is a real error, its trace replayed from the kept path") {
  for (const char* store : {"hc", "bitstate"}) {
    CAPTURE(store);
    for (const char* threads : {"1", "2"}) {
      const auto bug =
          runTandem({"check", beem("peterson.2.dve"), "--invariant", kMutex, "--store", store,
                     "--threads", threads, "--json", "--quiet", "--no-deadlock"});
      CHECK(bug.rc == 1);
      REQUIRE(bug.report.is_object());
      CHECK(bug.report["verdict"] == "error");
      CHECK(bug.report["error"]["kind"] == "invariant");
      CHECK(bug.err.find("INTERNAL ERROR") == std::string::npos);
      const auto& trace = bug.report["error"]["trace"];
      REQUIRE_FALSE(trace.empty());
      CHECK(trace.back()["locations"]["P_0"] == "CS");
      CHECK(trace.back()["locations"]["P_1"] == "CS");
    }
  }
}

TEST_CASE("lossy stores: workers share stacks of states; counts and traces as on one") {
  for (StoreKind store : {StoreKind::HashCompaction, StoreKind::Bitstate}) {
    CAPTURE(storeKindName(store));
    for (unsigned threads : {1u, 2u, 3u}) {
      CAPTURE(threads);
      const Explored e = explore("bakery.3.dve", threads, store, false);
      CHECK(e.workers == threads);
      CHECK(e.res.outcome == Outcome::Exhausted);
      if (store == StoreKind::HashCompaction || threads == 1) {
        CHECK(e.res.states == 32919);
        CHECK(e.res.transitions == 85061);
      } else {  // two workers may both set bits of one new state at once: both explore it
        CHECK(e.res.states >= 32919);
        CHECK(e.res.states <= 32919 + 100);
      }
      REQUIRE(e.res.omission);
      CHECK(e.res.omission->probability < 1e-4);  // bitstate: about 3e-6
      // A deadlock of BEEM's bakery.3 (DVE has no valid end states), found and replayed.
      const Explored dead = explore("bakery.3.dve", threads, store, true);
      REQUIRE(dead.res.outcome == Outcome::Deadlock);
      CHECK(dead.trace.replayed);
      CHECK_FALSE(dead.trace.steps.empty());
    }
  }
}

TEST_CASE("lossy stores: the estimates of Wolper and Leroy, and of Holzmann") {
  // n states, b-bit signatures: n(n-1)/2 / 2^b expected collisions.
  HashCompactionStore hc(1);
  CHECK(hc.omission()->expected == 0);
  // 2^10 bits, 3 hash functions: the first state never collides; 100 states: about
  // sum (1 - e^{-3i/1024})^3, i < 100 (between 0.4 and 0.6).
  CHECK(BitstateStore::estimate(1, 10).expected == 0);
  const Omission o = BitstateStore::estimate(100, 10);
  CHECK(o.expected > 0.4);
  CHECK(o.expected < 0.6);
  CHECK(o.probability == doctest::Approx(1 - std::exp(-o.expected)));
  // Beyond a million states the sum is integrated: it agrees with the exact sum nearby.
  const double exact = BitstateStore::estimate(1'000'000, 24).expected;
  const double integrated = BitstateStore::estimate(1'000'001, 24).expected;
  CHECK(integrated == doctest::Approx(exact).epsilon(1e-3));
}

TEST_CASE("lossy stores: every bound ends with the full report") {
  for (const char* store : {"hc", "bitstate"}) {
    CAPTURE(store);
    const auto r = runTandem({"check", beem("bakery.3.dve"), "--store", store, "--max-states",
                              "1000", "--json", "--quiet", "--no-deadlock"});
    CHECK(r.rc == 4);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("state bound (1000)") != std::string::npos);
    CHECK(r.report["stats"]["states"] == 1000);
    CHECK(r.report["stats"].contains("omission_probability"));
  }
}

TEST_CASE("lossy stores: flags that do not apply are usage errors") {
  const std::string pet = beem("peterson.1.dve");
  auto usage = [](std::vector<std::string> args, const std::string& says) {
    CAPTURE(says);
    const auto r = runTandem(std::move(args));
    CHECK(r.rc == 2);
    CHECK(r.err.find(says) != std::string::npos);
  };
  usage({"check", pet, "--store", "hc", "--search", "bfs"}, "depth-first");
  usage({"check", pet, "--store", "bitstate", "--search", "random"}, "depth-first");
  usage({"check", pet, "--store", "hc", "--dot", "g.dot"}, "--dot");
  usage({"check", pet, "--store", "bitstate", "--por"}, "--por");
  usage({"check", pet, "--store", "hc", "--distributed"}, "--distributed");
  usage({"check", pet, "--bitstate-bits", "20"}, "give --store bitstate");
  usage({"check", pet, "--store", "hc", "--bitstate-bits", "20"}, "give --store bitstate");
  usage({"check", pet, "--store", "bitstate", "--bitstate-bits", "41"}, "between 8 and 40");
  usage({"check", pet, "--store", "bitstate", "--bitstate-bits", "33", "--memory-limit", "100"},
        "does not fit --memory-limit");
  const std::string open =
      std::string(TANDEM_SOURCE_DIR) + "/tests/conformance/cases/assert_fail.tdm";
  usage({"check", open, "--entry", "main", "--store", "hc"}, "closed systems");
}

}  // namespace tandem::search
