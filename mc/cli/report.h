// The result of a command, printed as text or as the JSON object of CLI.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tandem::cli {

enum class Verdict { Verified, Proved, Error, PotentialError, Unknown, Completed };
const char* verdictName(Verdict v);
int exitCode(Verdict v);

struct TraceStep {
  uint64_t step = 0;
  std::string process;  // "" for open systems
  std::string label;    // location name before the step
  std::string statement;
  std::map<std::string, std::string> changed;  // variable -> new value (text)
  nlohmann::json state;                        // values after the step (JSON)
  nlohmann::json locations;  // closed systems: each process's location after the step
  bool fabricated = false;
};

struct ErrorInfo {
  std::string kind;
  std::string label;
  uint32_t line = 0;
  std::string message;
  std::vector<TraceStep> trace;
};

struct Report {
  std::string command, file;
  Verdict verdict = Verdict::Unknown;
  std::string reason;
  nlohmann::json stats = nlohmann::json::object();
  std::optional<ErrorInfo> error;
  nlohmann::json extra = nlohmann::json::object();  // command-specific keys

  nlohmann::json toJson() const;
};

void printJson(std::ostream& os, const Report& r);
// Text mode: "verdict: V (reason)".
void printVerdictLine(std::ostream& os, const Report& r);
// Text mode: "error: KIND at LABEL (line N): message", then the trace (with --trace) or its
// length. Nothing without an error.
void printErrorText(std::ostream& os, const Report& r, bool withTrace);

}  // namespace tandem::cli
