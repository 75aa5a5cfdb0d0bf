// The command line of CLI.md, run in-process: help and command listing, usage errors (exit 2),
// `run` on open systems and its --args, the JSON report of `check`, and BEEM DVE models with
// `--invariant`.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using nlohmann::json;

std::string conformance(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}
std::string beem(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name;
}
std::string example(const std::string& name) {
  return std::string(TANDEM_SOURCE_DIR) + "/examples/" + name;
}

using test::CliResult;
CliResult tandem(std::vector<std::string> args) { return test::runTandem(std::move(args)); }

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// How many processes the trace step's `locations` puts at `label`.
int countAt(const json& step, const std::string& label) {
  int n = 0;
  if (!step.contains("locations")) return -1;
  for (const auto& el : step["locations"].items()) n += el.value() == label;
  return n;
}

}  // namespace

TEST_CASE("cli: --list-commands and --help") {
  auto list = tandem({"--list-commands"});
  CHECK(list.rc == 0);
  CHECK(list.err.empty());
  auto cmds = lines(list.out);
  for (const char* c : {"check", "cover", "ir", "run"})
    CHECK_MESSAGE(std::find(cmds.begin(), cmds.end(), c) != cmds.end(), c);

  auto help = tandem({"--help"});
  CHECK(help.rc == 0);
  CHECK(help.out.find("usage: tandem") != std::string::npos);
  // Every implemented command is listed, and nothing that is not built yet.
  for (const auto& c : cmds) CHECK(help.out.find("  " + c + " FILE") != std::string::npos);
  for (const char* f :
       {"--unwind", "--algo", "--prove-infeasible", "--no-guided", "--summaries", "--compositional",
        "--dse", "--target", "--max-executions", "--guide", "--max-interrupts", "--instrumented"})
    CHECK_MESSAGE(help.out.find(f) != std::string::npos, f);
  // The flags every analysis understands.
  for (const char* f : {"--entry", "--search", "--seed", "--max-depth", "--max-states", "--timeout",
                        "--memory-limit", "--check", "--json", "--trace", "--dot", "--stats",
                        "--invariant", "--quiet", "--deadlock", "--args"})
    CHECK_MESSAGE(help.out.find(f) != std::string::npos, f);
  CHECK(tandem({"-h"}).rc == 0);
}

