#include "report/stats.h"

#include <algorithm>
#include <sstream>

namespace tandem::report {

namespace {

nlohmann::json memoryJson(const MemoryBytes& m) {
  return {{"states", m.states},
          {"records", m.records},
          {"hash_table", m.hash_table},
          {"parents", m.parents}};
}

}  // namespace

std::string numText(const std::optional<uint64_t>& n) { return std::to_string(n.value_or(0)); }

std::string numText(const std::optional<double>& x) {
  if (!x) return "0";
  std::ostringstream os;
  os << *x;
  return os.str();
}

nlohmann::json Stats::toJson() const {
  nlohmann::json st = {
      {"states", 0},         {"transitions", 0}, {"abstract_states", 0}, {"fabricated_states", 0},
      {"solver_queries", 0}, {"executions", 0},  {"paths", 0},           {"tests", 0},
      {"time_s", 0.0},       {"peak_rss_mb", 0}};
#define TANDEM_REPORT_FIELD_JSON(name) \
  if (name) st[#name] = *name;
  TANDEM_REPORT_COUNTERS(TANDEM_REPORT_FIELD_JSON)
  TANDEM_REPORT_REALS(TANDEM_REPORT_FIELD_JSON)
#undef TANDEM_REPORT_FIELD_JSON
  if (memory_bytes) st["memory_bytes"] = memoryJson(*memory_bytes);
  return st;
}

std::vector<std::pair<std::string, std::string>> Stats::texts() const {
  std::vector<std::pair<std::string, std::string>> out;
#define TANDEM_REPORT_FIELD_TEXT(name) \
  if (name) out.emplace_back(#name, numText(name));
  TANDEM_REPORT_COUNTERS(TANDEM_REPORT_FIELD_TEXT)
  TANDEM_REPORT_REALS(TANDEM_REPORT_FIELD_TEXT)
#undef TANDEM_REPORT_FIELD_TEXT
  if (memory_bytes) out.emplace_back("memory_bytes", memoryJson(*memory_bytes).dump());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tandem::report
