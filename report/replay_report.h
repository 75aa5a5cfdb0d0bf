// The saved --json report `tandem replay` re-executes: read within the run's budget and checked
// for the shape the replay relies on before any of it is used.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "mc/search/driver/budget.h"

namespace tandem::report {

// The report at `path`; null when the budget stopped while it was read (its reason is the run's).
// Throws CommandError (input-error, `PATH: error: ...`, naming the JSON path of a bad field) when
// it is no regular file of at most 1 GiB, no JSON, or not the shape of a report with a
// counterexample. `keepMemory` (Request::keepMemory): a report read in part is left to the OS.
std::unique_ptr<nlohmann::json> readReplayReport(const std::string& path, search::Budget& budget,
                                                 bool keepMemory);

}  // namespace tandem::report
