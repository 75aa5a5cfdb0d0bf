// What every analysis command needs before it starts: the tracked error kinds and the natives.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>

#include "mc/cli/options.h"
#include "mc/exec/natives.h"
#include "mc/ir/cutpoints.h"
#include "mc/ir/program.h"

namespace tandem::cli {

// From --check (all kinds by default); nullopt after printing a usage error.
std::optional<std::array<bool, ir::kErrorKinds>> trackedKinds(const Options& o, std::ostream& err);

// From --cutpoints (`loops` or `all`); nullopt after printing a usage error.
std::optional<ir::CutpointMode> cutpointMode(const Options& o, std::ostream& err);

// The --entry procedure of an open system (kNone for a closed system without --entry); false
// after printing an error (no such procedure, or an open system without --entry).
bool entryProcedure(const Options& o, const ir::Program& p, ir::CfaId& entry, std::ostream& err);

// Every declared native must have an implementation with a matching signature; prints the
// problems and returns false otherwise.
bool checkNatives(const ir::Program& p, const exec::NativeRegistry& natives, std::ostream& err);

// Loads every --natives plugin into `natives`, in order (a later one overrides an earlier name).
// Prints the first failure and returns false.
bool loadNativePlugins(const Options& o, exec::NativeRegistry& natives, std::ostream& err);

}  // namespace tandem::cli
