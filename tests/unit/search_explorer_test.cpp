// The explicit-state explorer and its search strategies, through the API (GenericSystem, the
// reference engine) and through `tandem check` (whichever engine the CLI picks): state counts,
// shortest counterexamples that replay, bounds, deadlocks, seeds, verdict agreement, --dot.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "mc/dve/import.h"
#include "mc/exec/evaluator.h"
#include "mc/ir/frontend.h"
#include "mc/search/driver/searcher.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/trace.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kSearches[] = {"dfs", "bfs", "random", "coverage"};

std::string conformance(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}
std::string beem(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name;
}

std::unique_ptr<ir::Program> load(const std::string& path) {
  std::ostringstream err;
  auto file = readSourceFile(path, err);
  REQUIRE_MESSAGE(file, err.str());
  auto p = loadProgram(*file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

// One exploration of a closed program with the reference engine.
struct Run {
  explicit Run(const ir::Program& p, search::ExploreOptions eo, search::GenericOptions go = {})
      : ev(p, natives), sys(p, ev, go), ex(sys, std::move(eo)) {
    res = ex.run();
  }
  search::Trace trace() { return search::buildTrace(sys, ex.store(), res, sys, ev); }

  exec::NativeRegistry natives;
  exec::Evaluator ev;
  search::GenericSystem sys;
  search::Explorer ex;
  search::ExploreResult res;
};

search::ExploreOptions withSearch(const std::string& s, uint64_t seed = 0) {
  search::ExploreOptions eo;
  eo.search = *search::parseStrategy(s);
  eo.seed = seed;
  return eo;
}

struct CliResult {
  int rc = -1;
  std::string out, err;
  json report;  // the --json report, when stdout holds one
};

CliResult runCli(std::vector<std::string> args) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  CliResult r;
  r.rc = cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
  r.out = o.str();
  r.err = e.str();
  r.report = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  return r;
}

// A fresh directory for files the tests write, removed at the end of the test.
struct TempDir {
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tandem_search_XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    fs::path f = path / name;
    std::ofstream(f) << text;
    return f.string();
  }
  fs::path path;
};

// Two processes, each waiting for the other after its first step.
const char* const kDeadlock = R"(
var x: int = 0;
var y: int = 0;
process P { A: x := 1; B: await y == 2; C: skip; }
process Q { A: y := 1; B: await x == 2; C: skip; }
)";

// Two processes that both terminate: no deadlock.
const char* const kTerminates = R"(
var x: int = 0;
process P { x := 1; }
process Q { await x == 1; }
)";

}  // namespace

TEST_CASE("search: every searcher reaches the 20 states of Peterson") {
  auto p = load(conformance("peterson2.tdm"));
  for (const char* s : kSearches) {
    for (uint64_t seed : {0u, 1u, 42u}) {
      CAPTURE(s);
      CAPTURE(seed);
      Run run(*p, withSearch(s, seed));
      CHECK(run.res.outcome == search::Outcome::Exhausted);
      CHECK(run.res.states == 20);
      CHECK(run.res.transitions == 34);
      CHECK(run.ex.store().size() == 20);
      CHECK_FALSE(run.res.error);
    }
  }
  // The same through the CLI, with whichever engine it picks.
  for (const char* s : kSearches) {
    CAPTURE(s);
    auto r = runCli({"check", conformance("peterson2.tdm"), "--search", s, "--json"});
    CHECK(r.rc == 0);
    REQUIRE(r.report.is_object());
    CHECK(r.report["stats"]["states"] == 20);
    CHECK(r.report["stats"]["transitions"] == 34);
  }
  for (search::Strategy s : search::allStrategies())
    CHECK(search::makeSearcher(s, 0)->name() == std::string(search::strategyName(s)));
  CHECK_FALSE(search::parseStrategy("sideways"));
}