TEST_CASE("cli: usage errors exit 2 with a message") {
  std::string pet = conformance("peterson2.tdm");
  SUBCASE("bad --check kind") {
    auto r = tandem({"check", pet, "--check", "assert,bogus"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("'bogus'") != std::string::npos);
    CHECK(r.out.empty());
    // Known kinds are accepted.
    CHECK(tandem({"check", pet, "--check", "assert,invariant", "--quiet"}).rc == 0);
  }
  SUBCASE("no command, unknown command, missing file") {
    CHECK(tandem({}).rc == 2);
    auto unknown = tandem({"frobnicate", pet});
    CHECK(unknown.rc == 2);
    CHECK(unknown.err.find("frobnicate") != std::string::npos);
    auto missing = tandem({"check"});
    CHECK(missing.rc == 2);
    CHECK(missing.err.find("missing FILE") != std::string::npos);
  }
  SUBCASE("a file that does not exist") {
    auto r = tandem({"check", "/nonexistent/dir/model.tdm"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("/nonexistent/dir/model.tdm") != std::string::npos);
  }
  SUBCASE("bad --search and an unknown flag") {
    auto s = tandem({"check", pet, "--search", "sideways"});
    CHECK(s.rc == 2);
    CHECK(s.err.find("sideways") != std::string::npos);
    CHECK(tandem({"check", pet, "--no-such-flag"}).rc == 2);
  }
  SUBCASE("an --invariant that does not check points into its own text") {
    auto r = tandem({"check", pet, "--invariant", "P[0]@Nope"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("--invariant:1:") != std::string::npos);
    CHECK(r.err.find("Nope") != std::string::npos);
  }
  SUBCASE("--max-predicates without --auto-predicates, or not positive") {
    std::string bakery = conformance("bakery2.tdm");
    auto r = tandem({"prove", bakery, "--max-predicates", "4"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("--max-predicates applies to default predicates") != std::string::npos);
    CHECK(tandem({"prove", bakery, "--auto-predicates", "--max-predicates", "0"}).rc == 2);
    CHECK(tandem({"prove", bakery, "--auto-predicates", "--max-predicates", "4", "--quiet"}).rc ==
          0);
  }
  SUBCASE("an open system without --entry") {
    auto r = tandem({"check", conformance("foo_null.tdm")});
    CHECK(r.rc == 2);
    CHECK(r.err.find("--entry") != std::string::npos);
  }
}

TEST_CASE("cli: run foo_null reports the null dereference at G for x = 3 only") {
  std::string foo = conformance("foo_null.tdm");
  auto bad = tandem({"run", foo, "--entry", "foo", "--args", "3,0"});
  CHECK(bad.rc == 1);
  CHECK(bad.out.find("null-deref at G") != std::string::npos);
  // The step-by-step listing names the locations it went through.
  for (const char* l : {"  A (line ", "  B (line ", "  D (line ", "  F (line ", "  G (line "})
    CHECK_MESSAGE(bad.out.find(l) != std::string::npos, l);
  CHECK(bad.out.find("  C (line ") == std::string::npos);  // x = 4 skips C

  auto badJson = tandem({"run", foo, "--entry", "foo", "--args", "3,0", "--json"});
  CHECK(badJson.rc == 1);
  REQUIRE(badJson.report.is_object());
  CHECK(badJson.report["verdict"] == "error");
  CHECK(badJson.report["error"]["kind"] == "null-deref");
  CHECK(badJson.report["error"]["label"] == "G");
  CHECK(badJson.report["error"]["line"] == 25);
  REQUIRE_FALSE(badJson.report["error"]["trace"].empty());
  CHECK(badJson.report["error"]["trace"].back()["label"] == "G");

  auto good = tandem({"run", foo, "--entry", "foo", "--args", "2,0"});
  CHECK(good.rc == 0);
  CHECK(good.out.find("error") == std::string::npos);
  CHECK(good.out.find("  C (line ") != std::string::npos);  // x = 3 < 4 takes C
  auto goodJson = tandem({"run", foo, "--entry", "foo", "--args", "2,0", "--json"});
  CHECK(goodJson.rc == 0);
  REQUIRE(goodJson.report.is_object());
  CHECK(goodJson.report["verdict"] == "completed");
  CHECK_FALSE(goodJson.report.contains("error"));
  CHECK(goodJson.report["final_state"]["x"] == 4);
}

TEST_CASE("cli: run rejects bad --args with exit 2 and a message") {
  std::string foo = conformance("foo_null.tdm");
  auto few = tandem({"run", foo, "--entry", "foo", "--args", "2"});
  CHECK(few.rc == 2);
  CHECK(few.err.find("takes 2 arguments") != std::string::npos);
  CHECK(few.out.empty());
  auto many = tandem({"run", foo, "--entry", "foo", "--args", "1,2,3"});
  CHECK(many.rc == 2);
  CHECK(many.err.find("takes 2 arguments") != std::string::npos);
  auto none = tandem({"run", foo, "--entry", "foo"});
  CHECK(none.rc == 2);
  for (const char* arg : {"2,x", "2,1.5", "two,0", "2,"}) {
    CAPTURE(arg);
    auto r = tandem({"run", foo, "--entry", "foo", "--args", arg});
    CHECK(r.rc == 2);
    CHECK(r.err.find("error") != std::string::npos);
    CHECK(r.out.empty());
  }
  auto word = tandem({"run", foo, "--entry", "foo", "--args", "2,x"});
  CHECK(word.err.find("'x'") != std::string::npos);
  CHECK(word.err.find("int") != std::string::npos);
  auto noProc = tandem({"run", foo, "--entry", "bar", "--args", "1,2"});
  CHECK(noProc.rc == 2);
  CHECK(noProc.err.find("bar") != std::string::npos);
}

TEST_CASE("cli: run shows the i32 wrap-around in its JSON report") {
  auto r = tandem({"run", example("wrap_i32.tdm"), "--entry", "double", "--args", "31", "--json"});
  CHECK(r.rc == 0);
  REQUIRE(r.report.is_object());
  CHECK(r.report["verdict"] == "completed");
  CHECK(r.report["final_state"]["small"] == -2147483648LL);
  CHECK(r.report["final_state"]["big"] == 2147483648LL);
  // The step that doubles 2^30 lands on -2^31 while `big` keeps growing.
  REQUIRE(r.report["trace"].is_array());
  bool wrapped = false;
  json prev;
  for (const auto& st : r.report["trace"]) {
    if (prev.is_object() && prev["small"] == 1073741824 && st["state"]["small"] == -2147483648LL)
      wrapped = st["statement"].get<std::string>().find("small") != std::string::npos;
    prev = st["state"];
  }
  CHECK(wrapped);
  // With one doubling fewer nothing wraps.
  auto r30 =
      tandem({"run", example("wrap_i32.tdm"), "--entry", "double", "--args", "30", "--json"});
  REQUIRE(r30.report.is_object());
  CHECK(r30.report["final_state"]["small"] == 1073741824);
  CHECK(r30.rc == 1);  // `assert small < 0` fails
  CHECK(r30.report["error"]["kind"] == "assert");
}

TEST_CASE("cli: check --json report keys follow CLI.md") {
  std::string pet = conformance("peterson2.tdm");
  auto ok = tandem({"check", pet, "--json"});
  CHECK(ok.rc == 0);
  REQUIRE(ok.report.is_object());
  const json& j = ok.report;
  CHECK(j["tool"] == "tandem");
  CHECK(j["command"] == "check");
  CHECK(j["file"] == pet);
  CHECK(j["verdict"] == "verified");
  CHECK_FALSE(j.contains("reason"));
  CHECK_FALSE(j.contains("error"));
  REQUIRE(j["stats"].is_object());
  for (const char* k :
       {"states", "transitions", "abstract_states", "fabricated_states", "solver_queries",
        "executions", "paths", "tests", "time_s", "peak_rss_mb"}) {
    CAPTURE(k);
    REQUIRE(j["stats"].contains(k));
    CHECK(j["stats"][k].is_number());
  }
  CHECK(j["stats"]["states"] == 20);
  CHECK(j["stats"]["transitions"] == 34);
  CHECK(j["stats"]["time_s"].get<double>() >= 0);
  CHECK(j["stats"]["peak_rss_mb"].get<double>() > 0);

  // An error: kind, label, line and a trace of steps with process, label, state.
  auto bad = tandem({"check", conformance("bakery2_race.tdm"), "--search", "bfs", "--json"});
  CHECK(bad.rc == 1);
  REQUIRE(bad.report.is_object());
  const json& e = bad.report["error"];
  CHECK(bad.report["verdict"] == "error");
  CHECK(e["kind"] == "invariant");
  CHECK(e["label"].is_string());
  CHECK(e["line"].is_number());
  REQUIRE(e["trace"].is_array());
  uint64_t i = 0;
  for (const auto& st : e["trace"]) {
    CHECK(st["step"] == i++);
    CHECK(st["process"].is_string());
    CHECK(st["label"].is_string());
    CHECK(st["state"].is_object());
    CHECK(st["state"].contains("x1"));
    CHECK(st["fabricated"] == false);
  }

  // Unknown: a reason.
  auto unk = tandem({"check", conformance("bakery2.tdm"), "--max-states", "50", "--json"});
  CHECK(unk.rc == 4);
  REQUIRE(unk.report.is_object());
  CHECK(unk.report["verdict"] == "unknown");
  CHECK(unk.report["reason"].is_string());

  // Text mode says the same.
  auto text = tandem({"check", pet});
  CHECK(text.rc == 0);
  CHECK(text.out.find("verified") != std::string::npos);
  CHECK_FALSE(text.report.is_object());
}

TEST_CASE("cli: DVE peterson with --invariant: verified for BEEM peterson.1, error for .2") {
  const std::string mutex = "!(P_0@CS && P_1@CS)";
  auto safe = tandem({"check", beem("peterson.1.dve"), "--invariant", mutex, "--json", "--quiet"});
  CHECK(safe.rc == 0);
  REQUIRE(safe.report.is_object());
  CHECK(safe.report["verdict"] == "verified");
  CHECK(safe.report["stats"]["states"] == 12498);

  auto bug = tandem({"check", beem("peterson.2.dve"), "--invariant", mutex, "--json", "--quiet"});
  CHECK(bug.rc == 1);
  REQUIRE(bug.report.is_object());
  CHECK(bug.report["verdict"] == "error");
  CHECK(bug.report["error"]["kind"] == "invariant");
  CHECK(bug.err.find("INTERNAL ERROR") == std::string::npos);
  const json& trace = bug.report["error"]["trace"];
  REQUIRE(trace.is_array());
  REQUIRE_FALSE(trace.empty());
  // The last state has P_0 and P_1 in CS (the seeded bug of BEEM's peterson.2).
  const json& last = trace.back();
  REQUIRE(last.contains("locations"));
  CHECK(last["locations"]["P_0"] == "CS");
  CHECK(last["locations"]["P_1"] == "CS");
  CHECK(countAt(last, "CS") >= 2);
  // The search stopped at the first violation: no earlier state had P_0 and P_1 both in CS.
  bool earlier = false;
  for (size_t k = 0; k + 1 < trace.size(); ++k)
    earlier =
        earlier || (trace[k]["locations"]["P_0"] == "CS" && trace[k]["locations"]["P_1"] == "CS");
  CHECK_FALSE(earlier);

  // Without the invariant there is nothing to violate.
  auto none = tandem({"check", beem("peterson.1.dve"), "--json", "--quiet", "--max-states", "100"});
  CHECK(none.rc == 4);
}

TEST_CASE("cli: an unsupported DVE construct exits 2 with FILE:LINE:COL") {
  std::string prop = beem("bakery.1.prop2.dve");
  for (const char* cmd : {"check", "ir", "run"}) {
    CAPTURE(cmd);
    auto r = tandem({cmd, prop});
    CHECK(r.rc == 2);
    CHECK(r.out.empty());
    std::smatch m;
    std::regex pos(R"(bakery\.1\.prop2\.dve:(\d+):(\d+): error: [^\n]*'accept')");
    REQUIRE(std::regex_search(r.err, m, pos));
    CHECK(m[1] == "41");
    CHECK(m[2] == "1");
    // The offending line and a caret follow.
    CHECK(r.err.find("accept q2;") != std::string::npos);
    CHECK(r.err.find("^") != std::string::npos);
  }
}

TEST_CASE("cli: --check takes one comma-separated word, so the file may follow it") {
  // `--check KIND,...` once swallowed every word after it, the file included.
  auto r = tandem({"prove", "--class", "BoundedStack", "--check", "index-out-of-bounds",
                   conformance("bounded_stack_fixed.tdm"), "--json"});
  CHECK(r.rc == 0);
  REQUIRE(r.report.is_object());
  CHECK(r.report["verdict"] == "proved");
  CHECK(r.report["class_invariant"] == "0 <= size && size <= max && max == len(elems)");
}

TEST_CASE("cli: prove and export-chc reject a --cutpoints value they do not know") {
  for (const char* cmd : {"prove", "export-chc"}) {
    CAPTURE(cmd);
    auto r = tandem({cmd, conformance("bakery2.tdm"), "--cutpoints", "some"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("--cutpoints must be") != std::string::npos);
  }
}

// ../shared/reported/vacuous_init.tdm: an unsatisfiable `init` verified and proved silently.
TEST_CASE("cli: a vacuous init is verified and proved with a warning") {
  test::TempDir dir;
  const std::string file = dir.write("vacuous.tdm",
                                     "var x: int;\ninit x > 0 && x < 0;\n"
                                     "process P { assert false; }\n")
                               .string();
  for (const char* command : {"check", "prove"}) {
    CAPTURE(command);
    CliResult r = tandem({command, file});
    CHECK(r.rc == 0);
    CHECK(r.err.find("warning: there is no initial state") != std::string::npos);
  }
}

}  // namespace tandem
