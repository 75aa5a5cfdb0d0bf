#include "mc/cli/cli.h"

#include <iostream>

#include "mc/cli/commands.h"
#include "mc/cli/options.h"
#include "mc/cli/prove_command.h"
#include "mc/cli/symbolic_commands.h"
#include "mc/dve/import.h"
#include "mc/ir/frontend.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

namespace tandem::cli {

namespace {

// A .tdm file through the Tandem front end, or a BEEM .dve model through the DVE importer;
// command-line invariants are resolved against the lowered program in the DVE case.
std::unique_ptr<ir::Program> loadModel(const Options& o, std::ostream& err) {
  auto file = readSourceFile(o.file, err);
  if (!file) return nullptr;
  if (!isDvePath(o.file)) {
    FrontendOptions fo;
    fo.extraInvariants = o.invariants;
    return loadProgram(*file, fo, err);
  }
  Diagnostics diags(&*file);
  auto program = importDve(*file, diags);
  if (!program) {
    diags.print(err);
    return nullptr;
  }
  program->file = o.file;
  for (const auto& text : o.invariants) {
    SourceFile src("--invariant", text);
    Diagnostics d(&src);
    auto e = parseExpression(src, d);
    ExprRef inv = e ? resolveGlobalCondition(*e, *program, d, "--invariant") : nullptr;
    if (!inv || d.hasErrors()) {
      d.print(err);
      return nullptr;
    }
    program->invariants.push_back({"--invariant", inv, {}});
  }
  return program;
}

bool implemented(const std::string& cmd) {
  for (const auto& c : implementedCommands())
    if (c == cmd) return true;
  return false;
}

}  // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
  ParseResult pr = parseOptions(argc, argv);
  switch (pr.status) {
    case ParseStatus::Help:
      out << pr.message;
      return 0;
    case ParseStatus::Version:
      out << "tandem 0.1\n";
      return 0;
    case ParseStatus::ListCommands:
      for (const auto& c : implementedCommands()) out << c << '\n';
      return 0;
    case ParseStatus::Error:
      err << "tandem: error: " << pr.message
          << "\nusage: tandem COMMAND FILE [OPTIONS] (see tandem --help)\n";
      return 2;
    case ParseStatus::Ok:
      break;
  }
  const Options& o = pr.options;
  if (!implemented(o.command)) {
    err << "tandem: error: command '" << o.command << "' is not implemented yet\n";
    return 2;
  }
  auto program = loadModel(o, err);
  if (!program) return 2;
  Io io{out, err};
  if (o.command == "ir") return runIrCommand(o, *program, io);
  if (o.command == "run") return runRunCommand(o, *program, io);
  if (o.command == "check") return runCheckCommand(o, *program, io);
  if (o.command == "testgen") return runTestgenCommand(o, *program, io);
  if (o.command == "prove") return runProveCommand(o, *program, io);
  if (o.command == "export-chc") return runExportChcCommand(o, *program, io);
  err << "tandem: error: command '" << o.command << "' is not implemented yet\n";
  return 2;
}

int run(int argc, char** argv) { return run(argc, argv, std::cout, std::cerr); }

}  // namespace tandem::cli