TEST_CASE("search: searchers order the frontier as documented") {
  auto entry = [](uint32_t id, bool novel = false) { return search::FrontierEntry{id, 0, novel}; };
  search::DfsSearcher dfs;
  search::BfsSearcher bfs;
  for (uint32_t i = 0; i < 3; ++i) {
    dfs.add(entry(i));
    bfs.add(entry(i));
  }
  CHECK(dfs.next().id == 2);
  CHECK(bfs.next().id == 0);
  CHECK(dfs.size() == 2);
  CHECK(bfs.size() == 2);
  search::CoverageSearcher cov;
  cov.add(entry(0, true));
  cov.add(entry(1));
  cov.add(entry(2, true));
  cov.add(entry(3));
  CHECK(cov.next().id == 2);  // novel first, newest first
  CHECK(cov.next().id == 0);
  CHECK(cov.next().id == 3);
  CHECK(cov.next().id == 1);
  CHECK(cov.empty());
  // Random: every entry comes out exactly once, in an order fixed by the seed.
  auto drain = [](uint64_t seed) {
    search::RandomSearcher r(seed);
    for (uint32_t i = 0; i < 50; ++i) r.add({i, 0, false});
    std::vector<uint32_t> order;
    while (!r.empty()) order.push_back(r.next().id);
    return order;
  };
  auto a = drain(7), b = drain(7), c = drain(8);
  CHECK(a == b);
  CHECK(a != c);
  std::sort(c.begin(), c.end());
  for (uint32_t i = 0; i < 50; ++i) CHECK(c[i] == i);
}

TEST_CASE("search: every searcher agrees on BEEM peterson.1 (12498 states, 33369 transitions)") {
  for (const char* s : kSearches) {
    CAPTURE(s);
    auto r = runCli({"check", beem("peterson.1.dve"), "--search", s, "--json", "--quiet"});
    CHECK(r.rc == 0);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "verified");
    CHECK(r.report["stats"]["states"] == 12498);
    CHECK(r.report["stats"]["transitions"] == 33369);
  }
}

TEST_CASE("search: the reference engine agrees on BEEM fischer.1 (634 states, 1395 transitions)") {
  std::ostringstream err;
  auto file = readSourceFile(beem("fischer.1.dve"), err);
  REQUIRE(file);
  Diagnostics diags(&*file);
  auto p = importDve(*file, diags);
  REQUIRE(p);
  for (const char* s : kSearches) {
    CAPTURE(s);
    Run run(*p, withSearch(s, 5));
    CHECK(run.res.outcome == search::Outcome::Exhausted);
    CHECK(run.res.states == 634);
    CHECK(run.res.transitions == 1395);
    auto r = runCli({"check", beem("fischer.1.dve"), "--search", s, "--json", "--quiet"});
    REQUIRE(r.report.is_object());
    CHECK(r.report["stats"]["states"] == 634);
    CHECK(r.report["stats"]["transitions"] == 1395);
  }
}

TEST_CASE("search: bfs finds a shortest counterexample on bakery2_race, and it replays") {
  auto p = load(conformance("bakery2_race.tdm"));
  Run bfs(*p, withSearch("bfs"));
  REQUIRE(bfs.res.outcome == search::Outcome::ErrorFound);
  REQUIRE(bfs.res.error);
  CHECK(bfs.res.error->kind == ir::ErrorKind::Invariant);
  search::Trace tr = bfs.trace();
  CHECK_MESSAGE(tr.replayed, tr.problem);
  CHECK(tr.steps.size() == 6);
  // Each step is one move of one process; at the end both processes are at D.
  REQUIRE_FALSE(tr.steps.empty());
  const exec::State& last = tr.steps.back().after;
  REQUIRE(last.threads.size() == 2);
  for (const auto& th : last.threads) CHECK(p->locName(th.top().pc) == "D");
  for (const auto& st : tr.steps) CHECK(st.move.edges.size() == 1);
  CHECK_FALSE(bfs.ev.checkInvariants(last).ok());
  CHECK(bfs.ev.checkInvariants(tr.initial).ok());

  // Other searchers find the error too, with traces no shorter, which also replay.
  for (const char* s : {"dfs", "random", "coverage"}) {
    CAPTURE(s);
    Run other(*p, withSearch(s, 3));
    REQUIRE(other.res.outcome == search::Outcome::ErrorFound);
    search::Trace t = other.trace();
    CHECK_MESSAGE(t.replayed, t.problem);
    CHECK(t.steps.size() >= 6);
  }

  // The CLI reports the same 6 steps, ending with both processes at D.
  auto r = runCli({"check", conformance("bakery2_race.tdm"), "--search", "bfs", "--json"});
  CHECK(r.rc == 1);
  REQUIRE(r.report.is_object());
  CHECK(r.report["verdict"] == "error");
  CHECK(r.report["error"]["kind"] == "invariant");
  REQUIRE(r.report["error"]["trace"].size() == 6);
  CHECK(r.err.find("INTERNAL ERROR") == std::string::npos);
  std::map<std::string, int> procs;
  for (const auto& st : r.report["error"]["trace"]) ++procs[st["process"].get<std::string>()];
  CHECK(procs["P1"] == 3);
  CHECK(procs["P2"] == 3);
}

