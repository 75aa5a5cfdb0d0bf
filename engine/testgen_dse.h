// `testgen --compositional` and `testgen --dse` (engine/testgen_dse.cpp).
#pragma once

#include <string>
#include <vector>

#include "engine/report.h"
#include "engine/request.h"

namespace tandem::engine {

// `labels`: the labels of the entry and the procedures it calls (coverage is reported on them).
Report testgenDse(const ir::Program& p, const TestgenRequest& r, ir::CfaId entry,
                  const std::vector<std::string>& labels);

}  // namespace tandem::engine
