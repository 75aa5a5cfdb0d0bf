// Which procedures a summary may stand for, shared by `cover --summaries` (Christ, Hoenicke,
// Schaef, Sect. 6) and `testgen --compositional` (Anand, Godefroid, Tillmann, TACAS'08): a
// summary built from the procedure's own runs is a function of its arguments (and havocs) alone
// only if nothing else can reach it.
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::symbolic {

struct SummaryShape {
  // Parameters may also be fixed-length arrays of scalars (arrays are values: passed by copy).
  bool fixedArrayParams = false;
  // The code may havoc (`x = *`): its runs then depend on more than the arguments.
  bool havocs = true;
};

// Procedures (not methods or processes) outside every cycle of calls, with scalar parameters
// (and, as `shape` allows, fixed-length arrays of scalars) and a scalar result or none, whose
// code (and that of the procedures they call) reads and writes only their own locals (scalars
// and arrays of scalars): no globals, objects, references, old() or calls inside expressions.
std::vector<bool> summarisable(const ir::Program& p, SummaryShape shape = {});

}  // namespace tandem::symbolic
