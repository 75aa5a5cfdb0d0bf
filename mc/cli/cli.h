// Command-line front door: parses options, runs one command, prints the report, returns the
// exit status of CLI.md (0 verified/proved/done, 1 error, 2 usage or input, 3 potential error,
// 4 unknown).
#pragma once

#include <iosfwd>

#include "mc/cli/options.h"
#include "mc/ir/program.h"
#include "mc/search/explore/transport.h"

namespace tandem::cli {

int run(int argc, char** argv);
// The same, writing to the given streams (tests call this).
int run(int argc, char** argv, std::ostream& out, std::ostream& err);
// Runs the parsed command on a loaded program (tests give programs from text), printing as the
// command line does; usage and input errors print their diagnostics and return 2. `ranks`:
// check --distributed's ranks under mpirun (null: none).
int execute(Invocation o, ir::Program& p, std::ostream& out, std::ostream& err,
            search::Transport* ranks = nullptr);

}  // namespace tandem::cli
