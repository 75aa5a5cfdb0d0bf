// Counterexamples: the path of stored states to an error is turned back into moves (thread,
// edges, choices) and replayed by the reference evaluator from a reference initial state. A
// replay that does not reproduce the error is a bug of Tandem, and the trace says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mc/exec/state.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"

namespace tandem::search {

struct TraceStep {
  Move move;
  exec::State before, after;
};

struct Trace {
  exec::State initial;
  std::vector<TraceStep> steps;  // the last one raises the error (or reaches a deadlock)
  bool replayed = false;         // the reference evaluator reproduced the error
  std::string problem;           // why not
};

// `sys` explored and found `res` (ErrorFound or Deadlock); `ref` is the reference system of the
// same program (it may be `sys` itself).
Trace buildTrace(TransitionSystem& sys, const StateStore& store, const ExploreResult& res,
                 GenericSystem& ref, exec::Evaluator& ev);
// The same from the path of states itself, an initial state first and the state the error was
// found from last (empty: the error is in an initial state); res.errorSource is not read. The
// distributed search gathers such a path from the ranks that own its states.
Trace buildTrace(TransitionSystem& sys, const std::vector<std::string>& path,
                 const ExploreResult& res, GenericSystem& ref, exec::Evaluator& ev);

}  // namespace tandem::search
