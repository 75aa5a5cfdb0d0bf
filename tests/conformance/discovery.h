// Finding the conformance files to run: every `*.tdm` under the given folders, never a list.
#pragma once

#include <string>
#include <vector>

namespace tandem::conformance {

struct Discovery {
  std::vector<std::string> files;   // sorted within each root, roots in the order given
  std::vector<std::string> errors;  // a missing root, or a folder without any .tdm file
};

// A folder contributes every `*.tdm` file below it (recursively); a file stands for itself.
Discovery discoverFiles(const std::vector<std::string>& roots);

}  // namespace tandem::conformance
