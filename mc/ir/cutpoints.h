// Cutpoints: the locations where abstraction fabrication (ISSTA'06) abstracts states. With
// `Loops`, every loop head, procedure entry and exit, call site and return site, and property
// location (assertions); every location of processes and rules (their interleaving makes each
// global location a meeting point). With `All`, every location.
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

enum class CutpointMode { Loops, All };

// Indexed by LocId.
std::vector<bool> computeCutpoints(const Program& p, CutpointMode mode);

}  // namespace tandem::ir
