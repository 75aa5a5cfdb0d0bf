// BEEM models (DVE) against the published figures: for every instance of
// shared/external/beem/expected/mutex_expected.csv that has a count and is small enough for the
// suite, `tandem check --json` must report exactly the expected number of states and transitions
// under dfs and bfs, and for the mutual-exclusion families the BEEM "prop1" verdict (two or more
// processes in CS) must match: reachable -> error with a replayed trace ending in two processes
// in CS; safe -> verified. The large instances run in bench/.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "mc/dve/import.h"
#include "mc/lang/diagnostics.h"

namespace fs = std::filesystem;

namespace {

#ifdef TANDEM_SANITIZED
constexpr long kSuiteLimit = 5000;  // states under ASan+UBSan (see tests/CMakeLists.txt)
#else
constexpr long kSuiteLimit = 200000;  // states; larger instances belong to bench/
#endif

struct Row {
  std::string instance, family, verdict;
  long states = -1, transitions = -1;
};

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.push_back(cur), cur.clear();
    else
      cur += c;
  }
  out.push_back(cur);
  return out;
}

std::vector<Row> readExpected(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    auto f = splitCsv(line);
    if (f.size() < 7) continue;
    Row r;
    r.instance = f[0];
    r.family = f[1];
    r.verdict = f[6];
    try {
      r.states = std::stol(f[4]);
      r.transitions = std::stol(f[5]);
    } catch (...) {
      continue;  // UNVERIFIED counts
    }
    rows.push_back(r);
  }
  return rows;
}

nlohmann::json check(const std::vector<std::string>& extra, int& rc) {
  std::vector<std::string> args{"tandem", "check", "--json", "--quiet", "--no-deadlock"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  rc = tandem::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  INFO(err.str());
  return nlohmann::json::parse(out.str());
}

// "!((A@CS && B@CS) || ...)" over the processes that have a CS state.
std::string prop1(const fs::path& model) {
  std::ifstream in(model);
  std::stringstream ss;
  ss << in.rdbuf();
  tandem::SourceFile file(model.string(), ss.str());
  tandem::Diagnostics d(&file);
  auto p = tandem::importDve(file, d);
  REQUIRE(p);
  std::vector<std::string> cs;
  for (auto c : p->processes) {
    for (auto l : p->cfas[c].locs)
      for (auto& name : p->locs[l].labels)
        if (name == "CS") cs.push_back(p->cfas[c].name);
  }
  std::string pairs;
  for (size_t i = 0; i < cs.size(); ++i)
    for (size_t j = i + 1; j < cs.size(); ++j)
      pairs +=
          (pairs.empty() ? "" : " || ") + std::string("(") + cs[i] + "@CS && " + cs[j] + "@CS)";
  return "!(" + pairs + ")";
}

}  // namespace

TEST_CASE("beem: state counts and prop1 verdicts of mutex_expected.csv") {
  fs::path beem = fs::path(TANDEM_SHARED_DIR) / "external" / "beem";
  auto rows = readExpected(beem / "expected" / "mutex_expected.csv");
  REQUIRE(rows.size() >= 15);
  int ran = 0;
  for (const auto& r : rows) {
    if (r.states > kSuiteLimit) continue;
    fs::path model = beem / "dve" / (r.instance + ".dve");
    CAPTURE(r.instance);
    for (const char* search : {"dfs", "bfs"}) {
      CAPTURE(search);
      int rc = 0;
      auto j = check({model.string(), "--search", search}, rc);
      CHECK(rc == 0);
      CHECK(j["verdict"] == "verified");
      CHECK(j["stats"]["states"] == r.states);
      CHECK(j["stats"]["transitions"] == r.transitions);
    }
    ++ran;
    if (r.family == "msmie") continue;             // its prop1 is another property (NOTES.md)
    if (r.family == "gear (not mutex)") continue;  // rendezvous channels, no critical section
    int rc = 0;
    auto j = check({model.string(), "--search", "bfs", "--invariant", prop1(model)}, rc);
    if (r.verdict == "safe") {
      CHECK(j["verdict"] == "verified");
      CHECK(rc == 0);
    } else {
      REQUIRE(r.verdict == "reachable");
      CHECK(j["verdict"] == "error");
      CHECK(rc == 1);
      CHECK(j["error"]["kind"] == "invariant");
      auto& trace = j["error"]["trace"];
      REQUIRE(!trace.empty());
      int inCs = 0;
      for (auto& [proc, loc] : trace.back()["locations"].items()) inCs += loc == "CS" ? 1 : 0;
      CHECK(inCs >= 2);
    }
  }
  CHECK(ran >= (kSuiteLimit > 100000 ? 15 : 5));
}

