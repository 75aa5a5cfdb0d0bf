// The errors of a prove report: the one in `error` (real, or the first potential one; or the one
// triage reproduced, fabricate/triage.h) and the list of potential errors, `potential_errors`.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "fabricate/triage.h"
#include "report/report.h"

namespace tandem::report {

// The report's error for a problem prove found by execution (from an initial or a fabricated
// state).
ErrorInfo proveError(const ir::Program& p, const fabricate::FoundProblem& f);

// The report's error for what triage found from an initial state.
ErrorInfo triagedError(const ir::Program& p, const fabricate::TriageResult& t, ir::CfaId entry);

// `potential_errors`: each with its abstract states and what triage made of it.
nlohmann::json potentialErrorsJson(const std::vector<fabricate::PotentialError>& errors,
                                   const fabricate::TriageSummary& t);

}  // namespace tandem::report
