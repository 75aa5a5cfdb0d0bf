// The commands that run the symbolic executor (mc/symbolic): `check --entry P` on an open system
// with inputs, `check --class C`, and `testgen --entry P`.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/cli/commands.h"
#include "mc/cli/report.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/natives.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/replay.h"
#include "mc/symbolic/sym_state.h"

namespace tandem::cli {

int runSymbolicCheck(const Options& o, const ir::Program& p, Io io);
int runTestgenCommand(const Options& o, const ir::Program& p, Io io);

// Shared by the two commands (defined in cmd_check_symbolic.cpp).
namespace symbolic_cli {
// Entry, bounds, search and tracked kinds; nullopt after printing a usage error.
std::optional<symbolic::ExploreOptions> exploreOptions(const Options& o, const ir::Program& p,
                                                       std::ostream& err);
// The solver chain of --solver, --solver-timeout-ms, --smt-log, --solver-cross-check; null after
// printing an error.
std::unique_ptr<smt::Solver> makeSolver(const Options& o, const ir::Program& p, std::ostream& err);
// Report trace steps of a concrete replay (the error step last, with the state before it). In
// the class analysis each step's `process` is the call it belongs to, e.g. `push(3)`.
std::vector<TraceStep> replayTrace(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                                   const symbolic::PathEnd& end);
// `C(1, 2)` for a class initialiser, `m(3)` for a method, `f(4)` for a procedure.
std::string callText(const ir::Program& p, ir::CfaId cfa, const std::vector<exec::Value>& args);
nlohmann::json valueJson(const exec::Value& v);  // numbers, booleans, lists, else text
nlohmann::json inputsJson(const symbolic::PathEnd& end);
// The counters of the solving mode (undecided, concretizations, ...) and solver_unknown.
void addSolvingStats(nlohmann::json& stats, const symbolic::ExploreResult& r);
// `solving` (and for mixed `heuristic`, `max_tries`) in the report.
void addSolvingKeys(nlohmann::json& extra, const symbolic::ExploreOptions& eo);
// The class analysis: the initialiser's call, then each method call, with named arguments.
nlohmann::json callsJson(const ir::Program& p, ir::CfaId entry, const symbolic::PathEnd& end);

// One symbolic exploration with everything it needs (natives with plugins, evaluator, solver),
// which the report code uses afterwards (replays run on `ev`).
struct Run {
  symbolic::ExploreOptions options;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  std::unique_ptr<smt::Solver> solver;
  symbolic::ExploreResult result;
};
// Null after printing a usage, input or solver error (exit 2).
std::unique_ptr<Run> explore(const Options& o, const ir::Program& p, bool stopAtError,
                             std::ostream& err);
}  // namespace symbolic_cli

}  // namespace tandem::cli
