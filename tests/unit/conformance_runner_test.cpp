// The conformance runner (tests/conformance): directives, expectations, skip rules, and running a
// fake `tandem` shell script.
#include <signal.h>
#include <stdlib.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/conformance/directives.h"
#include "tests/conformance/discovery.h"
#include "tests/conformance/expectation.h"
#include "tests/conformance/process.h"
#include "tests/conformance/runner.h"

namespace tandem::conformance {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tandem-conformance-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& contents, bool exec = false) {
    fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << contents;
    if (exec) fs::permissions(p, fs::perms::owner_all, fs::perm_options::add);
    return p.string();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Lists `check` and `prove`; `--report F` prints F as the report, `--exit N` sets the status,
// `--say T` writes T to stderr, `--sleep S` sleeps in a child (recording its pid in F.pid).
constexpr const char* kFakeTandem = R"(#!/bin/sh
if [ "$1" = "--list-commands" ]; then printf 'check\nprove\n'; exit 0; fi
status=0
while [ $# -gt 0 ]; do
  case "$1" in
    --report) cat "$2"; shift ;;
    --exit) status=$2; shift ;;
    --say) printf '%s\n' "$2" >&2; shift ;;
    --sleep) sleep "$2" & echo $! > "$0.pid"; wait; shift ;;
  esac
  shift
done
exit $status
)";

RunLine onlyRun(const std::string& text) {
  ParsedFile f = parseDirectives(text, "/m.tdm");
  REQUIRE(f.errors.empty());
  REQUIRE(f.runs.size() == 1);
  return f.runs[0];
}

Expectation expect(const std::string& text) {
  ParsedExpectation p = parseExpectation(text);
  INFO(p.error);
  REQUIRE(p.error.empty());
  return p.expectation;
}

CheckOutcome check(const std::string& text, const json& report) {
  return checkReport(expect(text), report);
}

// Dead or a zombie: the process-group kill reached it.
bool gone(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pidField, comm, state;
    if (stat >> pidField >> comm >> state && state == "Z") return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

const json kReport = json::parse(R"({
  "tool": "tandem", "verdict": "proved", "error": null,
  "stats": { "states": 20, "abstract_states": 16, "time_s": 0.25, "big": 18446744073709551615 },
  "covered_labels": ["S0", "S1", "S3"], "infeasible_labels": [],
  "flags": { "sound": true, "exact": false },
  "tests": [ { "labels": ["A", "G"], "result": "pass" } ]
})");

}  // namespace

TEST_CASE("conformance: splitArgs groups quoted words") {
  SplitResult s = splitArgs("  prove --invariant \"x <= y\" --name 'a b'c \"\" %s ");
  REQUIRE(s.error.empty());
  CHECK(s.words ==
        std::vector<std::string>{"prove", "--invariant", "x <= y", "--name", "a bc", "", "%s"});
  CHECK(splitArgs("prove 'open").error == "unterminated ' quote");
  CHECK(splitArgs("prove \"open").words.empty());
}

TEST_CASE("conformance: RUN lines take %s and own the EXPECT lines below them") {
  ParsedFile f = parseDirectives(
      "// A comment; RUN lines follow.\n"
      "// RUN: tandem prove --cutpoints all --json %s\n"
      "// EXPECT: verdict=proved\n"
      "//   EXPECT:  stats.abstract_states=16\n"
      "var x: int = 0;\n"
      "// RUN: tandem check --dot %s.dot %s\n"
      "// EXPECT: exit=4\n",
      "/c/bakery.tdm");
  REQUIRE(f.errors.empty());
  REQUIRE(f.runs.size() == 2);
  CHECK(f.runs[0].line == 2);
  CHECK(f.runs[0].text == "tandem prove --cutpoints all --json %s");
  CHECK(f.runs[0].args ==
        std::vector<std::string>{"prove", "--cutpoints", "all", "--json", "/c/bakery.tdm"});
  CHECK(f.runs[0].commandWord() == "prove");
  REQUIRE(f.runs[0].expects.size() == 2);
  CHECK(f.runs[0].expects[0].text == "verdict=proved");
  CHECK(f.runs[0].expects[1].key == "stats.abstract_states");
  CHECK(f.runs[0].errors.empty());
  CHECK(f.runs[1].args ==
        std::vector<std::string>{"check", "--dot", "/c/bakery.tdm.dot", "/c/bakery.tdm"});
  REQUIRE(f.runs[1].expects.size() == 1);
  CHECK(f.runs[1].expects[0].isExit());
}

