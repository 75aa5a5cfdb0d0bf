// The option table, walked (issue: engine core): every (command, option) pair is either honoured
// or a usage error (exit 2) that names the option. Nothing is accepted and ignored. Where an
// option has an observable effect on a small model, the effect is checked too.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
#include "mc/cli/option_table.h"
#include "mc/search/explore/mpi_transport.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string shared(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}

struct Result {
  int rc = -1;
  std::string out, err;
  json report;
};

Result tandem(std::vector<std::string> args) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  Result r;
  r.rc = cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
  r.out = o.str();
  r.err = e.str();
  r.report = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  return r;
}

// Files the walk writes (--dot, -o, --tests-out, --smt-log, --sarif, --junit) and reads
// (--predicates, --tests).
struct Scratch {
  Scratch()
      : dir(fs::temp_directory_path() / ("tandem_option_walk_" + std::to_string(::getpid()))) {
    fs::create_directories(dir);
    std::ofstream(path("preds.txt")) << "x1 <= x2\n";
    std::ofstream(path("foo_tests.tdm")) << "test foo(2, 0);\n";
    // Saved reports with a counterexample, for replay.
    save("race.json", {"check", shared("bakery2_race.tdm"), "--json"});
    save("foo.json", {"check", shared("foo_null.tdm"), "--entry", "foo", "--json"});
    save("stack.json",
         {"check", shared("bounded_stack.tdm"), "--class", "BoundedStack", "--json", "--quiet"});
  }
  void save(const std::string& name, std::vector<std::string> args) const {
    args.insert(args.begin(), "tandem");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ofstream out(path(name));
    std::ostringstream err;
    cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  fs::path dir;
};

// A command line where the option can take effect: the model and the flags it needs.
std::vector<std::string> context(cli::Command c, const std::string& option, const Scratch& tmp) {
  using C = cli::Command;
  const std::string foo = shared("foo_null.tdm"), stack = shared("bounded_stack_fixed.tdm");
  switch (c) {
    case C::Check:
      if (option == "class") return {"check", stack};
      if (option == "max-calls") return {"check", stack, "--class", "BoundedStack"};
      if (option == "entry") return {"check", foo};
      if (option == "heuristic" || option == "max-tries" || option == "paper-defaults")
        return {"check", foo, "--entry", "foo", "--solving", "mixed"};
      if (option == "dot-max-states")
        return {"check", shared("peterson2.tdm"), "--dot", tmp.path("g.dot")};
      if (option == "bitstate-bits")
        return {"check", shared("peterson2.tdm"), "--store", "bitstate"};
      if (option == "inputs" || option == "solving" || option == "tests")
        return {"check", foo, "--entry", "foo"};
      return {"check", shared("peterson2.tdm")};
    case C::Prove:
      if (option == "class") return {"prove", stack};
      if (option == "entry") return {"prove", foo, "--cutpoints", "all"};
      if (option == "max-predicates") return {"prove", shared("bakery2.tdm"), "--auto-predicates"};
      if (option == "max-refinements") return {"prove", shared("bakery2.tdm"), "--refine"};
      return {"prove", shared("bakery2.tdm")};
    case C::Testgen:
      if (option == "entry") return {"testgen", foo};
      if (option == "target" || option == "max-executions")
        return {"testgen", shared("abs_compositional.tdm"), "--entry", "testAbs",
                "--compositional"};
      if (option == "max-interrupts")
        return {"testgen", shared("deposit.tdm"), "--entry", "Deposit", "--guide", "may-must"};
      return {"testgen", foo, "--entry", "foo"};
    case C::Run:
      if (option == "entry") return {"run", foo, "--args", "2,0"};
      if (option == "args") return {"run", foo, "--entry", "foo"};
      if (option == "steps") return {"run", shared("peterson2.tdm")};
      return {"run", shared("peterson2.tdm"), "--steps", "20"};
    case C::Ir:
      return {"ir", shared("peterson2.tdm")};
    case C::ExportChc:
      if (option == "entry") return {"export-chc", foo};
      return {"export-chc", shared("bakery2.tdm")};
    case C::Cover:
      if (option == "entry") return {"cover", shared("unstructured.tdm")};
      return {"cover", shared("unstructured.tdm"), "--entry", "foo"};
    case C::Replay:
      if (option == "entry") return {"replay", foo, tmp.path("foo.json")};
      if (option == "class") return {"replay", shared("bounded_stack.tdm"), tmp.path("stack.json")};
      return {"replay", shared("bakery2_race.tdm"), tmp.path("race.json")};
  }
  return {};
}

// A value the option accepts in that context.
std::vector<std::string> value(const cli::OptionSpec& s, cli::Command c, const Scratch& tmp) {
  using V = cli::ValueKind;
  const std::map<std::string, std::string> special = {
      {"entry", "foo"},
      {"class", "BoundedStack"},
      {"args", "2,0"},
      {"check", "assert,invariant"},
      {"invariant",
       c == cli::Command::Prove || c == cli::Command::ExportChc || c == cli::Command::Replay
           ? "x1 >= 0"
       : c == cli::Command::Testgen ? "0 <= 1"
                                    : "turn >= 0"},
      {"dot", tmp.path("graph.dot")},
      {"output", tmp.path("out.smt2")},
      {"smt-log", tmp.path("log.smt2")},
      {"tests-out", tmp.path("tests.json")},
      {"predicates", tmp.path("preds.txt")},
      {"tests", tmp.path("foo_tests.tdm")},
      {"sarif", tmp.path("report.sarif")},
      {"junit", tmp.path("report.xml")},
      {"annotate", tmp.path("annotated.tdm")},
      {"certificate", tmp.path("certificate.smt2")},
      {"fail-on", "unknown"},
      {"natives", TANDEM_TEST_PLUGIN},
      {"heuristic", "partition"},
      {"solving", "mixed"},
      {"search", "bfs"},
      {"solver", "cvc5"},
      {"cutpoints", "all"},
      {"engine", "eager"},
      {"inputs", "tests"},
      {"target", "TARGET"},
      {"timeout", "100"},
      {"triage-timeout", "5"},
      {"memory-limit", "100000"},
      {"bitstate-bits", "12"},
  };
  if (s.kind == V::Flag) return {};
  if (auto it = special.find(s.name); it != special.end()) return {it->second};
  if (s.kind == V::Choice) return {s.choices.front()};
  return {"3"};
}

// What the option visibly does, when it does something on these small models.
using Probe = std::function<void(const Result&)>;
std::map<std::string, Probe> probes(const Scratch& tmp) {
  auto exists = [&tmp](const std::string& name) {
    return [&tmp, name](const Result&) { CHECK(fs::exists(tmp.path(name))); };
  };
  return {
      {"json", [](const Result& r) { CHECK(r.report.is_object()); }},
      {"stats",
       [](const Result& r) {
         CHECK((r.out.find("time_s") != std::string::npos ||
                r.out.find(" s in all") != std::string::npos));
       }},
      {"dot", exists("graph.dot")},
      {"output", exists("out.smt2")},
      {"smt-log", exists("log.smt2")},
      {"tests-out", exists("tests.json")},
      {"sarif", exists("report.sarif")},
      {"junit", exists("report.xml")},
      {"annotate", exists("annotated.tdm")},
      {"certificate", exists("certificate.smt2")},
      {"max-states",
       [](const Result& r) {
         if (r.rc == 4) CHECK(r.out.find("bound") != std::string::npos);
       }},
  };
}

TEST_CASE("option walk: every (command, option) pair is honoured or exit 2 naming the option") {
  Scratch tmp;
  const auto effects = probes(tmp);
  int honoured = 0, refused = 0;
  for (cli::Command c : cli::allCommands()) {
    for (const cli::OptionSpec& s : cli::optionTable()) {
      if (!s.commands) continue;  // --help and friends need no command
      std::vector<std::string> args = context(c, s.name, tmp);
      args.push_back("--" + s.name);
      for (const std::string& v : value(s, c, tmp)) args.push_back(v);
      args.push_back("--quiet");
      if (s.name == "quiet" || c == cli::Command::Ir) args.pop_back();
      std::string line;
      for (const auto& a : args) line += a + " ";
      CAPTURE(line);
      Result r = tandem(args);
      if (!s.appliesTo(c)) {
        ++refused;
        CHECK(r.rc == 2);
        CHECK(r.err.find("--" + s.name) != std::string::npos);
        CHECK(r.err.find("does not apply") != std::string::npos);
        continue;
      }
      ++honoured;
      if (s.name == "distributed" && !search::mpiBuiltIn()) {  // honoured by saying so
        CHECK(r.rc == 2);
        CHECK(r.err.find("built without MPI") != std::string::npos);
        continue;
      }
      CHECK_MESSAGE(r.rc != 2, r.err);
      if (auto it = effects.find(s.name); it != effects.end() && r.rc != 2) it->second(r);
    }
  }
  CHECK(honoured > 100);
  CHECK(refused > 50);
}

TEST_CASE("option walk: negative, zero and malformed bounds are usage errors naming the flag") {
  const std::string pet = shared("peterson2.tdm");
  for (const char* flag :
       {"--max-states", "--max-depth", "--memory-limit", "--timeout", "--solver-timeout-ms",
        "--max-tries", "--triage-max-states", "--triage-max-depth", "--stall", "--execute-bound"}) {
    for (const char* v : {"-5", "0", "-1", "x", "1e999", ""}) {
      CAPTURE(flag);
      CAPTURE(v);
      const std::string f = flag;
      const bool proveOnly =
          f.find("triage") != std::string::npos || f == "--stall" || f == "--execute-bound";
      const char* cmd = proveOnly ? "prove" : "check";
      Result r = tandem({cmd, pet, flag, v});
      CHECK(r.rc == 2);
      CHECK(r.err.find(flag) != std::string::npos);
    }
  }
  Result steps = tandem({"run", pet, "--steps", "-1"});
  CHECK(steps.rc == 2);
  CHECK(steps.err.find("--steps") != std::string::npos);
}

TEST_CASE("option walk: an unknown enumeration value names the flag and the choices") {
  const std::string pet = shared("peterson2.tdm");
  for (const cli::OptionSpec& s : cli::optionTable()) {
    if (s.kind != cli::ValueKind::Choice) continue;
    cli::Command c = cli::Command::Check;
    for (cli::Command k : cli::allCommands())
      if (s.appliesTo(k)) c = k;
    CAPTURE(s.name);
    Result r = tandem({cli::commandName(c), pet, "--" + s.name, "sideways"});
    CHECK(r.rc == 2);
    CHECK(r.err.find("--" + s.name + " must be") != std::string::npos);
    CHECK(r.err.find(s.choices.front()) != std::string::npos);
  }
}

bool volatileKey(const std::string& k) {
  for (const char* part : {"time", "seconds", "memory", "rss", "_ms", "per_s"})
    if (k.find(part) != std::string::npos) return true;
  return k.size() > 2 && k.compare(k.size() - 2, 2, "_s") == 0;
}

// The report without what varies from run to run (times, memory).
json steady(json j) {
  if (j.is_object()) {
    json out = json::object();
    for (auto& [k, v] : j.items())
      if (!volatileKey(k)) out[k] = steady(v);
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (auto& v : j) out.push_back(steady(v));
    return out;
  }
  return j;
}

TEST_CASE("option walk: the defaults --help shows are the defaults") {
  // Giving an option its default value changes nothing: the same report, command by command.
  Scratch tmp;
  int compared = 0;
  for (const cli::OptionSpec& s : cli::optionTable()) {
    if (!s.apply || s.kind == cli::ValueKind::Flag || s.kind == cli::ValueKind::List ||
        s.kind == cli::ValueKind::Repeated || s.name == "output" ||  // "all", "stdout": words
        s.name == "trace-format")  // shapes the text report only (with --json, an error)
      continue;
    for (cli::Command c : cli::allCommands()) {
      if (!s.appliesTo(c)) continue;
      std::string v =
          s.defaultFor && s.defaultFor->first == c ? s.defaultFor->second : s.defaultText;
      // Defaults in words ("none", "all", "on a terminal", per command) are not values.
      if (v.empty()) continue;
      if (s.kind == cli::ValueKind::Choice &&
          std::find(s.choices.begin(), s.choices.end(), v) == s.choices.end())
        continue;
      if ((s.kind == cli::ValueKind::Count || s.kind == cli::ValueKind::Natural ||
           s.kind == cli::ValueKind::Seconds) &&
          v.find_first_not_of("0123456789.") != std::string::npos)
        continue;
      std::vector<std::string> args = context(c, s.name, tmp);
      if (s.name == "stall") args.push_back("--hybrid");  // the stall bounds hybrid runs
      args.push_back("--json");
      args.push_back("--quiet");
      std::vector<std::string> withDefault = args;
      withDefault.push_back("--" + s.name);
      withDefault.push_back(v);
      std::string line;
      for (const auto& a : withDefault) line += a + " ";
      CAPTURE(line);
      Result plain = tandem(args), given = tandem(withDefault);
      CHECK(plain.rc == given.rc);
      CHECK(steady(plain.report).dump(1) == steady(given.report).dump(1));
      ++compared;
    }
  }
  CHECK(compared > 20);
}

TEST_CASE("option walk: COMMAND --help lists that command's options with their defaults") {
  for (cli::Command c : cli::allCommands()) {
    Result r = tandem({cli::commandName(c), "--help"});
    CAPTURE(cli::commandName(c));
    CHECK(r.rc == 0);
    for (const cli::OptionSpec& s : cli::optionTable()) {
      if (!s.commands) continue;
      const bool listed = r.out.find("--" + s.name + " ") != std::string::npos ||
                          r.out.find("--" + s.name + "\n") != std::string::npos;
      CHECK_MESSAGE(listed == s.appliesTo(c), s.name);
    }
  }
  Result check = tandem({"check", "--help"});
  CHECK(check.out.find("(default=dfs)") != std::string::npos);
  // A command's own default: prove searches breadth first.
  CHECK(tandem({"prove", "--help"}).out.find("(default=bfs)") != std::string::npos);
  CHECK(check.out.find("--cutpoints") == std::string::npos);
}

TEST_CASE("option walk: with --json a usage or input error is a JSON report too") {
  Result usage = tandem({"check", shared("peterson2.tdm"), "--max-states", "0", "--json"});
  CHECK(usage.rc == 2);
  REQUIRE(usage.report.is_object());
  CHECK(usage.report["verdict"] == "usage-error");
  CHECK(usage.report["schema_version"] == 1);
  REQUIRE(usage.report["diagnostics"].size() == 1);
  CHECK(usage.report["diagnostics"][0]["message"].get<std::string>().find("--max-states") !=
        std::string::npos);
  CHECK(usage.err.find("--max-states") != std::string::npos);

  Result input =
      tandem({"ir", std::string(TANDEM_SOURCE_DIR) + "/tests/golden/several_errors.tdm", "--json"});
  CHECK(input.rc == 2);
  REQUIRE(input.report.is_object());
  CHECK(input.report["verdict"] == "input-error");
  REQUIRE(input.report["diagnostics"].size() == 3);
  CHECK(input.report["diagnostics"][0]["line"] == 3);
  CHECK(input.report["diagnostics"][0]["col"] == 16);
  CHECK(input.report["diagnostics"][1]["message"] == "unknown name 'b'");

  Result missing = tandem({"check", "/no/such/file.tdm", "--json"});
  CHECK(missing.rc == 2);
  CHECK(missing.report["verdict"] == "input-error");
  CHECK(missing.report["diagnostics"][0]["file"] == "/no/such/file.tdm");
}

}  // namespace
}  // namespace tandem
