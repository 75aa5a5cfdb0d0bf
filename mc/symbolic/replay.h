// Concrete replay of a symbolic path with the reference evaluator: the inputs of its model must
// drive the concrete execution along exactly the same edges, to the same end (termination, a
// blocked location, or the same error). Anything else is a divergence.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::symbolic {

struct Replay {
  bool followed = false;
  std::string problem;                   // why not
  std::vector<exec::State> states;       // states[0] initial, states[i + 1] after path edge i
  std::optional<exec::ExecError> error;  // the error the last edge raised
  std::vector<std::string> labels;       // labels of the locations visited, in order, unique
};

Replay replayPath(const exec::Evaluator& ev, ir::CfaId entry, const PathEnd& end);

}  // namespace tandem::symbolic
