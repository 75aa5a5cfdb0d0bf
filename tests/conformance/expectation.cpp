#include "tests/conformance/expectation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

#include "tests/conformance/text.h"

namespace tandem::conformance {

using nlohmann::json;

namespace {

bool isKeyChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

std::optional<int64_t> parseInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parseDouble(std::string_view s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

template <typename T>
int compare(T a, T b) {
  return a < b ? -1 : b < a ? 1 : 0;
}

// Sign of (json - text), or nullopt when the text is not a number. Integers compare exactly so
// that counts near 2^53 stay right.
std::optional<int> compareNumber(const json& j, std::string_view text) {
  if (auto i = parseInt(text); i && j.is_number_integer()) {
    if (!j.is_number_unsigned()) return compare(j.get<int64_t>(), *i);
    if (*i < 0) return 1;
    return compare(j.get<uint64_t>(), static_cast<uint64_t>(*i));
  }
  auto d = parseDouble(text);
  if (!d) return std::nullopt;
  return compare(j.get<double>(), *d);
}

// Numbers compare numerically, strings as strings, booleans and null by their JSON spelling.
bool scalarEquals(const json& j, std::string_view v) {
  if (j.is_number()) {
    auto c = compareNumber(j, v);
    return c && *c == 0;
  }
  if (j.is_string()) return j.get_ref<const std::string&>() == v;
  if (j.is_boolean()) return v == (j.get<bool>() ? "true" : "false");
  if (j.is_null()) return v == "null";
  return false;
}

std::string shortDump(const json& j) { return excerpt(j.dump(), 200); }

// Follows a dotted path; array elements are reached by index (`error.trace.0.label`).
const json* lookup(const json& root, std::string_view key, std::string& detail) {
  const json* node = &root;
  size_t start = 0;
  while (true) {
    size_t dot = key.find('.', start);
    std::string seg(key.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (node->is_object()) {
      auto it = node->find(seg);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (auto idx = parseInt(seg);
               node->is_array() && idx && *idx >= 0 && static_cast<size_t>(*idx) < node->size()) {
      node = &(*node)[static_cast<size_t>(*idx)];
    } else {
      if (start > 0) {
        detail = " (" + std::string(key.substr(0, start - 1)) + " is " + shortDump(*node) + ")";
      }
      return nullptr;
    }
    if (dot == std::string_view::npos) return node;
    start = dot + 1;
  }
}

}  // namespace

ParsedExpectation parseExpectation(std::string_view text) {
  ParsedExpectation r;
  Expectation& e = r.expectation;
  text = trim(text);
  e.text = std::string(text);
  auto fail = [&](const std::string& why) {
    r.error = "malformed EXPECT '" + e.text + "': " + why;
    return r;
  };

  size_t i = 0;
  while (i < text.size() && isKeyChar(text[i])) ++i;
  e.key = std::string(text.substr(0, i));
  if (e.key.empty()) return fail("expected a key (a dotted path such as stats.states)");
  if (e.key.front() == '.' || e.key.back() == '.' || e.key.find("..") != std::string::npos) {
    return fail("the key '" + e.key + "' has an empty path segment");
  }

  std::string_view rest = trim(text.substr(i));
  if (rest.starts_with("<=") || rest.starts_with(">=")) {
    e.op = rest[0] == '<' ? ExpectOp::AtMost : ExpectOp::AtLeast;
    rest.remove_prefix(2);
  } else if (rest.starts_with("==")) {
    return fail("use '=', not '=='");
  } else if (rest.starts_with("=")) {
    e.op = ExpectOp::Equal;
    rest.remove_prefix(1);
  } else {
    std::string_view word = rest.substr(0, rest.find_first_of(" \t"));
    if (word == "has") {
      e.op = ExpectOp::Has;
    } else if (word == "lacks") {
      e.op = ExpectOp::Lacks;
    } else {
      return fail("expected =, <=, >=, 'has' or 'lacks' after the key");
    }
    rest.remove_prefix(word.size());
  }

  rest = trim(rest);
  if (rest.empty()) return fail("missing value");
  if (e.op == ExpectOp::Has || e.op == ExpectOp::Lacks) {
    for (std::string_view item : split(rest, ',')) {
      item = trim(item);
      if (item.empty()) return fail("empty item in the list");
      e.items.emplace_back(item);
    }
  } else {
    e.value = std::string(rest);
  }

  if (e.isExit()) {
    if (e.op != ExpectOp::Equal || !parseInt(e.value)) return fail("exit takes '=N', N an integer");
  } else if ((e.op == ExpectOp::AtMost || e.op == ExpectOp::AtLeast) && !parseDouble(e.value)) {
    return fail("'" + e.value + "' is not a number");
  }
  return r;
}

CheckOutcome checkReport(const Expectation& e, const json& report) {
  std::string detail;
  const json* j = lookup(report, e.key, detail);
  if (!j) return {false, e.key + ": missing from report" + detail};
  std::string has = e.text + ": report has " + shortDump(*j);

  switch (e.op) {
    case ExpectOp::Equal:
      if (j->is_structured()) return {false, has + ", not a single value"};
      return {scalarEquals(*j, e.value), has};
    case ExpectOp::AtMost:
    case ExpectOp::AtLeast: {
      if (!j->is_number()) return {false, has + ", not a number"};
      auto c = compareNumber(*j, e.value);
      return {c && (e.op == ExpectOp::AtMost ? *c <= 0 : *c >= 0), has};
    }
    case ExpectOp::Has:
    case ExpectOp::Lacks: {
      if (!j->is_array()) return {false, has + ", not a list"};
      bool wantPresent = e.op == ExpectOp::Has;
      std::vector<std::string> wrong;
      for (const std::string& item : e.items) {
        bool present =
            std::any_of(j->begin(), j->end(), [&](const json& x) { return scalarEquals(x, item); });
        if (present != wantPresent) wrong.push_back(item);
      }
      if (wrong.empty()) return {true, has};
      return {false, e.text + ": " + (wantPresent ? "missing " : "contains ") + join(wrong, ",") +
                         "; report has " + shortDump(*j)};
    }
  }
  return {false, e.text + ": unknown operator"};
}

CheckOutcome checkExit(const Expectation& e, int exitStatus) {
  auto want = parseInt(e.value);
  std::string got =
      exitStatus < 0 ? "none (the process did not exit normally)" : std::to_string(exitStatus);
  return {want && *want == exitStatus, e.text + ": exit status " + got};
}

}  // namespace tandem::conformance
