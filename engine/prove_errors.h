// The errors of a prove report: the one in `error` (real, or the first potential one), the triage
// of the potential errors (fabricate/triage.h) and their list, `potential_errors`.
#pragma once

#include "engine/report_types.h"
#include "fabricate/triage.h"

namespace tandem::engine {

// The report's error for a problem prove found by execution (from an initial or a fabricated
// state).
ErrorInfo proveError(const ir::Program& p, const fabricate::FoundProblem& f);

// After prove: triages its potential errors (a potential-error outcome) and fills in the
// report's `potential_errors` (every prove report has it), `triage` and, when triage reproduces
// an error, `error`. `res.outcome` becomes Error when triage reproduces one, Unknown (with the
// budget's reason) when the run's budget ends triage.
void triagePotentialErrors(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                           const fabricate::ProveOptions& po, const fabricate::TriageOptions& to,
                           fabricate::ProveResult& res, Report& rep);

}  // namespace tandem::engine
