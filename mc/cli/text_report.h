// Reports as text: what each command prints without --json.
#pragma once

#include <iosfwd>
#include <vector>

#include "engine/report.h"
#include "mc/cli/options.h"

namespace tandem::cli {

void printText(std::ostream& os, const engine::Report& r, const Options& o);
// One line per step: `    3  P[0]  T: turn := 1 - pid    {turn = 0}`.
void printTraceStep(std::ostream& os, const engine::TraceStep& s);

}  // namespace tandem::cli
