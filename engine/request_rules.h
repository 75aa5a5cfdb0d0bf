// The rules between a request's options that no single option can check (a flag that only means
// something with another one): each command checks its request first, so a request filled by a
// test obeys the same rules as one filled from the command line. Each throws usageError.
#pragma once

#include "engine/request.h"
#include "mc/symbolic/mixed_solver.h"

namespace tandem::engine {

// The mixed solver's settings of --heuristic, --max-tries and --paper-defaults for `solving`
// (each applies to some modes only).
symbolic::MixedOptions mixedOptions(const MixedTuning& t, symbolic::Solving solving, uint64_t seed);

void checkRules(const CheckRequest& r);
// --store bitstate: the array's size, log2 of its bits (a usage error when --bitstate-bits does
// not fit --memory-limit).
unsigned bitstateBits(const CheckRequest& r);
void checkRules(const ProveRequest& r);
void checkRules(const TestgenRequest& r);
void checkRules(const CoverRequest& r);

}  // namespace tandem::engine
