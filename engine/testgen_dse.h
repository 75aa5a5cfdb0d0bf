// `testgen --compositional` and `testgen --dse` (engine/testgen_dse.cpp).
#pragma once

#include <string>
#include <vector>

#include "engine/report_types.h"
#include "engine/request.h"

namespace tandem::engine {

Report testgenDse(const ir::Program& p, const TestgenRequest& r, ir::CfaId entry);

}  // namespace tandem::engine
