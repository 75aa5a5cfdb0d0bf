// Command-line front door: parses options, runs one command, prints the report, returns the
// exit status of CLI.md (0 verified/proved/done, 1 error, 2 usage or input, 3 potential error,
// 4 unknown).
#pragma once

#include <iosfwd>

namespace tandem::cli {

int run(int argc, char** argv);
// The same, writing to the given streams (tests call this).
int run(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace tandem::cli
