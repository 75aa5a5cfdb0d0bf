#include "report/replay_report.h"

#include <filesystem>

#include "mc/lang/input_file.h"
#include "report/report.h"

namespace tandem::report {

namespace {

using nlohmann::json;

// Deeper than any report (a state's arrays nest a few levels); `[[[...` of 64 MiB would build a
// DOM of gigabytes.
constexpr size_t kMaxDepth = 512;

// Builds the DOM as nlohmann's own SAX parser does, polling the budget at every event so a large
// report stops within the bounds (138 MB took 11 s and 1.28 GB before, deaf to --timeout).
class BudgetedDom {
 public:
  BudgetedDom(json& out, search::Budget& budget) : dom_(out, false), budget_(budget) {}

  bool null() { return ok() && dom_.null(); }
  bool boolean(bool v) { return ok() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return ok() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return ok() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return ok() && dom_.number_float(v, s);
  }
  bool string(json::string_t& s) { return ok() && dom_.string(s); }
  bool binary(json::binary_t& b) { return ok() && dom_.binary(b); }
  bool start_object(std::size_t n) { return deeper() && dom_.start_object(n); }
  bool key(json::string_t& k) { return ok() && dom_.key(k); }
  bool end_object() { return --depth_, dom_.end_object(); }
  bool start_array(std::size_t n) { return deeper() && dom_.start_array(n); }
  bool end_array() { return --depth_, dom_.end_array(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    error = e.what();
    return false;
  }

  std::string error;  // the syntax error, or the nesting bound

 private:
  bool ok() { return !budget_.poll(); }
  bool deeper() {
    if (++depth_ <= kMaxDepth) return ok();
    error = "nested deeper than " + std::to_string(kMaxDepth) + " levels";
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  search::Budget& budget_;
  size_t depth_ = 0;
};

// Checks the fields the replay reads; the first bad one is an input error naming its JSON path.
class ShapeCheck {
 public:
  explicit ShapeCheck(const std::string& file) : file_(file) {}

  void report(const json& r) {
    if (!r.is_object()) bad("", "the report is not a JSON object");
    for (const char* k : {"command", "entry", "class"}) optional(r, "", k, json::value_t::string);
    stringArray(r, "", "invariants");
    stringArray(r, "", "checks");
    if (const json* c = field(r, "command"); c && *c == "run")
      throw fileError(file_,
                      "is a report of `run`, not a counterexample: replay reads the --json "
                      "report of check, prove or testgen with an error");
    const json* e = field(r, "error");
    if (!e || !e->is_object() || !e->contains("trace"))
      throw fileError(file_, "holds no counterexample to replay (verdict " + verdictText(r) +
                                 "); replay reads the --json report of check, prove or testgen "
                                 "with an error");
    error(*e);
    if (const json* calls = field(r, "calls")) {
      if (!calls->is_array()) bad("/calls", "expected an array");
      for (size_t i = 0; i < calls->size(); ++i) {
        const std::string at = "/calls/" + std::to_string(i);
        const json& c = (*calls)[i];
        if (!c.is_object()) bad(at, "expected an object");
        optional(c, at, "method", json::value_t::string);
        optional(c, at, "args", json::value_t::object);
      }
    }
  }

 private:
  void error(const json& e) {
    for (const char* k : {"kind", "label"}) optional(e, "/error", k, json::value_t::string);
    optional(e, "/error", "initial_state", json::value_t::object);
    optional(e, "/error", "initial_fabricated", json::value_t::boolean);
    const json& trace = e["trace"];
    if (!trace.is_array()) bad("/error/trace", "expected an array of steps");
    for (size_t i = 0; i < trace.size(); ++i) {
      const std::string at = "/error/trace/" + std::to_string(i);
      const json& st = trace[i];
      if (!st.is_object()) bad(at, "expected a step (an object)");
      for (const char* k : {"process", "statement", "label"})
        optional(st, at, k, json::value_t::string);
      for (const char* k : {"state", "locations"}) optional(st, at, k, json::value_t::object);
      if (const json* line = field(st, "line"))
        if (!line->is_number_unsigned() || line->get<uint64_t>() > UINT32_MAX)
          bad(at + "/line", "expected a line number");
    }
  }

  static const json* field(const json& o, const char* key) {
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
  }

  void optional(const json& o, const std::string& at, const char* key, json::value_t type) {
    const json* v = field(o, key);
    if (!v || v->type() == type) return;
    // Integers come as signed or unsigned: either is a number here.
    bad(at + "/" + key, std::string("expected ") + typeName(type) + ", found " + v->type_name());
  }

  void stringArray(const json& o, const std::string& at, const char* key) {
    const json* v = field(o, key);
    if (!v) return;
    if (!v->is_array()) bad(at + "/" + key, "expected an array of strings");
    for (size_t i = 0; i < v->size(); ++i)
      if (!(*v)[i].is_string()) bad(at + "/" + key + "/" + std::to_string(i), "expected a string");
  }

  static const char* typeName(json::value_t t) {
    switch (t) {
      case json::value_t::string:
        return "a string";
      case json::value_t::object:
        return "an object";
      case json::value_t::boolean:
        return "a boolean";
      default:
        return "another type";
    }
  }

  static std::string verdictText(const json& r) {
    const json* v = field(r, "verdict");
    return v && v->is_string() ? v->get<std::string>() : std::string("none");
  }

  [[noreturn]] void bad(const std::string& at, const std::string& why) {
    throw fileError(file_, (at.empty() ? "" : "at " + at + ": ") + why +
                               " (replay reads the --json report of check, prove or testgen)");
  }

  const std::string& file_;
};

}  // namespace

std::unique_ptr<json> readReplayReport(const std::string& path, search::Budget& budget,
                                       bool keepMemory) {
  // The text alone would pass --memory-limit (a 138 MB report against 50 MB): stop unread.
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && budget.wouldExceedMemory(size)) return nullptr;
  std::string why;
  auto text = readInputFile(path, why, kMaxReportBytes);
  if (!text) throw fileError(path, why);
  auto saved = std::make_unique<json>();
  BudgetedDom dom(*saved, budget);
  const bool parsed = json::sax_parse(*text, &dom);
  if (budget.stopped()) {
    if (keepMemory) (void)saved.release();  // freeing a large DOM took a second past the bound
    return nullptr;
  }
  if (!parsed || saved->is_discarded())
    throw fileError(path,
                    "is not a JSON report (" + dom.error + "); save one with --json > " + path);
  ShapeCheck(path).report(*saved);
  return saved;
}

}  // namespace tandem::report
