#include "mc/frontends/registry.h"

#include <ostream>

#include "mc/dve/import.h"
#include "mc/horn/import.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

namespace tandem::frontends {

namespace {

std::unique_ptr<ir::Program> loadTdm(const SourceFile& file, const LoadOptions& opts,
                                     std::ostream& err, std::vector<FileDiagnostic>* collected) {
  FrontendOptions fo;
  fo.extraInvariants = opts.invariants;
  fo.testFiles = opts.testFiles;
  return loadProgram(file, fo, err, collected);
}

// BEEM's DVE: the importer, then the command line's invariants resolved against the lowered
// program (DVE has no invariant syntax of its own).
std::unique_ptr<ir::Program> loadDve(const SourceFile& file, const LoadOptions& opts,
                                     std::ostream& err, std::vector<FileDiagnostic>* collected) {
  Diagnostics diags(&file);
  auto program = importDve(file, diags);
  if (!program) {
    reportDiagnostics(diags, file.path(), err, collected);
    return nullptr;
  }
  for (const auto& text : opts.invariants) {
    ExprRef cond =
        parseGlobalCondition(*program, text, "--invariant", "--invariant", err, collected);
    if (!cond) return nullptr;
    program->invariants.push_back({text, cond, {}});
  }
  return program;
}

// CHC-COMP's Horn clauses: they have no invariants of their own, and `--invariant` would name
// the lowering's locals, so it is refused rather than resolved.
std::unique_ptr<ir::Program> loadHorn(const SourceFile& file, const LoadOptions& opts,
                                      std::ostream& err, std::vector<FileDiagnostic>* collected) {
  Diagnostics diags(&file);
  auto program = importHorn(file, diags);
  if (program && !opts.invariants.empty())
    diags.error({1, 1}, "--invariant does not apply to Horn clauses (the property is the queries)");
  if (diags.hasErrors()) {
    reportDiagnostics(diags, file.path(), err, collected);
    return nullptr;
  }
  return program;
}

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const std::vector<FrontEnd>& frontEnds() {
  static const std::vector<FrontEnd> kAll = {
      {"dve", "a DVE model", {".dve"}, false, &loadDve},
      {"chc", "Horn clauses (CHC-COMP)", {".smt2"}, false, &loadHorn},
      {"tdm", "a Tandem model", {}, true, &loadTdm},
  };
  return kAll;
}

const FrontEnd& frontEndFor(const std::string& path) {
  const FrontEnd* fallback = nullptr;
  for (const FrontEnd& f : frontEnds()) {
    if (f.extensions.empty()) fallback = &f;
    for (std::string_view ext : f.extensions)
      if (endsWith(path, ext)) return f;
  }
  return *fallback;
}

ExprRef parseGlobalCondition(ir::Program& p, const std::string& text, const std::string& where,
                             const std::string& what, std::ostream& err,
                             std::vector<FileDiagnostic>* collected) {
  SourceFile src(where, text);
  Diagnostics d(&src);
  auto e = parseExpression(src, d);
  ExprRef cond = e ? resolveGlobalCondition(*e, p, d, what) : nullptr;
  if (cond && !d.hasErrors()) return cond;
  reportDiagnostics(d, where, err, collected);
  return nullptr;
}

}  // namespace tandem::frontends
