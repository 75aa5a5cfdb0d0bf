// The engine API: one call per command. Each takes the loaded program and the command's request
// and returns its report (report/report.h); problems with the request or the model are thrown as
// CommandError. Bounds and interrupts never throw: they end the run with a complete report
// (verdict unknown, the reason). The CLI maps options to requests and prints reports.
#pragma once

#include "engine/report_types.h"
#include "engine/request.h"
#include "mc/ir/program.h"
#include "report/walk_steps.h"

namespace tandem::engine {

Report check(const ir::Program& p, const CheckRequest& r);
// Non-const: --predicates FILE adds expressions to the program's expression manager.
Report prove(ir::Program& p, const ProveRequest& r);
Report testgen(const ir::Program& p, const TestgenRequest& r);
// Non-const: --prove-infeasible runs `prove`, whose predicates join the expression manager.
Report cover(ir::Program& p, const CoverRequest& r);
// Re-executes the counterexample of a saved report step by step (as `spin -t`): verdict error
// (potential-error from a fabricated state) when it reproduces, unknown with the first step that
// differs when it does not. Non-const: the saved run's --invariant properties join the program.
Report replay(ir::Program& p, const ReplayRequest& r);
Report exportChc(const ir::Program& p, const ExportChcRequest& r);
// `instrumented`: each location with the may/must-unverified conditions inferred there.
Report printIr(const ir::Program& p, const std::string& file, bool instrumented = false);

// `run` reports each step as it happens (so a long run holds no trace in memory).
using report::StepObserver;
Report run(const ir::Program& p, const RunRequest& r, StepObserver& observer);

}  // namespace tandem::engine
