// The whole front end in one call: read, parse, check, lower. Used by every command.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mc/ir/program.h"
#include "mc/lang/diagnostics.h"

namespace tandem {

struct FrontendOptions {
  // Extra safety properties in expression syntax (the CLI's `--invariant EXPR`).
  std::vector<std::string> extraInvariants;
  // Files of `test` declarations run with the model's own (`check --tests FILE`).
  std::vector<std::string> testFiles;
};

// A diagnostic with the file it is about (for machine-readable reports).
struct FileDiagnostic {
  std::string file;
  SourceLoc loc;
  std::string message;
};

// Parses, checks and lowers `file`. On any error, prints the diagnostics to `err` (and appends
// them to `collected` when given) and returns null. The caller reports exit status 2.
std::unique_ptr<ir::Program> loadProgram(const SourceFile& file, const FrontendOptions& opts,
                                         std::ostream& err,
                                         std::vector<FileDiagnostic>* collected = nullptr);

// Reads a file; returns nullopt (after printing `FILE: error: ...`) when it cannot be read.
std::optional<SourceFile> readSourceFile(const std::string& path, std::ostream& err,
                                         std::vector<FileDiagnostic>* collected = nullptr);

// Prints `d` to `err` and appends its errors to `collected` (when given).
void reportDiagnostics(const Diagnostics& d, const std::string& file, std::ostream& err,
                       std::vector<FileDiagnostic>* collected);

}  // namespace tandem
