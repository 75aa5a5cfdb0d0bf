// Where the top-level commands of an SMT-LIB file start: the positions that the Horn front end's
// diagnostics point at. Z3 parses the file; this scan only counts parentheses (skipping `;`
// comments, string literals and `|quoted|` symbols) to find each `(assert` and `(declare-fun`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mc/lang/source.h"

namespace tandem::horn {

struct Command {
  std::string name;    // "assert", "declare-fun", ...
  std::string symbol;  // declare-fun: the declared name (without `|...|`)
  SourceLoc loc;       // the opening parenthesis
};

struct CommandPositions {
  std::vector<Command> asserts;
  std::vector<Command> declarations;  // declare-fun and declare-const
  // The position of the i-th assert (1:1 when there are fewer: the text did not parse as Z3 did).
  SourceLoc assertAt(size_t i) const;
  // The declaration of `symbol` ({} when there is none).
  SourceLoc declarationOf(std::string_view symbol) const;
};

CommandPositions scanCommands(std::string_view text);

}  // namespace tandem::horn
