// Command-line front door: parses options, runs one command, prints the report, returns the
// exit status of CLI.md (0 verified/proved/done, 1 error, 2 usage or input, 3 potential error,
// 4 unknown).
#pragma once

namespace tandem::cli {

int run(int argc, char** argv);

}  // namespace tandem::cli
