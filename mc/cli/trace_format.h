// Turning states and traces into report entries: variable values by the names users wrote.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "mc/cli/report.h"
#include "mc/exec/state.h"
#include "mc/ir/program.h"
#include "mc/search/trace.h"

namespace tandem::cli {

// `P`, `P[1]`, the entry procedure's name, or "rules".
std::string threadName(const ir::Program& p, const exec::State& s, exec::ThreadId t);
// Every user-visible variable of the state, flattened: `x`, `P[1].v`, locals of each thread's
// top frame by name (prefixed with the thread when there are several threads), `this.f`.
std::map<std::string, std::string> stateValues(const ir::Program& p, const exec::State& s);
nlohmann::json stateJson(const ir::Program& p, const exec::State& s);
// Each process instance's location (its label), by process name.
nlohmann::json locationsJson(const ir::Program& p, const exec::State& s);
// The report's trace steps (one per move), with the variables each one changed.
std::vector<TraceStep> traceSteps(const ir::Program& p, const search::Trace& tr);
// The statement(s) of a move, as written.
std::string moveText(const ir::Program& p, const search::Move& m);
// Trace as text: one line per step.
void printTrace(std::ostream& os, const std::vector<TraceStep>& steps);

}  // namespace tandem::cli
