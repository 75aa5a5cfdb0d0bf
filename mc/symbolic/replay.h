// Concrete replay of a symbolic path with the reference evaluator: the inputs of its model must
// drive the concrete execution along exactly the same edges, to the same end (termination, a
// blocked location, or the same error). Anything else is a divergence. A path of the class
// analysis starts with the class initialiser and starts each recorded method call where its
// edges begin, on the object the initialiser constructed, once the previous call has returned.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::symbolic {

struct Replay {
  bool followed = false;
  std::string problem;              // why not
  std::vector<exec::State> states;  // states[0] initial, states[i + 1] after path edge i
  // Class analysis: (i, s) for each method call started before path edge i; s is the state with
  // the method's frame, from which edge i runs.
  std::vector<std::pair<size_t, exec::State>> callStarts;
  // The error the last edge (or call start) raised. Not followed: the error a step raised
  // concretely where the symbolic path went on (the inputs still drive the program into it).
  std::optional<exec::ExecError> error;
  ir::LocId errorLoc = ir::kNone;   // the failing edge's source, or the failing frame's entry
  std::vector<std::string> labels;  // labels of the locations visited, in order, unique
  // Assertions executed whose `verified` premise was false (or that have none): the run is an
  // unverified execution (Christakis, Mueller, Wuestholz, ICSE'16), not a redundant test.
  uint32_t unverified = 0;
  // Followed, without an error: why the concrete run could not be run on to its end after the
  // path (empty: it ended, blocked, or there was nothing after the path).
  std::string unfinished;
  // Not followed: the concrete run left the path and went on alone to its end; `error`, `labels`
  // and `unfinished` say how it ended, `states` stop where it left the path.
  bool ranOn = false;

  // The state path edge i runs from.
  const exec::State& before(size_t i) const;
};

// `keepStates` false: `states` and `callStarts` hold only the last state (a test's labels and
// error need no more, and a long path then costs no copy of every state).
Replay replayPath(const exec::Evaluator& ev, ir::CfaId entry, const PathEnd& end,
                  bool keepStates = true);

}  // namespace tandem::symbolic