TEST_CASE("conformance: malformed directives are errors") {
  SUBCASE("a malformed EXPECT fails its RUN line") {
    ParsedFile f = parseDirectives("// RUN: tandem check %s\n// EXPECT: verdict\n", "/m.tdm");
    REQUIRE(f.runs.size() == 1);
    REQUIRE(f.runs[0].errors.size() == 1);
    CHECK(f.runs[0].errors[0].find("line 2: malformed EXPECT 'verdict'") == 0);
  }
  SUBCASE("an EXPECT before any RUN") {
    ParsedFile f =
        parseDirectives("// EXPECT: exit=0\n// RUN: tandem ir %s\n// EXPECT: exit=0\n", "/m.tdm");
    REQUIRE(f.errors.size() == 1);
    CHECK(f.errors[0].line == 1);
  }
  SUBCASE("a RUN that is not tandem, or has an open quote, or checks nothing") {
    ParsedFile f = parseDirectives(
        "// RUN: tandm check %s\n// EXPECT: exit=0\n"
        "// RUN: tandem check --invariant 'x %s\n// EXPECT: exit=0\n"
        "// RUN: tandem check %s\n",
        "/m.tdm");
    REQUIRE(f.runs.size() == 3);
    CHECK(f.runs[0].errors.size() == 1);
    CHECK(f.runs[1].errors.size() == 1);
    REQUIRE(f.runs[2].errors.size() == 1);
    CHECK(f.runs[2].errors[0].find("checks nothing") != std::string::npos);
  }
  SUBCASE("a file without RUN lines") {
    ParsedFile f = parseDirectives("proc main() { skip; }\n", "/m.tdm");
    CHECK(f.runs.empty());
    CHECK(f.errors.size() == 1);
  }
  SUBCASE("bad EXPECT forms") {
    for (const char* bad :
         {"verdict", "=proved", "verdict==proved", "stats.states<=many", "stats.states<3",
          "exit>=1", "exit=one", "covered_labels has", "covered_labels has A,,B", "stats..states=1",
          "verdict=", "k contains A"}) {
      INFO(bad);
      CHECK_FALSE(parseExpectation(bad).error.empty());
    }
  }
}

TEST_CASE("conformance: EXPECT forms parse") {
  Expectation e = expect("covered_labels has S0, S1,S3");
  CHECK(e.op == ExpectOp::Has);
  CHECK(e.items == std::vector<std::string>{"S0", "S1", "S3"});
  CHECK(expect("infeasible_labels lacks DEEP").op == ExpectOp::Lacks);
  CHECK(expect("stats.tests<=3").op == ExpectOp::AtMost);
  CHECK(expect("stats.tests >= 4").op == ExpectOp::AtLeast);
  Expectation eq = expect("error.kind=null-deref");
  CHECK(eq.op == ExpectOp::Equal);
  CHECK(eq.key == "error.kind");
  CHECK(eq.value == "null-deref");
  CHECK(expect("exit=3").isExit());
}

TEST_CASE("conformance: KEY=VALUE compares by the report's type") {
  CHECK(check("verdict=proved", kReport).passed);
  CheckOutcome wrong = check("verdict=error", kReport);
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.message == "verdict=error: report has \"proved\"");
  CHECK(check("stats.abstract_states=16", kReport).passed);
  CHECK(check("stats.abstract_states=16.0", kReport).passed);  // numerically
  CHECK_FALSE(check("stats.abstract_states=17", kReport).passed);
  CHECK_FALSE(check("stats.abstract_states=sixteen", kReport).passed);
  CHECK(check("stats.time_s=0.25", kReport).passed);
  CHECK(check("stats.big=18446744073709551615", kReport).passed);
  CHECK_FALSE(check("stats.big=-1", kReport).passed);
  CHECK(check("flags.sound=true", kReport).passed);
  CHECK_FALSE(check("flags.exact=true", kReport).passed);
  CHECK_FALSE(check("flags.exact=0", kReport).passed);
  CHECK(check("error=null", kReport).passed);
  CHECK(check("tests.0.result=pass", kReport).passed);
  CHECK_FALSE(check("covered_labels=S0", kReport).passed);  // a list is not a single value
  // A string compares as a string: "016" is not "16".
  json stringy = {{"label", "16"}};
  CHECK(check("label=16", stringy).passed);
  CHECK_FALSE(check("label=016", stringy).passed);
}

