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
};

// Parses, checks and lowers `file`. On any error, prints the diagnostics to `err` and returns
// null. The caller reports exit status 2.
std::unique_ptr<ir::Program> loadProgram(const SourceFile& file, const FrontendOptions& opts,
                                         std::ostream& err);

// Reads a file; returns nullopt (after printing `FILE: error: ...`) when it cannot be read.
std::optional<SourceFile> readSourceFile(const std::string& path, std::ostream& err);

}  // namespace tandem
