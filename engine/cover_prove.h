// `cover --prove-infeasible` (beyond Christ, Hoenicke, Schaef): a location that no execution
// reaches within the unwinding bound is handed to `prove` (abstraction fabrication, Yorsh, Ball,
// Sagiv), on a fresh copy of the program where reaching it is the only error: an `assert false`
// is added at the location, and the program's own assertions are assumed (an execution that
// fails one ends there, as in the reachability verification condition). Proved means no
// execution of any length reaches it.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "engine/request.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"
#include "report/report.h"

namespace tandem::engine {

// One entry per labelled location of `locs` and per source line of the others (its first
// location): {"label" or "line", "result": "infeasible" (for every unwinding) | "feasible" (prove
// found an execution that reaches it: more unwinding covers it) | "bounded" (undecided),
// "prove": prove's verdict, "reason"}. Each `prove` run gets what is left of the run's time, and
// at most 30 s without --timeout.
nlohmann::json proveInfeasible(const ir::Program& p, const CoverRequest& r,
                               const std::vector<ir::LocId>& locs, search::Budget& budget);

}  // namespace tandem::engine
