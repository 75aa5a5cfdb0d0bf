// Triage of potential errors (Yorsh, Ball, Sagiv, ISSTA'06, Sect. 4): errors that prove reached
// only from fabricated states are searched for again from the real initial states, by one search
// aimed at all of them at once, so that which one is confirmed does not depend on the order prove
// found them in. First explicit breadth-first search from the concrete initial states (the tests,
// or the entry without inputs, and the models of the initial condition prove executed); then,
// when there are inputs, symbolic execution over every input value. The class analysis has only
// the symbolic search (by rounds of method calls, fewest first). Any error it finds comes with a
// trace from an initial state that the reference evaluator replays: a real error. Not finding one
// within the bounds leaves the potential errors potential.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fabricate/prover.h"
#include "mc/symbolic/replay.h"

namespace tandem::fabricate {

// Triage's own caps (tandem prove --triage-*). The run's budget (its deadline, --max-states,
// memory limit and interrupt flag) bounds triage too, and the states triage counts are charged
// to it.
struct TriageOptions {
  uint64_t maxStates = 200000;       // per search: explicit states stored, symbolic states expanded
  std::optional<uint64_t> maxDepth;  // per search: moves from an initial state, steps of a path
  double timeoutSeconds = 30;        // the whole triage
  uint64_t maxCalls = 4;             // class analysis: method calls after init
};

// The error found from an initial state, with the trace that reaches it: an explicit trace
// (replayed by the reference evaluator), or a symbolic path with its concrete replay.
struct TriageResult {
  exec::ExecError error;
  std::optional<search::Trace> trace;     // explicit search
  std::optional<symbolic::PathEnd> path;  // symbolic search
  symbolic::Replay replay;                // of `path`
};

// Searches for the errors of `targets` (their kinds are tracked) from the real initial states;
// `r` is prove's result (its models of the initial condition). nullopt when none was found:
// po.budget->stopped() then says whether the run's budget ended the search.
std::optional<TriageResult> triage(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                   const ProveOptions& po, const TriageOptions& to,
                                   const ProveResult& r);

// After prove: `triage` of its potential errors, when it ended with some. `res.outcome` becomes
// Error when triage reproduces one, Unknown (with the budget's reason) when the run's budget ends
// triage.
struct TriageSummary {
  std::optional<TriageResult> reproduced;
  std::string triage;  // what triage did (empty: it did not run)
  std::string others;  // what the potential errors it did not reproduce are
};
TriageSummary triagePotentialErrors(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                    const ProveOptions& po, const TriageOptions& to,
                                    ProveResult& res);

}  // namespace tandem::fabricate
