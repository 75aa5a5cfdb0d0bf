// `tandem replay FILE REPORT.json` (issue #17): the counterexample of a saved --json report of
// check, prove or testgen re-executed step by step. It reproduces (exit 1; 3 from a fabricated
// state) on the model it came from, and on a changed model names the first step that differs
// (exit 4); a report without a counterexample, or no JSON at all, is bad input (exit 2).
#include <doctest/doctest.h>

#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using nlohmann::json;
using test::runTandem;

std::string shared(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}
std::string source(const std::string& name) { return std::string(TANDEM_SOURCE_DIR) + "/" + name; }

// Saves the report of `args` (which ends in error) and replays it on `model`.
test::CliResult saveAndReplay(const test::TempDir& tmp, std::vector<std::string> args,
                              const std::string& model) {
  args.push_back("--json");
  args.push_back("--quiet");
  auto saved = runTandem(args);
  REQUIRE(saved.report.is_object());
  REQUIRE(saved.report.contains("error"));
  tmp.write("saved.json", saved.out);
  auto r = runTandem({"replay", model, tmp.file("saved.json"), "--json"});
  CAPTURE(r.out);
  CAPTURE(r.err);
  if (r.rc == 1 || r.rc == 3) {
    CHECK(r.report["error"]["kind"] == saved.report["error"]["kind"]);
    CHECK(r.report["replayed_steps"] == saved.report["error"]["trace"].size());
    CHECK(r.report["replayed_command"] == saved.report["command"]);
  }
  return r;
}

TEST_CASE("replay: the counterexamples of check, prove and testgen reproduce") {
  test::TempDir tmp;
  const std::string race = shared("bakery2_race.tdm");
  CHECK(saveAndReplay(tmp, {"check", race}, race).rc == 1);
  CHECK(saveAndReplay(tmp, {"check", race, "--search", "bfs"}, race).rc == 1);
  CHECK(saveAndReplay(tmp, {"prove", race}, race).rc == 1);
  // Open systems: the entry comes from the report.
  const std::string foo = shared("foo_null.tdm");
  CHECK(saveAndReplay(tmp, {"check", foo, "--entry", "foo"}, foo).rc == 1);
  const std::string fill = source("examples/off_by_one.tdm");
  CHECK(saveAndReplay(tmp, {"testgen", fill, "--entry", "fill"}, fill).rc == 1);
  // Class analyses: check's calls are in the report; prove's are steps of the trace.
  const std::string stack = source("models/prove/bounded_stack_inv_bug.tdm");
  CHECK(saveAndReplay(tmp, {"check", stack, "--class", "BoundedStack"}, stack).rc == 1);
  auto cls = saveAndReplay(tmp, {"prove", stack, "--class", "BoundedStack"}, stack);
  CHECK(cls.rc == 1);
  CHECK(cls.report["error"]["kind"] == "invariant");
}

TEST_CASE("replay: a potential error reproduces from its fabricated state (exit 3)") {
  test::TempDir tmp;
  const std::string model = source("tests/golden/traces/prove_potential.tdm");
  auto r = saveAndReplay(tmp, {"prove", model, "--entry", "foo", "--cutpoints", "all"}, model);
  CHECK(r.rc == 3);
  CHECK(r.report["verdict"] == "potential-error");
  CHECK(r.report["error"]["initial_fabricated"] == true);
}

TEST_CASE("replay: what the saved run was told (--check overflow, --invariant) comes along") {
  test::TempDir tmp;
  const std::string avg = source("examples/avg_overflow.tdm");
  auto o = saveAndReplay(tmp, {"check", avg, "--entry", "main", "--check", "assert,overflow"}, avg);
  CHECK(o.rc == 1);
  CHECK(o.report["error"]["kind"] == "overflow");
  const std::string pet = shared("peterson2.tdm");
  auto i = saveAndReplay(tmp, {"check", pet, "--invariant", "turn == 0"}, pet);
  CHECK(i.rc == 1);
  CHECK(i.report["error"]["kind"] == "invariant");
}

TEST_CASE("replay: deadlocks and initial-state violations") {
  test::TempDir tmp;
  const auto dead = tmp.write("dead.tdm",
                              "var a: int = 0;\n"
                              "process P { A: await a == 1; }\n"
                              "process Q { B: a := 2; C: await a == 0; }\n");
  auto d = saveAndReplay(tmp, {"check", dead.string()}, dead.string());
  CHECK(d.rc == 1);
  CHECK(d.report["error"]["kind"] == "deadlock");
  const auto bad = tmp.write("bad.tdm",
                             "var a: int = 3;\n"
                             "process P { A: a := 0; }\n"
                             "invariant small: a < 2;\n");
  auto b = saveAndReplay(tmp, {"check", bad.string()}, bad.string());
  CHECK(b.rc == 1);
  CHECK(b.report["error"]["trace"].empty());
}

