#include "tests/conformance/text.h"

namespace tandem::conformance {

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    size_t at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

std::string excerpt(std::string_view s, size_t limit) {
  if (s.size() <= limit) return std::string(s);
  return std::string(s.substr(0, limit)) + "... (" + std::to_string(s.size() - limit) +
         " more characters)";
}

}  // namespace tandem::conformance
