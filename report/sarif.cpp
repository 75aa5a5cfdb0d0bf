#include <set>

#include "report/formats.h"

namespace tandem::report {

namespace {

nlohmann::json location(const std::string& file, uint32_t line, const std::string& message = "") {
  nlohmann::json phys{{"artifactLocation", {{"uri", file}}}};
  if (line) phys["region"] = {{"startLine", line}};
  nlohmann::json l{{"physicalLocation", phys}};
  if (!message.empty()) l["message"] = {{"text", message}};
  return l;
}

// The trace as SARIF's code flow: one thread flow, a location per step with a source line.
nlohmann::json codeFlow(const std::string& file, const ErrorInfo& e) {
  nlohmann::json steps = nlohmann::json::array();
  for (const TraceStep& s : e.trace) {
    std::string text = (s.process.empty() ? "" : s.process + ": ") + s.statement;
    steps.push_back({{"location", location(file, s.line, text)}});
  }
  return {{"threadFlows", {{{"locations", steps}}}}};
}

nlohmann::json rule(const std::string& kind) {
  return {{"id", kind},
          {"name", kind},
          {"shortDescription", {{"text", "Tandem error kind `" + kind + "`"}}}};
}

}  // namespace

nlohmann::json toSarif(const Report& r) {
  nlohmann::json results = nlohmann::json::array();
  std::set<std::string> kinds;
  // testgen and cover: a result per failing test (one per distinct error unless --all-errors);
  // the first is the report's error, with its trace.
  bool reported = false;
  const std::vector<TestRecord> noTests;
  for (const TestRecord& t : r.tests ? r.tests->tests : noTests) {
    if (!t.error) continue;
    const std::string kind = t.error->kind;
    const uint32_t line = t.error->line;
    nlohmann::json res{{"ruleId", kind},
                       {"level", "error"},
                       {"message",
                        {{"text", (!reported && r.error ? r.error->message + "; " : kind + " ") +
                                      "with inputs " + t.inputs.dump()}}},
                       {"locations", {location(r.file, line)}}};
    if (!reported && r.error && !r.error->trace.empty())
      res["codeFlows"] = {codeFlow(r.file, *r.error)};
    reported = true;
    results.push_back(std::move(res));
    kinds.insert(kind);
  }
  if (r.error && !reported) {
    // prove's unconfirmed potential error is a warning; a concrete counterexample an error.
    nlohmann::json res{{"ruleId", r.error->kind},
                       {"level", r.verdict == Verdict::PotentialError ? "warning" : "error"},
                       {"message", {{"text", r.error->message}}},
                       {"locations", {location(r.file, r.error->line)}}};
    if (!r.error->trace.empty()) res["codeFlows"] = {codeFlow(r.file, *r.error)};
    results.push_back(std::move(res));
    kinds.insert(r.error->kind);
  }
  // prove: potential errors that triage did not turn into the error above.
  const std::vector<PotentialErrorRow> noRows;
  const bool potential = r.prove && r.prove->potentialErrors;
  for (const PotentialErrorRow& e : potential ? *r.prove->potentialErrors : noRows) {
    const std::string& kind = e.kind;
    const uint32_t line = e.line;
    if (r.error && r.error->kind == kind && r.error->line == line) continue;
    results.push_back(
        {{"ruleId", kind},
         {"level", "warning"},
         {"message",
          {{"text", "potential " + kind + " from " +
                        (e.from.empty() ? "" : e.from.front().location) + ": " +
                        (e.from.empty() ? "" : e.from.front().state) + " (" + e.triage + ")"}}},
         {"locations", {location(r.file, line)}}});
    kinds.insert(kind);
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const std::string& k : kinds) rules.push_back(rule(k));
  nlohmann::json run{{"tool", {{"driver", {{"name", "tandem"}, {"rules", rules}}}}},
                     {"results", results},
                     {"invocations",
                      {{{"executionSuccessful", true},
                        {"exitCode", exitCode(r.verdict)},
                        {"commandLine", "tandem " + r.command + " " + r.file}}}},
                     {"properties", {{"verdict", verdictName(r.verdict)}}}};
  if (!r.reason.empty()) run["properties"]["reason"] = r.reason;
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", {run}}};
}

}  // namespace tandem::report
