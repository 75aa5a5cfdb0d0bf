// `tandem replay FILE REPORT.json`: the counterexample of a saved --json report re-executed step
// by step by the reference evaluator, as `spin -t` follows a trail. Each saved step names its
// process, its source line and the state after it; the replay takes, from the current state, the
// move of that process from that line that leads to that state. It reproduces when the last step
// raises the saved kind of error (a deadlock: no process can move); otherwise the first step no
// move matches is the difference, reported with the moves that were possible there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/exec/evaluator.h"
#include "mc/search/driver/budget.h"
#include "mc/search/generic_system.h"
#include "report/report.h"

namespace tandem::report {

// The replay of the saved report `saved` on `sys` (of `p`, with the saved run's semantics) from
// the entry `entry` (kNone for a closed system) or the class `cls`: verdict error (potential-error
// from a fabricated state) when it reproduces, unknown with the first step that differs when it
// does not; the keys of the replay report but `file`, `report` and the run's stats.
Report replayTrace(const ir::Program& p, const nlohmann::json& saved, exec::Evaluator& ev,
                   search::GenericSystem& sys, ir::CfaId entry, uint32_t cls,
                   search::Budget& budget);

// The integer arguments of the saved `call m(a, b)` steps of `steps`: the pool the class analysis
// draws method arguments from.
std::vector<int64_t> callArguments(const nlohmann::json& steps);

// j[key] when it is a string, else "".
std::string stringAt(const nlohmann::json& j, const char* key);

}  // namespace tandem::report
