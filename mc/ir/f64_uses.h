// Where a program computes with f64. The solver-based engines (symbolic execution, SMT, prove,
// cover, export-chc) have no Float64 theory yet: they refuse such a program up front, at the
// first use, rather than meet an f64 deep inside a query and mis-handle it.
#pragma once

#include <optional>

#include "mc/ir/program.h"

namespace tandem::ir {

// The earliest position of an f64 in `p`: a variable whose type holds an f64 (arrays, refs), or
// else an edge with an f64 expression; nullopt when there is none. A use without a source
// position (a compiler-made variable) gives an invalid SourceLoc.
std::optional<SourceLoc> firstF64Use(const Program& p);

}  // namespace tandem::ir
