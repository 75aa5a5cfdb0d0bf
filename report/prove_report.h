// The keys of a prove report: the errors (the one in `error`: real, or the first potential one, or
// the one triage reproduced, fabricate/triage.h; and the list `potential_errors`), the invariant
// of a proof, the default predicates and the statistics of the fabrication loop.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "abstraction/abstraction.h"
#include "fabricate/prover.h"
#include "fabricate/triage.h"
#include "report/report.h"

namespace tandem::report {

// The report's error for a problem prove found by execution (from an initial or a fabricated
// state).
ErrorInfo proveError(const ir::Program& p, const fabricate::FoundProblem& f);

// The report's error for what triage found from an initial state.
ErrorInfo triagedError(const ir::Program& p, const fabricate::TriageResult& t, ir::CfaId entry);

// `potential_errors`: each with its abstract states and what triage made of it.
std::vector<PotentialErrorRow> potentialErrorRows(
    const std::vector<fabricate::PotentialError>& errors, const fabricate::TriageSummary& t);

Verdict verdictOf(fabricate::ProveResult::Outcome o);

// The verdict, reason, error and invariant of `res` into `rep` (whose error triage may have set):
// unknown when --check-proof failed (`proofCheck`, said on `diag` as an internal error).
void proveOutcome(Report& rep, const ir::Program& p, const fabricate::ProveResult& res,
                  const std::string& proofCheck, bool ofClass, std::ostream* diag);

// The default predicates as "SCOPE: PREDICATE", SCOPE one of "global", "class C", "proc f",
// "method C.m", "init C.init", "process P", "rules" (docs/json.md).
std::vector<std::string> predicateTexts(const ir::Program& p,
                                        const abstraction::ScopedPredicates& sp);

// The fabrication loop's counters.
void proveStats(Stats& stats, const fabricate::ProveStats& s);

}  // namespace tandem::report
