// Cutpoints: the locations where abstraction fabrication (ISSTA'06) abstracts states.
// - `Loops` (the default): every loop head, procedure entry and exit, call site and return site,
//   and property location (assertions).
// - `Paper`: the rules of ISSTA'06 Sect. 4.2: (i) procedure entry and exit, (ii) loop heads,
//   (iii) call sites and return sites, (iv) locations before a statement that accesses memory:
//   dereferences a pointer (`*p`, `o.f`), indexes an array, or reads or writes a variable whose
//   address is taken (such a variable lives in memory a pointer may alias, as in the paper's C).
// - `All`: every location.
// In every mode, every location of rules and of processes (their interleaving makes each global
// location a meeting point), except, under `Loops` and `Paper`, a process's local steps
// (local_steps.h: steps that commute with every other process's). In every mode, every location
// marked Location::keepCutpoint (the CHC front end's predicates).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

enum class CutpointMode { Loops, All, Paper };

const char* cutpointModeName(CutpointMode m);  // "loops", "all", "paper"
std::optional<CutpointMode> parseCutpointMode(std::string_view s);

// Indexed by LocId.
std::vector<bool> computeCutpoints(const Program& p, CutpointMode mode);

}  // namespace tandem::ir
