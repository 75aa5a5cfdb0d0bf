// Turning states and traces into report entries: variable values by the names users wrote.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/exec/state.h"
#include "mc/ir/program.h"
#include "mc/search/trace.h"
#include "mc/symbolic/replay.h"
#include "report/report.h"

namespace tandem::report {

// `P`, `P[1]`, the entry procedure's name, or "rules".
std::string threadName(const ir::Program& p, const exec::State& s, exec::ThreadId t);
// Every user-visible variable of the state, flattened: `x`, `P[1].v`, locals of each thread's
// top frame by name (prefixed with the thread when there are several threads), `this.f`.
std::map<std::string, std::string> stateValues(const ir::Program& p, const exec::State& s);
nlohmann::json stateJson(const ir::Program& p, const exec::State& s);
// `j` (a value as stateJson prints it) as a value shaped like `like`: numbers for integers,
// booleans, enum members by name, arrays element by element, null. References and objects print
// as names no value can be rebuilt from: only null is accepted for them.
std::optional<exec::Value> valueFromJson(const nlohmann::json& j, const exec::Value& like);
// The inverse of stateJson: each variable named in `values` set to its value (replay rebuilds a
// saved trace's first state so). False, with the problem, for a name or value it cannot set.
bool setStateValues(const ir::Program& p, exec::State& s, const nlohmann::json& values,
                    std::string& problem);
// What a step changed, by the names of stateValues; the locals of a frame it pushed count only
// once assigned (parameters and initialised declarations are).
std::map<std::string, std::string> changedValues(const ir::Program& p, const exec::State& before,
                                                 const exec::State& after);
// The same from what the step's caller kept of the state before it: stateValues(p, before) and
// each thread's number of frames (a step reads no more; a copy of the state costs its depth).
std::map<std::string, std::string> changedValues(const ir::Program& p,
                                                 const std::map<std::string, std::string>& before,
                                                 const std::vector<size_t>& framesBefore,
                                                 const exec::State& after);
// Each thread's number of frames, for changedValues.
std::vector<size_t> frameCounts(const exec::State& s);
// Each process instance's location (its label), by process name.
nlohmann::json locationsJson(const ir::Program& p, const exec::State& s);
// The report's trace steps (one per move), with the variables each one changed.
std::vector<TraceStep> traceSteps(const ir::Program& p, const search::Trace& tr);
// The statement(s) of a move, as written.
std::string moveText(const ir::Program& p, const search::Move& m);
// The same, with a rendezvous's receiving side (`c!x  =>  Q: c?y`), from state `before`.
std::string moveStatement(const ir::Program& p, const exec::State& before, const search::Move& m);

// --- Symbolic paths (check --entry/--class, testgen, prove's triage) ---
// Report trace steps of a concrete replay (the error step last, with the state before it). In
// the class analysis each step's `process` is the call it belongs to, e.g. `push(3)`.
std::vector<TraceStep> replayTrace(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                                   const symbolic::PathEnd& end);
// The report's error for a replay that raised it (`r.error` set).
ErrorInfo replayError(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                      const symbolic::PathEnd& end);
// `C(1, 2)` for a class initialiser, `m(3)` for a method, `f(4)` for a procedure.
// `source`: as the language reads it back (`test` declarations; f64::sourceText).
std::string callText(const ir::Program& p, ir::CfaId cfa, const std::vector<exec::Value>& args,
                     bool source = false);
nlohmann::json valueJson(const exec::Value& v);  // numbers, booleans, lists, else text
nlohmann::json inputsJson(const symbolic::PathEnd& end);
// The class analysis: the initialiser's call, then each method call, with named arguments.
std::vector<SymbolicKeys::Call> methodCalls(const ir::Program& p, ir::CfaId entry,
                                            const symbolic::PathEnd& end);

}  // namespace tandem::report
