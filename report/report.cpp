#include "report/report.h"

#include "mc/expr/enum_names.h"

namespace tandem::report {

namespace {
constexpr EnumName<Verdict> kVerdictNames[] = {
    {Verdict::Verified, "verified"}, {Verdict::Proved, "proved"},
    {Verdict::Error, "error"},       {Verdict::PotentialError, "potential-error"},
    {Verdict::Unknown, "unknown"},   {Verdict::Completed, "completed"}};
}  // namespace

const char* verdictName(Verdict v) { return enumName(kVerdictNames, v, "unknown"); }

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

nlohmann::json traceStepJson(const TraceStep& s) {
  nlohmann::json t;
  t["step"] = s.step;
  if (!s.process.empty()) t["process"] = s.process;
  t["label"] = s.label;
  t["statement"] = s.statement;
  if (s.line) t["line"] = s.line;
  t["state"] = s.state;
  if (!s.locations.is_null()) t["locations"] = s.locations;
  t["fabricated"] = s.fabricated;
  return t;
}

nlohmann::json Report::toJson() const {
  nlohmann::json j;
  j["tool"] = "tandem";
  j["schema_version"] = kSchemaVersion;
  j["command"] = command;
  j["file"] = file;
  j["verdict"] = verdictName(verdict);
  if (!reason.empty()) j["reason"] = reason;
  j["stats"] = stats.toJson();
  if (error) {
    nlohmann::json e;
    e["kind"] = error->kind;
    e["label"] = error->label;
    e["line"] = error->line;
    if (!error->message.empty()) e["message"] = error->message;
    nlohmann::json trace = nlohmann::json::array();
    for (const auto& s : error->trace) trace.push_back(traceStepJson(s));
    e["trace"] = std::move(trace);
    if (!error->initial.is_null()) {
      e["initial_state"] = error->initial;
      e["initial_fabricated"] = error->initialFabricated;
    }
    j["error"] = std::move(e);
  }
  if (explore) addJson(j, *explore);
  if (symbolic) addJson(j, *symbolic);
  if (tests) addJson(j, *tests);
  if (testgen) addJson(j, *testgen);
  if (prove) addJson(j, *prove);
  if (cover) addJson(j, *cover);
  if (exported) addJson(j, *exported);
  if (replay) addJson(j, *replay);
  if (ir) j["ir"] = *ir;
  for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

CommandError::CommandError(Kind kind, std::vector<Diagnostic> diagnostics, std::string text)
    : std::runtime_error(text),
      kind_(kind),
      diagnostics_(std::move(diagnostics)),
      text_(std::move(text)) {}

CommandError usageError(const std::string& message) {
  return CommandError(CommandError::Kind::Usage, {Diagnostic{"", 0, 0, message}},
                      "tandem: error: " + message + "\n");
}

CommandError fileError(const std::string& file, const std::string& message) {
  return CommandError(CommandError::Kind::Input, {Diagnostic{file, 0, 0, message}},
                      file + ": error: " + message + "\n");
}

CommandError inputError(const std::string& file, const std::string& message) {
  return CommandError(CommandError::Kind::Input, {Diagnostic{file, 0, 0, message}},
                      "tandem: error: " + message + "\n");
}

nlohmann::json diagnosticsJson(const std::string& command, const std::string& file,
                               const CommandError& e) {
  nlohmann::json j;
  j["tool"] = "tandem";
  j["schema_version"] = kSchemaVersion;
  j["command"] = command;
  j["file"] = file;
  j["verdict"] = e.kind() == CommandError::Kind::Usage ? "usage-error" : "input-error";
  nlohmann::json ds = nlohmann::json::array();
  for (const Diagnostic& d : e.diagnostics())
    ds.push_back({{"file", d.file}, {"line", d.line}, {"col", d.col}, {"message", d.message}});
  j["diagnostics"] = std::move(ds);
  return j;
}

}  // namespace tandem::report
