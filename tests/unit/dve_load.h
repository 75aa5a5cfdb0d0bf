// Loading a DVE model in tests, with extra invariants in expression syntax as `--invariant`
// gives them.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "mc/dve/import.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

namespace tandem::test {

// Null when the importer does not take the model (it said why in its diagnostics).
inline std::unique_ptr<ir::Program> loadDve(const std::string& name, const std::string& text,
                                            const std::vector<std::string>& invariants = {}) {
  SourceFile file(name, text);
  Diagnostics d(&file);
  auto p = importDve(file, d);
  if (!p) return nullptr;
  for (const auto& inv : invariants) {
    SourceFile src("--invariant", inv);
    Diagnostics di(&src);
    auto e = parseExpression(src, di);
    ExprRef x = e ? resolveGlobalCondition(*e, *p, di, "--invariant") : nullptr;
    REQUIRE(x);
    p->invariants.push_back({"--invariant", x, {}});
  }
  return p;
}

}  // namespace tandem::test