TEST_CASE("search: --max-states and --max-depth give unknown with exit 4") {
  SUBCASE("state bound on an infinite model") {
    auto r = runCli({"check", conformance("bakery2.tdm"), "--max-states", "100", "--json"});
    CHECK(r.rc == 4);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("state") != std::string::npos);
    CHECK(r.report["stats"]["states"].get<uint64_t>() <= 100);
    CHECK(r.report["stats"]["states"].get<uint64_t>() >= 50);
  }
  SUBCASE("depth bound") {
    auto r = runCli({"check", conformance("peterson2.tdm"), "--max-depth", "3", "--json"});
    CHECK(r.rc == 4);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("depth") != std::string::npos);
    CHECK(r.report["stats"]["states"].get<uint64_t>() < 20);
  }
  SUBCASE("bounds the search does not reach leave the verdict alone") {
    auto r = runCli({"check", conformance("peterson2.tdm"), "--max-depth", "1000", "--max-states",
                     "1000", "--json"});
    CHECK(r.rc == 0);
    CHECK(r.report["verdict"] == "verified");
  }
  SUBCASE("the API says which bound") {
    auto p = load(conformance("bakery2.tdm"));
    auto eo = withSearch("bfs");
    eo.limits.maxDepth = 4;
    Run run(*p, eo);
    CHECK(run.res.outcome == search::Outcome::Incomplete);
    CHECK(run.res.maxDepth <= 4);
    CHECK(run.res.reason.find("depth") != std::string::npos);
  }
}

