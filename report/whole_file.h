// Writing a long text to a file whole or not at all, within the run's budget (export-chc's
// clauses: hundreds of MB, and a truncated Horn system that ends in (check-sat) looks complete
// to a solver, which then answers sat).
#pragma once

#include <string>

#include "mc/search/driver/budget.h"

namespace tandem::report {

// Written: `path` holds `text`. Stopped: the budget stopped the writing (polled between chunks
// of a few MB), and `path` is as it was. A regular file (or a new one) is written to a temporary
// file beside it and renamed over it once complete; anything else (/dev/null, a pipe) is written
// in place, and a stop leaves it without its end. Throws CommandError (input) when the file
// cannot be written.
enum class WriteOutcome { Written, Stopped };
WriteOutcome writeWhole(const std::string& path, const std::string& text, search::Budget& budget);

}  // namespace tandem::report
