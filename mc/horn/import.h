// The CHC-COMP front end: a file of constrained Horn clauses in SMT-LIB (`(set-logic HORN)`,
// https://chc-comp.github.io/format.html) becomes a closed ir::Program that reaches its error
// location iff the clauses are unsatisfiable (mc/horn/lower.h). Z3 parses the file; linear
// clauses over Int and Bool are read, anything else is refused as not supported.
#pragma once

#include <memory>

#include "mc/ir/program.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem {

// Null after reporting errors in `diags`: Z3's syntax and sort errors at the position it gives,
// unsupported clauses at their `(assert`, unsupported predicates at their `(declare-fun`.
std::unique_ptr<ir::Program> importHorn(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem
