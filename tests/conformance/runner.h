// Checking one RUN line: run tandem, decide pass, fail or skip, and say why.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/conformance/directives.h"
#include "tests/conformance/process.h"

namespace tandem::conformance {

enum class Outcome { Pass, Fail, Skip };

struct ExpectResult {
  std::string text;  // the EXPECT as written
  bool passed = false;
  std::string message;
};

struct RunResult {
  Outcome outcome = Outcome::Fail;
  std::string skipReason;
  std::vector<std::string> problems;  // failures tied to no single EXPECT: crash, timeout, bad JSON
  std::vector<ExpectResult> expects;
};

struct RunnerConfig {
  std::string tandem;  // path of the tandem executable
  // Appended to every RUN line (`--solver cvc5`), option by option: an option that does not
  // apply to the line's command (tandem --list-options) is left out, as tandem would refuse it.
  std::vector<std::string> extraArgs;
  // The same, but only to RUN lines that do not give the option themselves (`--search bfs`).
  std::vector<std::string> defaultArgs;
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  // A RUN line whose standard error contains this fails (e.g. "disagree" under
  // --solver-cross-check); empty: no check.
  std::string forbidStderr;
};

struct CommandList {
  std::set<std::string> names;
  // `tandem --list-options`: each option (with its dashes) and the commands it applies to. Empty
  // when the binary does not list its options: then every option is passed on.
  std::map<std::string, std::set<std::string>> options;
  std::string warning;  // non-empty: `tandem --list-commands` failed, so the list is empty
};

// What `tandem --list-commands` and `tandem --list-options` print.
CommandList listCommands(const std::string& tandem, std::chrono::milliseconds timeout);

// Why a RUN line is skipped because it uses an option tandem does not list (an option of a
// feature not built yet, CLI.md).
std::optional<std::string> skipForOptions(const RunLine& run, const CommandList& caps);

// The arguments a RUN line runs with: its own, then the extra and default arguments that apply.
std::vector<std::string> argumentsFor(const RunLine& run, const RunnerConfig& config,
                                      const CommandList& caps);

// The command words of spec/CLI.md.
bool isSpecCommand(const std::string& word);

// Why a RUN line is skipped before it runs: its command is one of CLI.md's but tandem does not list
// it yet. Any other command word runs, and tandem decides.
std::optional<std::string> skipBeforeRun(const RunLine& run, const std::set<std::string>& commands);

// Why a finished run is skipped: exit status 2 with "not implemented yet" on stderr, the project's
// marker for a flag combination that a later issue adds.
std::optional<std::string> skipAfterRun(const ProcessResult& proc);

// Judges a finished run against the RUN line's expectations (skip rules included).
RunResult evaluate(const RunLine& run, const ProcessResult& proc);

// Runs one RUN line and judges it; a RUN line with directive errors fails without running.
RunResult checkRun(const RunLine& run, const RunnerConfig& config, const CommandList& caps);
RunResult checkRun(const RunLine& run, const RunnerConfig& config,
                   const std::set<std::string>& commands);

}  // namespace tandem::conformance
