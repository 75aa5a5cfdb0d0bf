// `tandem check --entry P` on an open system with inputs, and `tandem check --class C`: symbolic
// execution. (check.cpp decides which checks go here.)
#pragma once

#include "engine/report_types.h"
#include "engine/request.h"

namespace tandem::engine {

Report checkSymbolic(const ir::Program& p, const CheckRequest& r);

}  // namespace tandem::engine