TEST_CASE("conformance: KEY<=N and KEY>=N") {
  CHECK(check("stats.states<=20", kReport).passed);
  CHECK(check("stats.states>=20", kReport).passed);
  CHECK_FALSE(check("stats.states<=19", kReport).passed);
  CHECK_FALSE(check("stats.states>=21", kReport).passed);
  CHECK(check("stats.time_s<=0.5", kReport).passed);
  CHECK_FALSE(check("stats.time_s>=1", kReport).passed);
  CheckOutcome notNumber = check("verdict>=1", kReport);
  CHECK_FALSE(notNumber.passed);
  CHECK(notNumber.message.find("not a number") != std::string::npos);
}

TEST_CASE("conformance: has and lacks on lists of strings") {
  CHECK(check("covered_labels has S0,S3", kReport).passed);
  CheckOutcome missing = check("covered_labels has S0,S2,S4", kReport);
  CHECK_FALSE(missing.passed);
  CHECK(missing.message.find("missing S2,S4") != std::string::npos);
  CHECK(check("covered_labels lacks S2,S4", kReport).passed);
  CHECK_FALSE(check("covered_labels lacks S2,S3", kReport).passed);
  CHECK(check("infeasible_labels lacks DEEP", kReport).passed);
  CHECK_FALSE(check("infeasible_labels has DEAD", kReport).passed);
  CHECK(check("tests.0.labels has G", kReport).passed);
  CHECK_FALSE(check("verdict has proved", kReport).passed);  // not a list
}

TEST_CASE("conformance: a missing key fails with its path") {
  CheckOutcome r = check("stats.paths=2", kReport);
  CHECK_FALSE(r.passed);
  CHECK(r.message == "stats.paths: missing from report");
  CheckOutcome through = check("error.kind=assert", kReport);
  CHECK_FALSE(through.passed);
  CHECK(through.message == "error.kind: missing from report (error is null)");
  CHECK_FALSE(check("tests.5.result=pass", kReport).passed);
  CHECK_FALSE(check("uncovered_labels lacks A", kReport).passed);
}

TEST_CASE("conformance: exit=N") {
  CHECK(checkExit(expect("exit=3"), 3).passed);
  CHECK_FALSE(checkExit(expect("exit=3"), 0).passed);
  CHECK_FALSE(checkExit(expect("exit=0"), -1).passed);
}

TEST_CASE("conformance: skip rules") {
  std::set<std::string> listed = {"check"};
  CHECK_FALSE(skipBeforeRun(onlyRun("// RUN: tandem check %s\n// EXPECT: exit=0"), listed));
  auto prove = skipBeforeRun(onlyRun("// RUN: tandem prove %s\n// EXPECT: exit=0"), listed);
  REQUIRE(prove);
  CHECK(prove->find("'prove'") != std::string::npos);
  CHECK(skipBeforeRun(onlyRun("// RUN: tandem export-chc %s\n// EXPECT: exit=0"), {}));
  // Not a CLI.md command, or no command word: tandem decides.
  CHECK_FALSE(skipBeforeRun(onlyRun("// RUN: tandem porve %s\n// EXPECT: exit=2"), listed));
  CHECK_FALSE(skipBeforeRun(onlyRun("// RUN: tandem --version\n// EXPECT: exit=0"), listed));

  ProcessResult later;
  later.exitStatus = 2;
  later.err = "tandem: reading input\ntandem: --hybrid is not implemented yet (issue 12)\n";
  auto why = skipAfterRun(later);
  REQUIRE(why);
  CHECK(*why == "tandem: --hybrid is not implemented yet (issue 12)");
  RunLine run = onlyRun("// RUN: tandem prove --hybrid %s\n// EXPECT: verdict=proved");
  CHECK(evaluate(run, later).outcome == Outcome::Skip);

  later.exitStatus = 1;  // only with status 2
  CHECK_FALSE(skipAfterRun(later));
  later.exitStatus = 2;
  later.err = "m.tdm:3:5: error: expected ';'\n";
  CHECK_FALSE(skipAfterRun(later));
  CHECK(evaluate(run, later).outcome == Outcome::Fail);
}

