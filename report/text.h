// Reports as text: what each command prints without --json (the JSON form is Report::toJson).
#pragma once

#include <cstdint>
#include <iosfwd>

#include "report/report.h"

namespace tandem::report {

enum class TraceFormat : uint8_t { Text, Json, Spin };

struct TextOptions {
  bool trace = false;                           // the counterexample's steps, not only their number
  bool stats = false;                           // the stats object after the summary
  TraceFormat traceFormat = TraceFormat::Text;  // --trace-format
};

void printText(std::ostream& os, const Report& r, const TextOptions& o);
// One line per step: `    3  P[0]  T: turn := 1 - pid    {turn = 0}`.
void printTraceStep(std::ostream& os, const TraceStep& s);

}  // namespace tandem::report
