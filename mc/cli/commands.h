// One function per command; each returns the process exit status.
#pragma once

#include <iosfwd>

#include "mc/cli/options.h"
#include "mc/ir/program.h"

namespace tandem::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
};

int runIrCommand(const Options& o, const ir::Program& p, Io io);
int runRunCommand(const Options& o, const ir::Program& p, Io io);
int runCheckCommand(const Options& o, const ir::Program& p, Io io);
int runExportChcCommand(const Options& o, const ir::Program& p, Io io);

}  // namespace tandem::cli