TEST_CASE("conformance: evaluating a finished run") {
  RunLine run = onlyRun("// RUN: tandem check %s\n// EXPECT: verdict=error\n// EXPECT: exit=1");
  ProcessResult proc;
  proc.exitStatus = 1;
  proc.out = R"({"verdict": "error"})";
  RunResult ok = evaluate(run, proc);
  CHECK(ok.outcome == Outcome::Pass);
  REQUIRE(ok.expects.size() == 2);
  CHECK(ok.expects[0].passed);

  proc.exitStatus = 0;
  RunResult badExit = evaluate(run, proc);
  CHECK(badExit.outcome == Outcome::Fail);
  CHECK(badExit.expects[0].passed);
  CHECK_FALSE(badExit.expects[1].passed);

  SUBCASE("a failure shows the report's reason") {
    proc.out = R"({"verdict": "unknown", "reason": "needs symbolic execution"})";
    RunResult r = evaluate(run, proc);
    CHECK(r.outcome == Outcome::Fail);
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0] == "report reason: needs symbolic execution");
  }

  SUBCASE("stdout that is not JSON shows both streams, cut at 500 characters") {
    proc.out = "verdict: error " + std::string(600, 'x');
    proc.err = "oops";
    RunResult r = evaluate(run, proc);
    CHECK(r.outcome == Outcome::Fail);
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].find("stdout is not a JSON report") == 0);
    CHECK(r.problems[0].find("\nstdout: verdict: error xxx") != std::string::npos);
    CHECK(r.problems[0].find(std::string(501, 'x')) == std::string::npos);
    CHECK(r.problems[0].find("\nstderr: oops") != std::string::npos);
  }
  SUBCASE("exit=N alone needs no JSON") {
    RunLine exitOnly = onlyRun("// RUN: tandem ir %s\n// EXPECT: exit=0");
    proc.out = "not json";
    CHECK(evaluate(exitOnly, proc).outcome == Outcome::Pass);
  }
  SUBCASE("a crash fails") {
    RunLine exitOnly = onlyRun("// RUN: tandem ir %s\n// EXPECT: exit=0");
    proc.exitStatus = -1;
    proc.signal = SIGSEGV;
    CHECK(evaluate(exitOnly, proc).outcome == Outcome::Fail);
  }
}

