// The `// RUN:` and `// EXPECT:` directives of a conformance file (spec/CLI.md, "Conformance
// files"). Parsing is strict: a directive that cannot be understood is an error that fails the
// run, so a typo never turns a check into a silent pass.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tests/conformance/expectation.h"

namespace tandem::conformance {

struct RunLine {
  int line = 0;                      // 1-based line of the RUN directive
  std::string text;                  // as written after `RUN:` (`tandem prove --json %s`)
  std::vector<std::string> args;     // after `tandem`, with %s replaced by the file's path
  std::vector<Expectation> expects;  // the EXPECT lines below it, in order
  std::vector<std::string> errors;   // malformed RUN or EXPECT lines: the RUN line fails unrun

  // The first argument unless it is a flag (`prove` in `tandem prove --json %s`), else "".
  std::string commandWord() const;
};

// A problem that belongs to no RUN line (line 0: the whole file).
struct FileError {
  int line = 0;
  std::string message;
};

struct ParsedFile {
  std::string path;
  std::vector<RunLine> runs;
  std::vector<FileError> errors;
};

struct SplitResult {
  std::vector<std::string> words;
  std::string error;  // non-empty: an unterminated quote
};

// Splits on whitespace; '...' and "..." group words and are removed (`--invariant "x > 0"`).
SplitResult splitArgs(std::string_view text);

ParsedFile parseDirectives(std::string_view contents, const std::string& path);

// Reads and parses a file; an unreadable file is a FileError.
ParsedFile readDirectives(const std::string& path);

}  // namespace tandem::conformance
