// What every command returns: a report in the shape of spec/CLI.md's JSON object (docs/json.md
// documents every key). The CLI prints it as text or as JSON; tests read it directly.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/results.h"
#include "report/stats.h"

namespace tandem::report {

// The version of the report's shape: raised when a key changes meaning or disappears (adding
// keys does not change it).
inline constexpr int kSchemaVersion = 1;

enum class Verdict { Verified, Proved, Error, PotentialError, Unknown, Completed };
const char* verdictName(Verdict v);
int exitCode(Verdict v);

struct TraceStep {
  uint64_t step = 0;
  std::string process;  // "" for open systems
  uint32_t thread = 0;  // the thread that moved (text traces: SPIN's process number)
  std::string label;    // location name before the step
  std::string statement;
  uint32_t line = 0;  // the statement's source line (0: none, e.g. an initial state)
  std::map<std::string, std::string> changed;  // variable -> new value (text)
  nlohmann::json state;                        // values after the step (JSON)
  nlohmann::json locations;  // closed systems: each process's location after the step
  bool fabricated = false;
};
nlohmann::json traceStepJson(const TraceStep& s);

struct ErrorInfo {
  std::string kind;
  std::string label;
  uint32_t line = 0;
  std::string message;
  std::vector<TraceStep> trace;
  // The state the trace starts from (values by name; null when unknown), and whether it was
  // fabricated (prove's potential errors) rather than an initial state.
  nlohmann::json initial;
  bool initialFabricated = false;
};

struct Report {
  std::string command, file;
  Verdict verdict = Verdict::Unknown;
  std::string reason;
  Stats stats;
  std::optional<ErrorInfo> error;
  // Each command's results, typed (report/results.h): what the printers read.
  std::optional<ExploreKeys> explore;
  std::optional<SymbolicKeys> symbolic;
  std::optional<TestsKeys> tests;
  std::optional<TestgenKeys> testgen;
  std::optional<ProveKeys> prove;
  std::optional<CoverKeys> cover;
  std::optional<ExportKeys> exported;
  std::optional<ReplayKeys> replay;
  std::optional<std::string> ir;  // `tandem ir`: the program as text
  // The keys only the JSON report carries (no printer reads them), e.g. the settings a run
  // repeats: `search`, `solver`, `por`.
  nlohmann::json extra = nlohmann::json::object();

  nlohmann::json toJson() const;
};

// A problem with the command line or the input that stops a command before it reports (exit
// status 2): printed as `FILE:LINE:COL: error: message` (or `tandem: error: message`), and with
// --json as {"verdict": "usage-error" | "input-error", "diagnostics": [...]}.
struct Diagnostic {
  std::string file;  // empty: the command line
  uint32_t line = 0, col = 0;
  std::string message;
};

class CommandError : public std::runtime_error {
 public:
  enum class Kind { Usage, Input };
  CommandError(Kind kind, std::vector<Diagnostic> diagnostics, std::string text);
  Kind kind() const { return kind_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // The text for stderr, as the front end prints it (with source lines and carets).
  const std::string& text() const { return text_; }

 private:
  Kind kind_;
  std::vector<Diagnostic> diagnostics_;
  std::string text_;
};

// `tandem: error: MESSAGE` about a flag or its value.
CommandError usageError(const std::string& message);
// `tandem: error: MESSAGE` about the model (`file` names it in the JSON diagnostics).
CommandError inputError(const std::string& file, const std::string& message);
// `FILE: error: MESSAGE` about a file the command reads (a report, a --predicates file).
CommandError fileError(const std::string& file, const std::string& message);

nlohmann::json diagnosticsJson(const std::string& command, const std::string& file,
                               const CommandError& e);

}  // namespace tandem::report
