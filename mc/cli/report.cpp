#include "mc/cli/report.h"

#include <ostream>

#include "mc/cli/trace_format.h"

namespace tandem::cli {

const char* verdictName(Verdict v) {
  switch (v) {
    case Verdict::Verified:
      return "verified";
    case Verdict::Proved:
      return "proved";
    case Verdict::Error:
      return "error";
    case Verdict::PotentialError:
      return "potential-error";
    case Verdict::Unknown:
      return "unknown";
    case Verdict::Completed:
      return "completed";
  }
  return "unknown";
}

int exitCode(Verdict v) {
  switch (v) {
    case Verdict::Verified:
    case Verdict::Proved:
    case Verdict::Completed:
      return 0;
    case Verdict::Error:
      return 1;
    case Verdict::PotentialError:
      return 3;
    case Verdict::Unknown:
      return 4;
  }
  return 4;
}

nlohmann::json Report::toJson() const {
  nlohmann::json j;
  j["tool"] = "tandem";
  j["command"] = command;
  j["file"] = file;
  j["verdict"] = verdictName(verdict);
  if (!reason.empty()) j["reason"] = reason;
  // Every key of CLI.md's stats object is always present (0 when a command has nothing to
  // count), so scripts can rely on them; commands add their own keys.
  nlohmann::json st = {
      {"states", 0},         {"transitions", 0}, {"abstract_states", 0}, {"fabricated_states", 0},
      {"solver_queries", 0}, {"executions", 0},  {"paths", 0},           {"tests", 0},
      {"time_s", 0.0},       {"peak_rss_mb", 0}};
  for (auto it = stats.begin(); it != stats.end(); ++it) st[it.key()] = it.value();
  j["stats"] = std::move(st);
  if (error) {
    nlohmann::json e;
    e["kind"] = error->kind;
    e["label"] = error->label;
    e["line"] = error->line;
    if (!error->message.empty()) e["message"] = error->message;
    nlohmann::json trace = nlohmann::json::array();
    for (const auto& s : error->trace) {
      nlohmann::json t;
      t["step"] = s.step;
      if (!s.process.empty()) t["process"] = s.process;
      t["label"] = s.label;
      t["statement"] = s.statement;
      t["state"] = s.state;
      if (!s.locations.is_null()) t["locations"] = s.locations;
      t["fabricated"] = s.fabricated;
      trace.push_back(std::move(t));
    }
    e["trace"] = std::move(trace);
    j["error"] = std::move(e);
  }
  for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

void printJson(std::ostream& os, const Report& r) { os << r.toJson().dump(2) << '\n'; }

void printVerdictLine(std::ostream& os, const Report& r) {
  os << "verdict: " << verdictName(r.verdict);
  if (!r.reason.empty()) os << " (" << r.reason << ")";
  os << "\n";
}

void printErrorText(std::ostream& os, const Report& r, bool withTrace) {
  if (!r.error) return;
  const ErrorInfo& e = *r.error;
  os << "error: " << e.kind << " at " << e.label;
  if (e.line) os << " (line " << e.line << ")";
  if (!e.message.empty()) os << ": " << e.message;
  os << "\n";
  if (withTrace)
    printTrace(os, e.trace);
  else
    os << "(" << e.trace.size() << " steps; --trace prints them)\n";
}

}  // namespace tandem::cli
