// --stats in text (issue #17 item 7): SPIN's summary for an explicit-state search (state vector,
// stored and matched states, the hash table's load, memory by part, time), and one counter per
// line elsewhere, never a raw JSON blob.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

std::string shared(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}

TEST_CASE("--stats: SPIN's summary for check, whose counts add up") {
  auto text = test::runTandem({"check", shared("peterson2.tdm"), "--stats"});
  REQUIRE(text.rc == 0);
  for (const char* part : {"State-vector ", " states, stored\n", " states, matched\n",
                           "hash table: ", "memory usage (MB):\n", " hash table\n",
                           "peak resident set: ", " s exploring, "})
    CHECK_MESSAGE(text.out.find(part) != std::string::npos, part);
  CHECK(text.out.find('{') == std::string::npos);
  auto json = test::runTandem({"check", shared("peterson2.tdm"), "--json"});
  const auto& st = json.report["stats"];
  // One initial state: every transition either stored a new state or matched a stored one.
  CHECK(st["transitions"].get<uint64_t>() + 1 ==
        st["states"].get<uint64_t>() + st["matched_states"].get<uint64_t>());
  CHECK(st["state_vector_bytes"].get<double>() > 0);
  CHECK(st["hash_load"].get<double>() ==
        doctest::Approx(st["states"].get<double>() / st["hash_slots"].get<double>()));
  CHECK(st["memory_bytes"]["hash_table"].get<uint64_t>() == 8 * st["hash_slots"].get<uint64_t>());
}

TEST_CASE("--stats: other commands print one counter per line") {
  auto r = test::runTandem({"prove", shared("peterson2.tdm"), "--stats"});
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("\nabstract_states: ") != std::string::npos);
  CHECK(r.out.find('{') == std::string::npos);
}

}  // namespace
}  // namespace tandem
