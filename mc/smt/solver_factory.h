// Assembles a solver chain from options, as KLEE's ConstructSolverChain does. From the top:
//   independence slicing -> query cache -> SMT-LIB log -> cross-check -> back end
// so the cache sees the small independent groups, the log records what really reaches a back
// end, and cache hits are not cross-checked again.
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
  unsigned timeoutMs = 0;  // per check; 0 means none
  bool cache = true;
  bool independence = true;
  std::string logPath;      // --smt-log FILE; empty: no log
  bool crossCheck = false;  // --solver-cross-check: also run the other back end on every query
  std::ostream* report = nullptr;  // cross-check reports; null means std::cerr
  QueryStop stop;                  // the run's deadline and stop poll (Solver::setQueryStop)
};

std::unique_ptr<Solver> makeBackend(Backend b, TermNaming naming);
// Throws SmtError when the log cannot be opened.
std::unique_ptr<Solver> makeSolver(const SolverOptions& options, const TermNaming& naming);

}  // namespace tandem::smt
