// Triage of a potential error (Yorsh, Ball, Sagiv, ISSTA'06, Sect. 4): an error that prove reached
// only from a fabricated state is searched for again from the real initial states, by a bounded
// search aimed at the same error (same kind, same source line). Explicit breadth-first search
// when the initial states are concrete (shortest traces first), symbolic execution when the entry
// has inputs (the class analysis: fewest method calls first). Finding it turns the potential error
// into an error with a concrete trace from an initial state; not finding it within the bounds
// leaves it a potential error.
#pragma once

#include <cstdint>
#include <optional>

#include "fabricate/prover.h"
#include "mc/symbolic/replay.h"

namespace tandem::fabricate {

// The bounds of the search (tandem prove --triage-*). The run's own budget (its deadline, memory
// limit and interrupt flag) bounds triage too.
struct TriageOptions {
  uint64_t maxStates = 200000;  // explicit states, or symbolic states expanded
  uint64_t maxDepth = 500;      // steps along one symbolic path (explicit search: none)
  double timeoutSeconds = 30;
  uint64_t maxCalls = 4;  // class analysis: method calls after init
};

// The error found from an initial state, with the trace that reaches it: an explicit trace
// (replayed by the reference evaluator), or a symbolic path with its concrete replay.
struct TriageResult {
  exec::ExecError error;
  std::optional<search::Trace> trace;     // explicit search
  std::optional<symbolic::PathEnd> path;  // symbolic search
  symbolic::Replay replay;                // of `path`
};

std::optional<TriageResult> triage(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                                   const ProveOptions& po, const TriageOptions& to,
                                   const exec::ExecError& target);

}  // namespace tandem::fabricate