TEST_CASE("conformance: running a fake tandem") {
  TempDir dir;
  std::string tandem = dir.write("tandem", kFakeTandem, true);
  std::string report = dir.write("report.json", R"({"verdict": "error", "stats": {"tests": 3}})");
  RunnerConfig config;
  config.tandem = tandem;
  config.timeout = 20s;

  CommandList commands = listCommands(tandem, 20s);
  CHECK(commands.warning.empty());
  CHECK(commands.names == std::set<std::string>{"check", "prove"});

  SUBCASE("output, stderr and exit status are captured") {
    ProcessResult r =
        runProcess(tandem, {"check", "--report", report, "--say", "hi", "--exit", "3"}, 20s);
    CHECK(r.spawnError.empty());
    CHECK(r.exitStatus == 3);
    CHECK(r.out.find("\"verdict\": \"error\"") != std::string::npos);
    CHECK(r.err == "hi\n");
  }
  SUBCASE("pass, fail and skip") {
    ParsedFile f = parseDirectives(
        "// RUN: tandem check --report " + report +
            " --exit 1 %s\n"
            "// EXPECT: verdict=error\n// EXPECT: stats.tests<=3\n// EXPECT: exit=1\n"
            "// RUN: tandem check --report " +
            report +
            " %s\n"
            "// EXPECT: stats.tests>=4\n// EXPECT: exit=0\n"
            "// RUN: tandem cover --report " +
            report +
            " %s\n// EXPECT: exit=0\n"
            "// RUN: tandem prove --say 'tandem: prove: not implemented yet' --exit 2 %s\n"
            "// EXPECT: exit=0\n",
        dir.write("m.tdm", ""));
    REQUIRE(f.runs.size() == 4);
    CHECK(checkRun(f.runs[0], config, commands.names).outcome == Outcome::Pass);
    RunResult failed = checkRun(f.runs[1], config, commands.names);
    CHECK(failed.outcome == Outcome::Fail);
    REQUIRE(failed.expects.size() == 2);
    CHECK_FALSE(failed.expects[0].passed);
    CHECK(failed.expects[1].passed);
    CHECK(checkRun(f.runs[2], config, commands.names).outcome == Outcome::Skip);
    RunResult later = checkRun(f.runs[3], config, commands.names);
    CHECK(later.outcome == Outcome::Skip);
    CHECK(later.skipReason == "tandem: prove: not implemented yet");
  }
  SUBCASE("extra arguments reach tandem") {
    RunLine run = onlyRun("// RUN: tandem check %s\n// EXPECT: exit=5");
    config.extraArgs = {"--exit", "5"};
    CHECK(checkRun(run, config, commands.names).outcome == Outcome::Pass);
  }
  SUBCASE("--forbid-stderr fails a line that passes otherwise") {
    RunLine run =
        onlyRun("// RUN: tandem check --say '*** SOLVER DISAGREEMENT' %s\n// EXPECT: exit=0");
    CHECK(checkRun(run, config, commands.names).outcome == Outcome::Pass);
    config.forbidStderr = "***";
    RunResult r = checkRun(run, config, commands.names);
    CHECK(r.outcome == Outcome::Fail);
    REQUIRE_FALSE(r.problems.empty());
    CHECK(r.problems.back().find("SOLVER DISAGREEMENT") != std::string::npos);
  }
  SUBCASE("a timeout kills the child and what it started") {
    RunLine run = onlyRun("// RUN: tandem check --sleep 30 %s\n// EXPECT: exit=0");
    config.timeout = 300ms;
    auto start = std::chrono::steady_clock::now();
    RunResult r = checkRun(run, config, commands.names);
    CHECK(std::chrono::steady_clock::now() - start < 10s);
    CHECK(r.outcome == Outcome::Fail);
    REQUIRE_FALSE(r.problems.empty());
    CHECK(r.problems[0].find("timed out") == 0);
    std::ifstream pidFile(tandem + ".pid");
    pid_t sleeper = 0;
    pidFile >> sleeper;
    REQUIRE(sleeper > 0);
    CHECK(gone(sleeper));
  }
  SUBCASE("a program that cannot start") {
    ProcessResult r = runProcess((dir.path() / "missing").string(), {}, 5s);
    CHECK_FALSE(r.spawnError.empty());
    CommandList none = listCommands((dir.path() / "missing").string(), 5s);
    CHECK(none.names.empty());
    CHECK_FALSE(none.warning.empty());
  }
}

TEST_CASE("conformance: discovery finds every .tdm file, sorted") {
  TempDir dir;
  dir.write("b.tdm", "");
  dir.write("a.tdm", "");
  dir.write("notes.txt", "");
  dir.write("sub/c.tdm", "");
  Discovery d = discoverFiles({dir.path().string()});
  CHECK(d.errors.empty());
  CHECK(d.files == std::vector<std::string>{(dir.path() / "a.tdm").string(),
                                            (dir.path() / "b.tdm").string(),
                                            (dir.path() / "sub/c.tdm").string()});
  CHECK(discoverFiles({(dir.path() / "nowhere").string()}).errors.size() == 1);
  fs::create_directory(dir.path() / "empty");
  Discovery empty = discoverFiles({(dir.path() / "empty").string()});
  CHECK(empty.files.empty());
  CHECK(empty.errors.size() == 1);
}

}  // namespace tandem::conformance