TEST_CASE("search: --timeout is honoured") {
  auto start = std::chrono::steady_clock::now();
  auto r = runCli({"check", conformance("bakery2.tdm"), "--timeout", "0.2", "--json", "--quiet"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.rc == 4);
  REQUIRE(r.report.is_object());
  CHECK(r.report["verdict"] == "unknown");
  CHECK(r.report["reason"].get<std::string>().find("timeout") != std::string::npos);
  CHECK(secs < 3.0);
  CHECK(r.report["stats"]["time_s"].get<double>() >= 0.2);
}

TEST_CASE("search: deadlocks are found by default, and only where there is one") {
  TempDir dir;
  std::string dl = dir.write("deadlock.tdm", kDeadlock);
  for (const char* s : {"dfs", "bfs", "random"}) {
    CAPTURE(s);
    auto r = runCli({"check", dl, "--deadlock", "--search", s, "--json"});
    CHECK(r.rc == 1);
    REQUIRE(r.report.is_object());
    CHECK(r.report["verdict"] == "error");
    CHECK(r.report["error"]["kind"] == "deadlock");
    CHECK(r.report["error"]["trace"].size() == 2);  // each process takes its first step
    CHECK(r.err.find("INTERNAL ERROR") == std::string::npos);
  }
  // Reported by default (as SPIN and DiVinE do); with --no-deadlock a stuck state is just the
  // end of the search; the two flags together are a usage error.
  auto plain = runCli({"check", dl, "--json"});
  CHECK(plain.rc == 1);
  CHECK(plain.report["error"]["kind"] == "deadlock");
  auto off = runCli({"check", dl, "--no-deadlock", "--json"});
  CHECK(off.rc == 0);
  CHECK(off.report["verdict"] == "verified");
  CHECK(runCli({"check", dl, "--deadlock", "--no-deadlock"}).rc == 2);
  // A process waiting at a label starting with `end` is at a valid end state (SPIN's end labels).
  auto endLabels = runCli({"check",
                           dir.write("end.tdm",
                                     "var x: int = 0;\nvar y: int = 0;\n"
                                     "process P { A: x := 1; end_wait: await y == 2; C: skip; }\n"
                                     "process Q { A: y := 1; endQ: await x == 2; C: skip; }\n"),
                           "--json"});
  CHECK(endLabels.rc == 0);
  CHECK(endLabels.report["verdict"] == "verified");
  auto oneEnd = runCli({"check",
                        dir.write("end1.tdm",
                                  "var x: int = 0;\nvar y: int = 0;\n"
                                  "process P { A: x := 1; end_wait: await y == 2; C: skip; }\n"
                                  "process Q { A: y := 1; B: await x == 2; C: skip; }\n"),
                        "--json"});
  CHECK(oneEnd.rc == 1);
  CHECK(oneEnd.report["error"]["kind"] == "deadlock");
  // Peterson never deadlocks; processes that terminate are not deadlocked.
  auto pet = runCli({"check", conformance("peterson2.tdm"), "--deadlock", "--json"});
  CHECK(pet.rc == 0);
  CHECK(pet.report["verdict"] == "verified");
  auto term = runCli({"check", dir.write("term.tdm", kTerminates), "--deadlock", "--json"});
  CHECK(term.rc == 0);
  CHECK(term.report["verdict"] == "verified");

  // The reference engine: the deadlocked state has both processes at B, and the trace replays.
  SourceFile file("deadlock.tdm", kDeadlock);
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  REQUIRE(p);
  auto eo = withSearch("bfs");
  eo.deadlock = true;
  Run run(*p, eo);
  REQUIRE(run.res.outcome == search::Outcome::Deadlock);
  search::Trace tr = run.trace();
  CHECK_MESSAGE(tr.replayed, tr.problem);
  REQUIRE(tr.steps.size() == 2);
  for (const auto& th : tr.steps.back().after.threads) CHECK(p->locName(th.top().pc) == "B");
}

TEST_CASE("search: dfs, bfs and random agree on the verdict of every closed model") {
  std::vector<fs::path> files;
  for (const auto& dir :
       {fs::path(TANDEM_SHARED_DIR) / "conformance", fs::path(TANDEM_SOURCE_DIR) / "models",
        fs::path(TANDEM_SOURCE_DIR) / "examples"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".tdm") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  size_t closed = 0;
  std::map<std::string, size_t> verdicts;
  for (const auto& f : files) {
    if (!load(f.string())->isClosed()) continue;
    ++closed;
    CAPTURE(f.string());
    std::string first;
    int firstRc = -1;
    for (const char* s : {"dfs", "bfs", "random"}) {
      CAPTURE(s);
      auto r =
          runCli({"check", f.string(), "--search", s, "--max-states", "1000", "--json", "--quiet"});
      REQUIRE(r.report.is_object());
      std::string v = r.report["verdict"];
      CHECK(r.err.find("INTERNAL ERROR") == std::string::npos);
      if (first.empty()) {
        first = v;
        firstRc = r.rc;
        ++verdicts[v];
      }
      CHECK(v == first);
      CHECK(r.rc == firstRc);
    }
  }
  CHECK(closed >= 6);
  // The set exercises every verdict of `check`.
  CHECK(verdicts["verified"] >= 1);
  CHECK(verdicts["error"] >= 1);
  CHECK(verdicts["unknown"] >= 1);
}

TEST_CASE("search: --seed makes random search reproducible") {
  auto runSeed = [](const std::string& seed) {
    return runCli(
        {"check", conformance("bakery2_race.tdm"), "--search", "random", "--seed", seed, "--json"});
  };
  std::set<uint64_t> counts;
  for (const char* seed : {"1", "3", "4", "5"}) {
    CAPTURE(seed);
    auto a = runSeed(seed), b = runSeed(seed);
    REQUIRE(a.report.is_object());
    REQUIRE(b.report.is_object());
    CHECK(a.rc == 1);
    CHECK(a.report["stats"]["states"] == b.report["stats"]["states"]);
    CHECK(a.report["stats"]["transitions"] == b.report["stats"]["transitions"]);
    CHECK(a.report["error"] == b.report["error"]);
    counts.insert(a.report["stats"]["states"].get<uint64_t>());
  }
  CHECK(counts.size() >= 2);  // the seed matters

  // The same through the API.
  auto p = load(conformance("bakery2.tdm"));
  auto eo = withSearch("random", 99);
  eo.limits.maxStates = 300;
  Run x(*p, eo), y(*p, eo);
  REQUIRE(x.ex.store().size() == y.ex.store().size());
  bool same = true;
  for (search::StateStore::Id id = 0; id < x.ex.store().size(); ++id)
    same = same && x.ex.store().get(id) == y.ex.store().get(id) &&
           x.ex.store().parent(id) == y.ex.store().parent(id);
  CHECK(same);
}

TEST_CASE("search: --dot writes the state graph of a small model and cuts a large one") {
  TempDir dir;
  fs::path dot = dir.path / "peterson.dot";
  auto r = runCli({"check", conformance("peterson2.tdm"), "--dot", dot.string(), "--json"});
  CHECK(r.rc == 0);
  REQUIRE(fs::exists(dot));
  std::ifstream in(dot);
  std::string line, all;
  size_t nodes = 0, edges = 0, initial = 0;
  while (std::getline(in, line)) {
    all += line + "\n";
    if (line.find("->") != std::string::npos)
      ++edges;
    else if (line.find("[label=") != std::string::npos && line.find("  s") == 0)
      ++nodes;
    if (line.find("penwidth") != std::string::npos) ++initial;
  }
  CHECK(all.rfind("digraph", 0) == 0);
  CHECK(all.find("}") != std::string::npos);
  CHECK(nodes == 20);
  CHECK(edges == 34);
  CHECK(initial == 1);
  CHECK(all.find("label=\"P[0]@NCS P[1]@NCS\\n") != std::string::npos);
  CHECK(all.find("label=\"P[0]@CS P[1]@CS\\n") ==
        std::string::npos);  // mutual exclusion holds in every state
  CHECK(all.find("subgraph cluster_legend") != std::string::npos);
  CHECK(all.find("error") == std::string::npos);

  fs::path big = dir.path / "bakery.dot";
  auto b = runCli({"check", conformance("bakery2.tdm"), "--max-states", "3000", "--dot",
                   big.string(), "--json"});
  CHECK(b.rc == 4);  // the report still comes out, with its verdict
  REQUIRE(b.report.is_object());
  CHECK(b.report["verdict"] == "unknown");
  // A larger graph is cut at --dot-max-states (1000 unless given), and the legend says so.
  REQUIRE(fs::exists(big));
  std::ifstream bigIn(big);
  std::string bigAll((std::istreambuf_iterator<char>(bigIn)), std::istreambuf_iterator<char>());
  CHECK(bigAll.find("  s999 [") != std::string::npos);
  CHECK(bigAll.find("  s1000 [") == std::string::npos);
  CHECK(bigAll.find("truncated: the first 1000 of 3000 states") != std::string::npos);
  CHECK(b.err.find("--dot: the graph has 3000 states") != std::string::npos);
}

TEST_CASE("check --dot: the error path in red, the error as a node, labelled edges") {
  TempDir dir;
  fs::path dot = dir.path / "race.dot";
  auto r = runCli({"check", conformance("bakery2_race.tdm"), "--search", "bfs", "--dot",
                   dot.string(), "--dot-max-states", "5"});
  CHECK(r.rc == 1);
  std::ifstream in(dot);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The 6 steps of the counterexample: 5 red edges between states and the one into the error,
  // drawn although the graph is cut at 5 states.
  size_t red = 0;
  for (size_t at = all.find("color=red, fontcolor=red"); at != std::string::npos;
       at = all.find("color=red, fontcolor=red", at + 1))
    ++red;
  CHECK(red == 6);
  CHECK(all.find("-> error [label=\"P") != std::string::npos);
  CHECK(all.find(
            "error [label=\"error: invariant (line 31)\\ninvariant 'mutex' violated\\nP1@D P2@D") !=
        std::string::npos);
  CHECK(all.find("red: the counterexample (6 steps) and the error") != std::string::npos);
  CHECK(all.find("truncated: the first 5 of") != std::string::npos);
  CHECK(all.find("s0 -> s1 [label=\"P") != std::string::npos);
}

}  // namespace tandem
