// What every command sets up before it runs: the budget and the progress line of the run, the
// natives (built-ins and --natives plugins), the solver chain, the entry procedure or class.
// Problems are thrown as CommandError (exit status 2).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/report_types.h"
#include "engine/request.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/natives.h"
#include "mc/search/driver/budget.h"
#include "mc/search/driver/progress.h"
#include "mc/smt/solver.h"

namespace tandem::engine {

// The one budget and progress line of a run.
struct RunBudget {
  explicit RunBudget(const Request& r)
      : budget(r.limits, r.interrupt), progress(r.progress, budget) {}
  search::Budget budget;
  search::Progress progress;
};

// What one run of a command holds, made once by the command's entry and handed to its helpers:
// the program and the request, the budget and progress line, the natives (built-ins and the
// --natives plugins, every `native` bound) and the reference evaluator over them.
struct RunContext {
  RunContext(const ir::Program& program, const Request& request);
  RunContext(const RunContext&) = delete;
  const ir::Program& p;
  const Request& r;
  RunBudget rb;
  exec::NativeRegistry natives;
  exec::Evaluator ev;  // over `natives`
};

// What stops a running solver query: the run's deadline, its interrupt flag and memory limit.
smt::QueryStop queryStop(const search::Budget& b);

// Built-ins and every plugin of r.natives; every `native` of `p` must be bound.
void loadNatives(const Request& r, const ir::Program& p, exec::NativeRegistry& natives);

// What a client needs of its solver chain besides r.solver.
struct ChainNeeds {
  // The prefix-synchronising layer on top (incremental_solver.h), for clients whose queries
  // extend each other along a path.
  bool incremental = true;
  bool unsatCores = false;  // smt::SolverOptions::unsatCores
};

// The solver chain of r.solver, stopped by the budget.
std::unique_ptr<smt::Solver> makeSolver(const Request& r, const ir::Program& p,
                                        const search::Budget& b, ChainNeeds needs = {});

// The solver-based engines (symbolic execution, prove, cover, export-chc) have no Float64 theory
// yet: a program with an f64 is refused, at its first f64, as `FILE:LINE:COL: error: f64 is not
// supported by WHAT yet` (exit status 2).
void refuseF64(const ir::Program& p, const std::string& what);

// The --entry procedure of an open system (kNone for a closed system without --entry).
ir::CfaId entryOf(const Request& r, const ir::Program& p);
// The --class under analysis (its index), or kNone without --class.
uint32_t classOf(const Request& r, const ir::Program& p);

// Request::keepMemory: `owned` is left to the OS at exit rather than freed (a big DOM, a solver's
// term caches), when `keep`.
template <class T>
struct LeaveAtExit {
  std::unique_ptr<T>& owned;
  bool keep;
  ~LeaveAtExit() {
    if (keep) (void)owned.release();
  }
};

// Runs `f`; what an engine refuses becomes an input error of `file` (exit status 2): a construct
// it does not implement (its message after `prefix`), a solver failure ("solver failure: ..."),
// and, when `unsupportedPrefix` is given, a query the solver does not support (after it).
void asInputErrors(const std::string& file, const std::string& prefix,
                   const std::function<void()>& f, const char* unsupportedPrefix = nullptr);

// Stats every report has: time and peak memory.
void addRunStats(Stats& stats, const search::Budget& b);

}  // namespace tandem::engine
