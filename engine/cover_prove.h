// `cover --prove-infeasible`: the engine's side of cover/prove_infeasible.h (which says what is
// proved): copies of the model and `prove` runs, and the report's `proved_infeasible` list.
#pragma once

#include <vector>

#include "cover/prove_infeasible.h"
#include "engine/report_types.h"
#include "engine/request.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"

namespace tandem::engine {

// One answer per location of `locs`.
std::vector<cover::InfeasibleAnswer> proveInfeasible(const ir::Program& p, const CoverRequest& r,
                                                     const std::vector<ir::LocId>& locs,
                                                     search::Budget& budget);

}  // namespace tandem::engine
