#include "mc/ir/frontend.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "mc/ir/lower.h"
#include "mc/lang/checker.h"
#include "mc/lang/parser.h"

namespace tandem {

std::optional<SourceFile> readSourceFile(const std::string& path, std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << path << ": error: is a directory, not a model file\n";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << path << ": error: cannot open file: " << std::strerror(errno) << '\n';
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return SourceFile(path, ss.str());
}

std::unique_ptr<ir::Program> loadProgram(const SourceFile& file, const FrontendOptions& opts,
                                         std::ostream& err) {
  Diagnostics diags(&file);
  auto ast = parseProgram(file, diags);
  auto types = std::make_unique<TypeTable>();
  if (!diags.hasErrors()) checkProgram(*ast, *types, diags);
  if (diags.hasErrors()) {
    diags.print(err);
    return nullptr;
  }
  // Command-line invariants are checked on their own text, so their errors point into it.
  for (size_t i = 0; i < opts.extraInvariants.size(); ++i) {
    SourceFile text("--invariant", opts.extraInvariants[i]);
    Diagnostics d(&text);
    auto e = parseExpression(text, d);
    if (e && !d.hasErrors()) checkGlobalExpr(*e, *ast, *types, d);
    if (d.hasErrors() || !e) {
      d.print(err);
      return nullptr;
    }
    ast::NamedExpr inv;
    inv.name = "--invariant";
    inv.loc = e->loc;
    inv.expr = std::move(e);
    ast->invariants.push_back(std::move(inv));
  }
  auto prog = lowerProgram(*ast, std::move(types), diags);
  if (diags.hasErrors() || !prog) {
    diags.print(err);
    return nullptr;
  }
  prog->file = file.path();
  return prog;
}

}  // namespace tandem