namespace {

#ifdef TANDEM_SANITIZED
constexpr long kCountLimit = 5000;  // states, under ASan+UBSan
#else
constexpr long kCountLimit = 50000;   // states; the rest of the suite is in bench/beem_suite.py
#endif

struct Count {
  std::string instance;
  long states = -1, transitions = -1;
};

// state_counts_helena.csv: instance,states,transitions,source.
std::vector<Count> readCounts(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  std::vector<Count> out;
  while (std::getline(in, line)) {
    auto f = splitCsv(line);
    if (f.size() < 3) continue;
    out.push_back(Count{f[0], std::stol(f[1]), std::stol(f[2])});
  }
  return out;
}

}  // namespace

// Every instance of the 204 (channels, buffered and rendezvous, included) up to the limit:
// Helena's exact state and transition counts under dfs and bfs.
TEST_CASE("beem: the exact counts of every small instance of state_counts_helena.csv") {
  fs::path beem = fs::path(TANDEM_SHARED_DIR) / "external" / "beem";
  auto rows = readCounts(beem / "expected" / "state_counts_helena.csv");
  REQUIRE(rows.size() == 204);
  int ran = 0, channels = 0;
  for (const Count& r : rows) {
    if (r.states > kCountLimit) continue;
    fs::path model = beem / "dve" / (r.instance + ".dve");
    std::ifstream in(model);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find("channel") != std::string::npos) ++channels;
    CAPTURE(r.instance);
    for (const char* search : {"dfs", "bfs"}) {
      CAPTURE(search);
      int rc = 0;
      auto j = check({model.string(), "--search", search}, rc);
      CHECK(rc == 0);
      CHECK(j["stats"]["states"] == r.states);
      CHECK(j["stats"]["transitions"] == r.transitions);
    }
    ++ran;
  }
  CHECK(ran >= (kCountLimit > 10000 ? 82 : 29));  // the instances up to 50,000 (5,000) states
  CHECK(channels >= (kCountLimit > 10000 ? 51 : 17));
}

// The prop1 verdicts of bench/beem_prop1.tsv (definitions read from the beem-btor encodings of
// the BEEM properties) for the instances up to the limit: reachable -> an invariant error,
// safe -> verified.
TEST_CASE("beem: prop1 verdicts of reachability_prop1_expected.txt") {
  fs::path beem = fs::path(TANDEM_SHARED_DIR) / "external" / "beem";
  std::map<std::string, long> states;
  for (const Count& r : readCounts(beem / "expected" / "state_counts_helena.csv"))
    states[r.instance] = r.states;
  std::map<std::string, std::string> expected;  // the shared file is the reference
  {
    std::ifstream in(beem / "expected" / "reachability_prop1_expected.txt");
    std::string line;
    while (std::getline(in, line)) {
      auto dot = line.find(".prop1: ");
      if (dot != std::string::npos) expected[line.substr(0, dot)] = line.substr(dot + 8);
    }
  }
  std::ifstream tsv(fs::path(TANDEM_SOURCE_DIR) / "bench" / "beem_prop1.tsv");
  std::string line;
  int ran = 0, reachable = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("instance\t", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    REQUIRE(f.size() >= 3);
    CAPTURE(f[0]);
    REQUIRE(expected.count(f[0]));
    CHECK(expected[f[0]] == f[1]);
    if (!states.count(f[0]) || states[f[0]] > kCountLimit) continue;
    int rc = 0;
    fs::path model = beem / "dve" / (f[0] + ".dve");
    auto j = check({model.string(), "--search", "bfs", "--invariant", f[2]}, rc);
    if (f[1] == "safe") {
      CHECK(j["verdict"] == "verified");
    } else {
      CHECK(j["verdict"] == "error");
      CHECK(j["error"]["kind"] == "invariant");
      ++reachable;
    }
    ++ran;
  }
  CHECK(ran >= (kCountLimit > 10000 ? 63 : 22));
  CHECK(reachable >= (kCountLimit > 10000 ? 28 : 8));
}
