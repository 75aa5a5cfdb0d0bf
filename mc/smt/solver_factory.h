// Assembles a solver chain from options, as KLEE's ConstructSolverChain does. From the top:
//   incremental -> independence slicing -> query cache -> SMT-LIB log -> cross-check -> back end
// so the log records what really reaches a back end, and cache hits are not cross-checked again.
// By default only the incremental layer is on: a check of the chain is then exactly one check of
// the back end (what the reports' `solver_queries` count), and the back end keeps what it learned
// about the prefix a query shares with the previous one. Slicing every query (it asserts each
// group in a fresh scope, so nothing below it is incremental) and the exact-match cache (its hits
// would count as queries that never reached a back end) are off: both measured slower on the
// symbolic executor and on `prove` once the chain is incremental. The symbolic executor's path
// solvers put KLEE's counterexample cache in front of the chain (counterexample_cache.h), whose
// answers are not queries of the chain.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

enum class Backend : uint8_t { Z3, Cvc5 };

const char* backendName(Backend b);  // "z3", "cvc5"
std::optional<Backend> parseBackend(std::string_view name);
Backend otherBackend(Backend b);
// Every compiled back end: tests run over all of them.
std::vector<Backend> allBackends();

struct SolverOptions {
  Backend backend = Backend::Z3;
  unsigned timeoutMs = 0;     // per check; 0 means none
  bool incremental = true;    // prefix-synchronised push/pop (incremental_solver.h)
  bool cache = false;         // exact-match query cache (caching_solver.h)
  bool independence = false;  // independence slicing of every query (independent_solver.h)
  // Unsat cores over a check's assumptions (Solver::unsatAssumptions); only the back end and the
  // decorators that pass assumptions through unchanged give them (not incremental, cache, slicing).
  bool unsatCores = false;
  std::string logPath;      // --smt-log FILE; empty: no log
  bool crossCheck = false;  // --solver-cross-check: also run the other back end on every query
  std::ostream* report = nullptr;  // cross-check reports; null means std::cerr
  QueryStop stop;                  // the run's deadline and stop poll (Solver::setQueryStop)
};

// `unsatCores`: Solver::unsatAssumptions answers after unsat (see SolverOptions::unsatCores).
std::unique_ptr<Solver> makeBackend(Backend b, TermNaming naming, bool unsatCores = false);
// Throws SmtError when the log cannot be opened.
std::unique_ptr<Solver> makeSolver(const SolverOptions& options, const TermNaming& naming);

}  // namespace tandem::smt
