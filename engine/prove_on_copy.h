// The engine's side of symbolic::ProveOnCopy (mc/symbolic/prove_on_copy.h), for `prove
// --annotate` and `cover --prove-infeasible`: a run is the `prove` command with the request
// `request` makes for the seconds left.
#pragma once

#include <functional>

#include "engine/request.h"
#include "mc/symbolic/prove_on_copy.h"

namespace tandem::engine {

symbolic::ProveOnCopy proveOnCopy(std::function<ProveRequest(double seconds)> request);

}  // namespace tandem::engine
