// The procedures a run from one entry can execute: the entry and, transitively, the callees of
// its call edges (calls inside expressions are not edges: their procedures run to their end
// there, and the analyses that ask this treat them as part of the expression).
#pragma once

#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

// `entry` first, then each procedure in the order a depth-first walk (last found, first visited)
// reaches it; each once.
std::vector<CfaId> callClosure(const Program& p, CfaId entry);

// The locations labelled `label` in `entry` and the procedures it calls.
std::vector<LocId> labelledLocations(const Program& p, const std::string& label, CfaId entry);

}  // namespace tandem::ir
