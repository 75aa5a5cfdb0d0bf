// Programs for unit tests: from text, or from the shared conformance folder.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>

#include "mc/ir/frontend.h"

namespace tandem::test {

inline std::unique_ptr<ir::Program> loadText(const std::string& text) {
  SourceFile file("t.tdm", text);
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

inline std::unique_ptr<ir::Program> loadShared(const std::string& name) {
  std::ostringstream err;
  auto file = readSourceFile(std::string(TANDEM_SHARED_DIR) + "/conformance/" + name, err);
  REQUIRE_MESSAGE(file, err.str());
  auto p = loadProgram(*file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

}  // namespace tandem::test
