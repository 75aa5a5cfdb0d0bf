// The keys the dynamic symbolic execution loop of `testgen --compositional | --dse` (Anand,
// Godefroid, Tillmann, TACAS'08; testgen/dse.h) adds to the report.
#pragma once

#include <string>
#include <vector>

#include "mc/ir/program.h"
#include "report/results.h"
#include "report/stats.h"
#include "testgen/dse.h"

namespace tandem::report {

// The targets the loop showed unreachable: the --target label `target` (when it did), and
// branches (each once: unwound loops give one node per iteration).
std::vector<TestgenKeys::Unreachable> unreachableTargets(const ir::Program& p,
                                                         const std::string& target,
                                                         const testgen::DseResult& res);

// The loop's own counters (lazy and relevant queries, mispredictions, the trees).
void dseStats(Stats& stats, const testgen::DseResult& res);

}  // namespace tandem::report
