// One `// EXPECT:` check of a conformance file (spec/CLI.md, "Conformance files"): parsing its
// text, and evaluating it against a JSON report or an exit status.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tandem::conformance {

enum class ExpectOp { Equal, AtMost, AtLeast, Has, Lacks };

struct Expectation {
  std::string text;  // as written, for messages
  std::string key;   // dotted path into the report, or "exit"
  ExpectOp op = ExpectOp::Equal;
  std::string value;               // Equal, AtMost, AtLeast (a number for the last two)
  std::vector<std::string> items;  // Has, Lacks

  // `exit=N` checks the exit status; every other form reads the JSON report.
  bool isExit() const { return key == "exit"; }
};

struct ParsedExpectation {
  Expectation expectation;
  std::string error;  // non-empty: the text is malformed
};

// `KEY=VALUE`, `KEY<=N`, `KEY>=N`, `KEY has A,B`, `KEY lacks A`, `exit=N`.
ParsedExpectation parseExpectation(std::string_view text);

struct CheckOutcome {
  bool passed = false;
  std::string message;  // what the report (or the exit status) holds, prefixed by the EXPECT text
};

// Evaluates a report expectation (not `exit`) against a parsed `--json` report.
CheckOutcome checkReport(const Expectation& e, const nlohmann::json& report);

// Evaluates an `exit=N` expectation; `exitStatus` is -1 when the process did not exit normally.
CheckOutcome checkExit(const Expectation& e, int exitStatus);

}  // namespace tandem::conformance
