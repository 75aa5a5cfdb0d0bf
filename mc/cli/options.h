// The command line, declared once as data (cvc5's options-as-data idea): every option has a
// name, a value type, a default, a help text, the commands it applies to and its validation.
// `tandem --help`, `tandem COMMAND --help` and `tandem --list-options` are generated from the
// table; a flag that does not apply to the command, a bound that is not positive or an unknown
// enumeration value is a usage error (exit 2) naming the flag.
#pragma once

#include <string>

#include "mc/cli/invocation.h"

namespace tandem::cli {

enum class ParseStatus { Ok, Help, Version, ListCommands, ListOptions, Error };

struct ParseResult {
  ParseStatus status = ParseStatus::Ok;
  Invocation invocation;
  std::string message;  // usage error, or help text
  std::string command;  // the command word, when there was one (for --json usage errors)
  std::string file;
};

ParseResult parseOptions(int argc, const char* const* argv);

// `--name cmd1,cmd2,...` per option, one per line (the conformance runner reads it).
std::string listOptions();

}  // namespace tandem::cli
