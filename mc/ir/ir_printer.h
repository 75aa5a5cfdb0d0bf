// Text forms of the IR: expressions with the program's names (for traces, invariants and
// reports) and whole programs (`tandem ir`).
#pragma once

#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

// An expression in the language's own syntax, with variable and location names.
std::string exprToString(const Program& p, ExprRef e);

// "proc", "method", "init", "process" or "rules".
const char* cfaKindName(CfaKind k);

// The whole IR: variables, then each CFA with its locations and edges.
// `notes` (per LocId, optional): lines shown under a location, before its edges.
std::string programToString(const Program& p,
                            const std::vector<std::vector<std::string>>* notes = nullptr);

}  // namespace tandem::ir
