#include "mc/ir/frontend.h"

#include <ostream>

#include "mc/ir/lower.h"
#include "mc/lang/checker.h"
#include "mc/lang/input_file.h"
#include "mc/lang/parser.h"

namespace tandem {

void reportDiagnostics(const Diagnostics& d, const std::string& file, std::ostream& err,
                       std::vector<FileDiagnostic>* collected) {
  d.print(err);
  if (collected)
    for (const Diagnostic& x : d.errors()) collected->push_back({file, x.loc, x.message});
}

namespace {

SourceLoc declLoc(const ast::Program& p, const ast::Program::DeclRef& r) {
  using K = ast::Program::DeclKind;
  switch (r.kind) {
    case K::Const:
      return p.consts[r.index].loc;
    case K::Enum:
      return p.enums[r.index].loc;
    case K::Var:
      return p.globals[r.index]->loc;
    case K::Init:
      return p.inits[r.index].loc;
    case K::Predicate:
      return p.predicates[r.index].loc;
    case K::Invariant:
      return p.invariants[r.index].loc;
    case K::Native:
      return p.natives[r.index].loc;
    case K::Proc:
      return p.procs[r.index]->loc;
    case K::Class:
      return p.classes[r.index]->loc;
    case K::Process:
      return p.processes[r.index]->loc;
    case K::Rule:
      return p.rules[r.index].loc;
    case K::Test:
      return p.tests[r.index].loc;
    case K::Chan:
      return p.chans[r.index].loc;
  }
  return {};
}

// The `test` declarations of `path`, checked against `prog` and added to it.
bool addTests(const std::string& path, ast::Program& prog, TypeTable& types, std::ostream& err,
              std::vector<FileDiagnostic>* collected) {
  auto file = readSourceFile(path, err, collected);
  if (!file) return false;
  Diagnostics d(&*file);
  auto tests = parseProgram(*file, d);
  if (!d.hasErrors())
    for (const ast::Program::DeclRef& ref : tests->order)
      if (ref.kind != ast::Program::DeclKind::Test) {
        d.error(declLoc(*tests, ref), "a tests file holds only `test` declarations");
        break;
      }
  if (!d.hasErrors()) checkTests(tests->tests, prog, types, d);
  if (d.hasErrors()) {
    reportDiagnostics(d, path, err, collected);
    return false;
  }
  for (ast::TestDecl& t : tests->tests) {
    prog.order.push_back({ast::Program::DeclKind::Test, prog.tests.size()});
    prog.tests.push_back(std::move(t));
  }
  return true;
}

}  // namespace

std::optional<SourceFile> readSourceFile(const std::string& path, std::ostream& err,
                                         std::vector<FileDiagnostic>* collected) {
  auto fail = [&](const std::string& message) -> std::optional<SourceFile> {
    err << path << ": error: " << message << '\n';
    if (collected) collected->push_back({path, {}, message});
    return std::nullopt;
  };
  std::string why;
  auto text = readInputFile(path, why);
  if (!text) return fail(why);
  return SourceFile(path, std::move(*text));
}

std::unique_ptr<ir::Program> loadProgram(const SourceFile& file, const FrontendOptions& opts,
                                         std::ostream& err,
                                         std::vector<FileDiagnostic>* collected) {
  Diagnostics diags(&file);
  auto ast = parseProgram(file, diags);
  auto types = std::make_unique<TypeTable>();
  if (!diags.hasErrors()) checkProgram(*ast, *types, diags);
  if (diags.hasErrors()) {
    reportDiagnostics(diags, file.path(), err, collected);
    return nullptr;
  }
  // Command-line invariants are checked on their own text, so their errors point into it.
  for (size_t i = 0; i < opts.extraInvariants.size(); ++i) {
    SourceFile text("--invariant", opts.extraInvariants[i]);
    Diagnostics d(&text);
    auto e = parseExpression(text, d);
    if (e && !d.hasErrors()) checkGlobalExpr(*e, *ast, *types, d);
    if (d.hasErrors() || !e) {
      reportDiagnostics(d, "--invariant", err, collected);
      return nullptr;
    }
    // Named by its text (`invariant 'turn == 0' violated`), at no line of the model.
    ast::NamedExpr inv;
    inv.name = opts.extraInvariants[i];
    inv.loc = SourceLoc{};
    inv.expr = std::move(e);
    ast->invariants.push_back(std::move(inv));
  }
  for (const std::string& path : opts.testFiles)
    if (!addTests(path, *ast, *types, err, collected)) return nullptr;
  auto prog = lowerProgram(*ast, std::move(types), diags);
  if (diags.hasErrors() || !prog) {
    reportDiagnostics(diags, file.path(), err, collected);
    return nullptr;
  }
  prog->file = file.path();
  return prog;
}

}  // namespace tandem
