#include "mc/frontends/predicates_file.h"

#include <cctype>
#include <sstream>

namespace tandem::frontends {

std::vector<std::pair<int, std::string>> predicateLines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::pair<int, std::string>> out;
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    if (auto c = line.find("//"); c != std::string::npos) line.erase(c);
    while (!line.empty() &&
           (isspace(static_cast<unsigned char>(line.back())) || line.back() == ';'))
      line.pop_back();
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string t = line.substr(b);
    if (t.rfind("predicate ", 0) == 0) t = t.substr(10);
    out.emplace_back(lineNo, std::move(t));
  }
  return out;
}

}  // namespace tandem::frontends
