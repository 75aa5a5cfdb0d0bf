#include "engine/cover_prove.h"

#include "cover/prove_infeasible.h"
#include "engine/prove_on_copy.h"

namespace tandem::engine {

std::vector<cover::InfeasibleAnswer> proveInfeasible(const ir::Program& p, const CoverRequest& r,
                                                     const std::vector<ir::LocId>& locs,
                                                     search::Budget& budget) {
  auto request = [&r](double seconds) {
    ProveRequest pr;
    static_cast<Request&>(pr) = static_cast<const Request&>(r);
    pr.search = searchOrder(r);  // cover's own order (prove alone defaults to bfs)
    pr.progress = nullptr;
    pr.quiet = true;
    pr.keepMemory = false;
    pr.tracked = {};
    pr.tracked[static_cast<size_t>(ir::ErrorKind::Assert)] = true;
    pr.limits.maxStates.reset();
    pr.limits.maxDepth.reset();
    pr.limits.timeoutSeconds = seconds;
    return pr;
  };
  return cover::proveInfeasible(p, locs, proveOnCopy(request), budget);
}

}  // namespace tandem::engine
