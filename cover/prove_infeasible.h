// `cover --prove-infeasible` (beyond Christ, Hoenicke, Schaef): a location that no execution
// reaches within the unwinding bound is handed to `prove` (abstraction fabrication, Yorsh, Ball,
// Sagiv), on a fresh copy of the program where reaching it is the only error: an `assert false`
// is added at the location, and the program's own assertions are assumed (an execution that
// fails one ends there, as in the reachability verification condition). Proved means no
// execution of any length reaches it. The engine supplies the copy and the prove run
// (mc/symbolic/prove_on_copy.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"
#include "mc/symbolic/prove_on_copy.h"

namespace tandem::cover {

struct InfeasibleAnswer {
  // infeasible: for every unwinding; feasible: prove found an execution that reaches it (more
  // unwinding covers it); bounded: undecided.
  enum class Result : uint8_t { Infeasible, Feasible, Bounded };
  std::string label;  // the location's first label, else empty and
  uint32_t line = 0;  // its source line
  Result result = Result::Bounded;
  std::string prove;   // prove's verdict (empty: not run)
  std::string reason;  // prove's reason, or the budget's when no run was made
};
const char* resultName(InfeasibleAnswer::Result r);

// One answer per labelled location of `locs` and per source line of the others (its first
// location). Each `prove` run gets what is left of the budget's time, and at most 30 s without
// a deadline.
std::vector<InfeasibleAnswer> proveInfeasible(const ir::Program& p,
                                              const std::vector<ir::LocId>& locs,
                                              const symbolic::ProveOnCopy& hooks,
                                              search::Budget& budget);

}  // namespace tandem::cover
