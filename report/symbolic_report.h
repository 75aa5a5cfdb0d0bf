// What the symbolic executor (mc/symbolic/symbolic_explorer.h) adds to the reports of `check
// --entry/--class` and `testgen`: an error only once its inputs replay to it in the reference
// evaluator, and the counters and settings of the solving mode.
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "mc/exec/evaluator.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "report/report.h"

namespace tandem::report {

// The error path `end` from `entry` replayed on `ev`: verdict error with its trace and inputs (and
// the method calls of the class analysis), or unknown with the reason it did not replay (an
// internal error, said on `diag`, when nothing explains it).
void symbolicError(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                   const symbolic::PathEnd& end, bool classAnalysis, std::ostream* diag);

// check's verdict on the symbolic search `res` from `entry` (an error replayed as symbolicError
// does) and its counters (with the method calls of the class analysis).
void symbolicOutcome(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                     const symbolic::ExploreResult& res, bool classAnalysis, std::ostream* diag);

// The counters of the solving mode (undecided, concretizations, ...) and solver_unknown.
void solvingStats(Stats& stats, const symbolic::ExploreResult& r);
// `solving` (and for mixed `heuristic`, `max_tries`) in the report.
void solvingKeys(SymbolicKeys& k, const symbolic::ExploreOptions& eo);

}  // namespace tandem::report
