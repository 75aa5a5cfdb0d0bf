// `tandem run FILE`: one concrete execution, printed step by step.
#include <ostream>

#include "mc/cli/commands.h"

namespace tandem::cli {

int runRunCommand(const Options& o, const ir::Program& p, Io io) {
  io.err << "tandem: error: 'run' is not implemented yet\n";
  return 2;
}

}  // namespace tandem::cli
