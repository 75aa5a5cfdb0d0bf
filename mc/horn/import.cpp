#include "mc/horn/import.h"

#include <z3++.h>

#include <algorithm>
#include <regex>

#include "mc/horn/clauses.h"
#include "mc/horn/lower.h"
#include "mc/horn/positions.h"

namespace tandem {

namespace {

// Z3's `(error "line 3 column 10: unknown constant x")` as a diagnostic at that position.
void reportZ3Error(const std::string& raw, Diagnostics& diags) {
  static const std::regex kError(R"(\(error \"line (\d+) column (\d+): ([^"]*)\")");
  std::smatch m;
  if (std::regex_search(raw, m, kError)) {
    std::string msg = m[3].str();
    while (!msg.empty() && msg.back() == ' ') msg.pop_back();
    diags.error({static_cast<uint32_t>(std::stoul(m[1].str())),
                 std::max<uint32_t>(1, static_cast<uint32_t>(std::stoul(m[2].str())))},
                msg);
    return;
  }
  diags.error({1, 1}, raw);
}

}  // namespace

std::unique_ptr<ir::Program> importHorn(const SourceFile& file, Diagnostics& diags) {
  const horn::CommandPositions at = horn::scanCommands(file.text());
  z3::context ctx;
  try {
    const z3::expr_vector assertions = ctx.parse_string(file.text().c_str());
    const horn::Clauses clauses = horn::readClauses(ctx, assertions);
    auto prog = std::make_unique<ir::Program>();
    prog->file = file.path();
    prog->types = std::make_shared<TypeTable>();
    prog->exprs = std::make_shared<ExprManager>(*prog->types);
    horn::lowerClauses(ctx, clauses, at, *prog);
    return prog;
  } catch (const z3::exception& e) {
    reportZ3Error(e.msg(), diags);
  } catch (const horn::Unsupported& u) {
    SourceLoc loc = u.symbol.empty() ? at.assertAt(u.assertion) : at.declarationOf(u.symbol);
    if (!loc.valid()) loc = {1, 1};
    diags.error(loc, u.what());
  }
  return nullptr;
}

}  // namespace tandem
