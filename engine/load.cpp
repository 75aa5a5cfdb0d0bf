#include "engine/load.h"

#include <sstream>

#include "engine/report.h"
#include "mc/dve/import.h"
#include "mc/ir/frontend.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

namespace tandem::engine {

namespace {

[[noreturn]] void fail(const std::vector<FileDiagnostic>& ds, const std::string& text) {
  std::vector<Diagnostic> out;
  for (const FileDiagnostic& d : ds) out.push_back({d.file, d.loc.line, d.loc.col, d.message});
  throw CommandError(CommandError::Kind::Input, std::move(out), text);
}

// Command-line invariants are resolved against the lowered DVE program.
void addDveInvariants(ir::Program& program, const std::vector<std::string>& invariants) {
  for (const auto& text : invariants)
    program.invariants.push_back(
        {text, parseGlobalCondition(program, text, "--invariant", "--invariant"), {}});
}

}  // namespace

std::unique_ptr<ir::Program> loadModel(const std::string& path,
                                       const std::vector<std::string>& invariants,
                                       const std::vector<std::string>& testFiles) {
  std::ostringstream err;
  std::vector<FileDiagnostic> ds;
  auto file = readSourceFile(path, err, &ds);
  if (!file) fail(ds, err.str());
  if (!isDvePath(path)) {
    FrontendOptions fo;
    fo.extraInvariants = invariants;
    fo.testFiles = testFiles;
    auto program = loadProgram(*file, fo, err, &ds);
    if (!program) fail(ds, err.str());
    return program;
  }
  if (!testFiles.empty())
    throw usageError("--tests: `test` declarations apply to .tdm models, not to " + path);
  Diagnostics diags(&*file);
  auto program = importDve(*file, diags);
  if (!program) {
    reportDiagnostics(diags, path, err, &ds);
    fail(ds, err.str());
  }
  program->file = path;
  addDveInvariants(*program, invariants);
  return program;
}

ExprRef parseGlobalCondition(ir::Program& p, const std::string& text, const std::string& where,
                             const std::string& what) {
  SourceFile src(where, text);
  Diagnostics d(&src);
  auto e = parseExpression(src, d);
  ExprRef cond = e ? resolveGlobalCondition(*e, p, d, what) : nullptr;
  if (cond && !d.hasErrors()) return cond;
  std::ostringstream err;
  std::vector<FileDiagnostic> ds;
  reportDiagnostics(d, where, err, &ds);
  fail(ds, err.str());
}

}  // namespace tandem::engine
