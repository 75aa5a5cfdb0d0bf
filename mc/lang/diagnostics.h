// Collects front-end errors and prints them as `FILE:LINE:COL: error: message`, the source line
// and a caret. A file with any error never starts an analysis (exit status 2).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "mc/lang/source.h"

namespace tandem {

struct Diagnostic {
  SourceLoc loc;
  std::string message;
};

class Diagnostics {
 public:
  explicit Diagnostics(const SourceFile* file = nullptr) : file_(file) {}
  void error(SourceLoc loc, std::string message);
  bool hasErrors() const { return !errors_.empty(); }
  const std::vector<Diagnostic>& errors() const { return errors_; }
  // Prints every error in the order reported, each with its source line and a caret.
  void print(std::ostream& os) const;
  // Errors beyond this many are dropped (a runaway file must not flood the terminal).
  static constexpr size_t kMaxErrors = 50;

 private:
  const SourceFile* file_;
  std::vector<Diagnostic> errors_;
};

}  // namespace tandem