TEST_CASE("replay: on a changed model, the first step that differs (exit 4)") {
  test::TempDir tmp;
  const std::string race = shared("bakery2_race.tdm");
  auto saved = runTandem({"check", race, "--search", "bfs", "--json"});
  REQUIRE(saved.rc == 1);
  // The same report with step 2's state tampered: no move leads there.
  json tampered = saved.report;
  auto& st = tampered["error"]["trace"][2]["state"];
  st[st.begin().key()] = 42;
  tmp.write("tampered.json", tampered.dump());
  auto r = runTandem({"replay", race, tmp.file("tampered.json"), "--json"});
  CHECK(r.rc == 4);
  CHECK(r.report["verdict"] == "unknown");
  CHECK(r.report["difference"]["step"] == 2);
  CHECK(r.report["replayed_steps"] == 2);
  CHECK_FALSE(r.report["difference"]["possible"].empty());
  auto text = runTandem({"replay", race, tmp.file("tampered.json")});
  CHECK(text.rc == 4);
  CHECK(text.out.find("step 2 differs") != std::string::npos);
  CHECK(text.out.find("moves possible there:") != std::string::npos);
}

TEST_CASE("replay: bad reports and command lines are exit 2") {
  test::TempDir tmp;
  const std::string pet = shared("peterson2.tdm");
  auto verified = runTandem({"check", pet, "--json"});
  REQUIRE(verified.rc == 0);
  tmp.write("verified.json", verified.out);
  auto v = runTandem({"replay", pet, tmp.file("verified.json")});
  CHECK(v.rc == 2);
  CHECK(v.err.find("no counterexample to replay") != std::string::npos);
  tmp.write("junk.json", "verdict: error\n");
  auto j = runTandem({"replay", pet, tmp.file("junk.json")});
  CHECK(j.rc == 2);
  CHECK(j.err.find("is not a JSON report") != std::string::npos);
  auto missing = runTandem({"replay", pet, tmp.file("none.json")});
  CHECK(missing.rc == 2);
  CHECK(missing.err.find("cannot open file: No such file") != std::string::npos);
  auto noReport = runTandem({"replay", pet});
  CHECK(noReport.rc == 2);
  CHECK(noReport.err.find("missing REPORT.json") != std::string::npos);
  auto flag = runTandem({"replay", pet, tmp.file("verified.json"), "--max-states", "3"});
  CHECK(flag.rc == 2);
  CHECK(flag.err.find("does not apply") != std::string::npos);
}

TEST_CASE("replay: a report of the wrong shape is exit 2, naming the file and the field") {
  // Each was an abort (exit 134) or an "internal error" (exit 4): nlohmann's type errors escaped.
  test::TempDir tmp;
  const std::string pet = shared("peterson2.tdm");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string step = R"({"process": "P", "statement": "skip;", "line": 3})";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"[]", "not a JSON object"},
      {deep, "nested deeper than 512 levels"},
      {R"({"error": {"kind": "assert", "trace": [1, 2]}})", "at /error/trace/0: expected a step"},
      {R"({"error": {"kind": "assert", "trace": [{"line": "4"}]}})",
       "at /error/trace/0/line: expected a line number"},
      {R"({"error": {"kind": "assert", "trace": [{"line": -4}]}})",
       "at /error/trace/0/line: expected a line number"},
      {R"({"error": {"kind": 7, "trace": []}})", "at /error/kind: expected a string"},
      {R"({"error": {"trace": {}}})", "at /error/trace: expected an array"},
      {R"({"error": {"trace": [], "initial_state": [1]}})",
       "at /error/initial_state: expected an object"},
      {R"({"invariants": [1], "error": {"trace": []}})", "at /invariants/0: expected a string"},
      {R"({"checks": "overflow", "error": {"trace": []}})", "at /checks: expected an array"},
      {R"({"calls": [{"args": 3}], "error": {"trace": []}})",
       "at /calls/0/args: expected an object"},
      {R"({"error": {"trace": [)" + step + R"(, {"state": 1}]}})",
       "at /error/trace/1/state: expected an object"},
      {R"({"error": 3})", "holds no counterexample"},
      {"", "is not a JSON report"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(cases[i].second);
    const std::string name = "bad" + std::to_string(i) + ".json";
    tmp.write(name, cases[i].first);
    auto r = runTandem({"replay", pet, tmp.file(name)});
    CHECK(r.rc == 2);
    CHECK(r.err.find(tmp.file(name) + ": error: ") != std::string::npos);
    CHECK(r.err.find(cases[i].second) != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
  }
  // Not regular files: a directory, a device (`/dev/zero` was a bad_alloc).
  for (const std::string& file : {tmp.file(""), std::string("/dev/zero")}) {
    auto r = runTandem({"replay", pet, file});
    CHECK(r.rc == 2);
    CHECK(r.err.find(file + ": error: ") != std::string::npos);
  }
}

}  // namespace
}  // namespace tandem
