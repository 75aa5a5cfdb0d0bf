#include "mc/cli/cli.h"

#include <iostream>

#include "mc/cli/commands.h"
#include "mc/cli/options.h"
#include "mc/ir/frontend.h"

namespace tandem::cli {

namespace {

bool implemented(const std::string& cmd) {
  for (const auto& c : implementedCommands())
    if (c == cmd) return true;
  return false;
}

}  // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
  ParseResult pr = parseOptions(argc, argv);
  switch (pr.status) {
    case ParseStatus::Help: out << pr.message; return 0;
    case ParseStatus::Version: out << "tandem 0.1\n"; return 0;
    case ParseStatus::ListCommands:
      for (const auto& c : implementedCommands()) out << c << '\n';
      return 0;
    case ParseStatus::Error:
      err << "tandem: error: " << pr.message << "\nusage: tandem COMMAND FILE [OPTIONS] (see tandem --help)\n";
      return 2;
    case ParseStatus::Ok: break;
  }
  const Options& o = pr.options;
  if (!implemented(o.command)) {
    err << "tandem: error: command '" << o.command << "' is not implemented yet\n";
    return 2;
  }
  auto file = readSourceFile(o.file, err);
  if (!file) return 2;
  FrontendOptions fo;
  fo.extraInvariants = o.invariants;
  auto program = loadProgram(*file, fo, err);
  if (!program) return 2;
  Io io{out, err};
  if (o.command == "ir") return runIrCommand(o, *program, io);
  if (o.command == "run") return runRunCommand(o, *program, io);
  err << "tandem: error: command '" << o.command << "' is not implemented yet\n";
  return 2;
}

int run(int argc, char** argv) { return run(argc, argv, std::cout, std::cerr); }

}  // namespace tandem::cli
