// The report layer's types (report/report.h) as the engine and its callers name them: the facade
// returns reports and throws CommandError.
#pragma once

#include "report/report.h"

namespace tandem::engine {

using report::CommandError;
using report::Diagnostic;
using report::ErrorInfo;
using report::exitCode;
using report::fileError;
using report::inputError;
using report::Report;
using report::Stats;
using report::TraceStep;
using report::usageError;
using report::Verdict;
using report::verdictName;

}  // namespace tandem::engine
