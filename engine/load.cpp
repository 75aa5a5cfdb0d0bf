#include "engine/load.h"

#include <sstream>

#include "engine/report_types.h"
#include "mc/frontends/registry.h"

namespace tandem::engine {

namespace {

[[noreturn]] void fail(const std::vector<FileDiagnostic>& ds, const std::string& text) {
  std::vector<Diagnostic> out;
  for (const FileDiagnostic& d : ds) out.push_back({d.file, d.loc.line, d.loc.col, d.message});
  throw CommandError(CommandError::Kind::Input, std::move(out), text);
}

}  // namespace

std::unique_ptr<ir::Program> loadModel(const std::string& path,
                                       const std::vector<std::string>& invariants,
                                       const std::vector<std::string>& testFiles) {
  std::ostringstream err;
  std::vector<FileDiagnostic> ds;
  auto file = readSourceFile(path, err, &ds);
  if (!file) fail(ds, err.str());
  const frontends::FrontEnd& fe = frontends::frontEndFor(path);
  if (!testFiles.empty() && !fe.tandemSyntax)
    throw usageError("--tests: `test` declarations apply to .tdm models, not to " + path);
  auto program = fe.load(*file, {invariants, testFiles}, err, &ds);
  if (!program) fail(ds, err.str());
  program->file = path;
  return program;
}

ExprRef parseGlobalCondition(ir::Program& p, const std::string& text, const std::string& where,
                             const std::string& what) {
  std::ostringstream err;
  std::vector<FileDiagnostic> ds;
  ExprRef cond = frontends::parseGlobalCondition(p, text, where, what, err, &ds);
  if (!cond) fail(ds, err.str());
  return cond;
}

}  // namespace tandem::engine
