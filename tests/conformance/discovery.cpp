#include "tests/conformance/discovery.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tandem::conformance {

namespace fs = std::filesystem;

Discovery discoverFiles(const std::vector<std::string>& roots) {
  Discovery d;
  for (const std::string& root : roots) {
    std::error_code ec;
    if (fs::is_regular_file(root, ec)) {
      d.files.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      d.errors.push_back(root + ": no such file or directory");
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(root, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      std::error_code entryEc;  // a dangling link is not a model, nor a reason to stop
      const fs::path ext = it->path().extension();
      if (it->is_regular_file(entryEc) && (ext == ".tdm" || ext == ".smt2")) {
        found.push_back(it->path().string());
      }
    }
    if (ec) d.errors.push_back(root + ": " + ec.message());
    if (found.empty() && !ec) d.errors.push_back(root + ": no *.tdm or *.smt2 file in this folder");
    std::sort(found.begin(), found.end());
    d.files.insert(d.files.end(), found.begin(), found.end());
  }
  return d;
}

}  // namespace tandem::conformance
