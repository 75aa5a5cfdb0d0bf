// Checking one RUN line: run tandem, decide pass, fail or skip, and say why.
#pragma once

#include <chrono>
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
  std::string tandem;                  // path of the tandem executable
  std::vector<std::string> extraArgs;  // appended to every RUN line (`--solver cvc5`)
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  // A RUN line whose standard error contains this fails (e.g. "disagree" under
  // --solver-cross-check); empty: no check.
  std::string forbidStderr;
};

struct CommandList {
  std::set<std::string> names;
  std::string warning;  // non-empty: `tandem --list-commands` failed, so the list is empty
};

// What `tandem --list-commands` prints, one command per line.
CommandList listCommands(const std::string& tandem, std::chrono::milliseconds timeout);

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
RunResult checkRun(const RunLine& run, const RunnerConfig& config,
                   const std::set<std::string>& commands);

}  // namespace tandem::conformance
