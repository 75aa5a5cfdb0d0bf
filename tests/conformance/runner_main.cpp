// tandem_conformance_runner: runs the RUN/EXPECT directives of conformance files (spec/CLI.md,
// "Conformance files") and prints PASS/FAIL/SKIP per RUN line and a summary line.
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/conformance/directives.h"
#include "tests/conformance/discovery.h"
#include "tests/conformance/runner.h"
#include "tests/conformance/text.h"

namespace tandem::conformance {

namespace {

constexpr std::string_view kUsage =
    "usage: tandem_conformance_runner --tandem PATH [--filter SUBSTR] [--extra-args \"ARGS\"]\n"
    "                                 [--default-args \"ARGS\"] [--timeout SECONDS]\n"
    "                                 [--forbid-stderr TEXT] DIR_OR_FILE...\n"
    "Runs every RUN line of every *.tdm and *.smt2 file under each DIR (or of each FILE). --filter "
    "keeps\n"
    "the RUN lines whose 'file:line  tandem args' contains SUBSTR; --extra-args is appended to\n"
    "every RUN line whose command takes those options (tandem --list-options); --default-args\n"
    "likewise, but only where the RUN line does not give the option itself; --timeout bounds\n"
    "each run (default 120); --forbid-stderr fails a RUN line whose standard error contains\n"
    "TEXT. RUN lines with options tandem does not list are skipped. Exit 1 if any RUN line\n"
    "failed.\n";

struct Options {
  RunnerConfig config;
  std::string extraText;  // --extra-args as given, for the printed lines
  std::string filter;
  std::vector<std::string> roots;
};

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
};

std::optional<Options> usageError(const std::string& message) {
  std::cerr << "tandem_conformance_runner: " << message << "\n" << kUsage;
  return std::nullopt;
}

std::optional<Options> parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool takesValue = arg == "--tandem" || arg == "--filter" || arg == "--extra-args" ||
                      arg == "--default-args" || arg == "--timeout" || arg == "--forbid-stderr";
    if (takesValue) {
      if (i + 1 >= argc) return usageError(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--tandem") {
      o.config.tandem = value;
    } else if (arg == "--filter") {
      o.filter = value;
    } else if (arg == "--forbid-stderr") {
      o.config.forbidStderr = value;
    } else if (arg == "--extra-args") {
      SplitResult split = splitArgs(value);
      if (!split.error.empty()) return usageError("--extra-args: " + split.error);
      o.config.extraArgs = split.words;
      o.extraText += (o.extraText.empty() ? "" : " ") + std::string(trim(value));
    } else if (arg == "--default-args") {
      SplitResult split = splitArgs(value);
      if (!split.error.empty()) return usageError("--default-args: " + split.error);
      o.config.defaultArgs = split.words;
      o.extraText +=
          (o.extraText.empty() ? "" : " ") + std::string("[") + std::string(trim(value)) + "]";
    } else if (arg == "--timeout") {
      double seconds = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
      if (ec != std::errc() || end != value.data() + value.size() || !(seconds > 0)) {
        return usageError("--timeout takes a positive number of seconds");
      }
      o.config.timeout = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
    } else if (arg.starts_with("-")) {
      return usageError("unknown option " + arg);
    } else {
      o.roots.push_back(arg);
    }
  }
  if (o.config.tandem.empty()) return usageError("--tandem PATH is required");
  if (o.roots.empty()) return usageError("no DIR_OR_FILE given");
  return o;
}

void printIndented(std::string_view text) {
  for (std::string_view line : split(text, '\n')) std::cout << "    " << line << '\n';
}

void report(const std::string& where, const std::string& command, const RunResult& r,
            Tally& tally) {
  switch (r.outcome) {
    case Outcome::Pass:
      ++tally.passed;
      std::cout << "PASS " << where << "  " << command << '\n';
      break;
    case Outcome::Skip:
      ++tally.skipped;
      std::cout << "SKIP " << where << "  " << command << " (" << r.skipReason << ")\n";
      break;
    case Outcome::Fail:
      ++tally.failed;
      std::cout << "FAIL " << where << "  " << command << '\n';
      for (const std::string& p : r.problems) printIndented(p);
      for (const ExpectResult& e : r.expects) {
        if (!e.passed) printIndented(e.message);
      }
      break;
  }
  std::cout.flush();
}

int runAll(const Options& o) {
  Tally tally;
  Discovery found = discoverFiles(o.roots);
  for (const std::string& e : found.errors) {
    ++tally.failed;
    std::cout << "FAIL " << e << '\n';
  }

  CommandList commands = listCommands(o.config.tandem, o.config.timeout);
  if (!commands.warning.empty()) std::cout << "warning: " << commands.warning << std::endl;

  for (const std::string& path : found.files) {
    ParsedFile file = readDirectives(path);
    for (const FileError& e : file.errors) {
      std::string where = path + ":" + std::to_string(e.line);
      if (where.find(o.filter) == std::string::npos) continue;
      ++tally.failed;
      std::cout << "FAIL " << where << "  " << e.message << '\n';
    }
    for (const RunLine& run : file.runs) {
      std::string where = path + ":" + std::to_string(run.line);
      std::string command = run.text;
      if (!o.extraText.empty()) command += " " + o.extraText;
      if ((where + "  " + command).find(o.filter) == std::string::npos) continue;
      report(where, command, checkRun(run, o.config, commands), tally);
    }
  }

  std::cout << tally.passed << " passed, " << tally.failed << " failed, " << tally.skipped
            << " skipped\n";
  return tally.failed > 0 ? 1 : 0;
}

}  // namespace

}  // namespace tandem::conformance

int main(int argc, char** argv) {
  auto options = tandem::conformance::parseOptions(argc, argv);
  if (!options) return 2;
  return tandem::conformance::runAll(*options);
}
