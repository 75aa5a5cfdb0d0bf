// `tandem prove` (abstraction fabrication, fabricate/prover.h).
#pragma once

#include "mc/cli/commands.h"

namespace tandem::cli {

// Takes the program non-const: `--predicates FILE` adds expressions to it.
int runProveCommand(const Options& o, ir::Program& p, Io io);

}  // namespace tandem::cli
