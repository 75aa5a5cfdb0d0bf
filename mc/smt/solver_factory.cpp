#include "mc/smt/solver_factory.h"

#include <iostream>

#include "mc/smt/caching_solver.h"
#include "mc/smt/cross_check_solver.h"
#include "mc/smt/cvc5_solver.h"
#include "mc/smt/incremental_solver.h"
#include "mc/smt/independent_solver.h"
#include "mc/smt/logging_solver.h"
#include "mc/smt/z3_solver.h"

namespace tandem::smt {

const char* backendName(Backend b) { return b == Backend::Z3 ? "z3" : "cvc5"; }

std::optional<Backend> parseBackend(std::string_view name) {
  if (name == "z3") return Backend::Z3;
  if (name == "cvc5") return Backend::Cvc5;
  return std::nullopt;
}

Backend otherBackend(Backend b) { return b == Backend::Z3 ? Backend::Cvc5 : Backend::Z3; }

std::vector<Backend> allBackends() { return {Backend::Z3, Backend::Cvc5}; }

std::unique_ptr<Solver> makeBackend(Backend b, TermNaming naming, bool unsatCores) {
  // Z3 names the assumptions of an unsat core at no extra cost; cvc5 needs its proofs on.
  return b == Backend::Z3 ? makeZ3Solver(std::move(naming))
                          : makeCvc5Solver(std::move(naming), unsatCores);
}

std::unique_ptr<Solver> makeSolver(const SolverOptions& options, const TermNaming& naming) {
  std::unique_ptr<Solver> s = makeBackend(options.backend, naming, options.unsatCores);
  if (options.crossCheck)
    s = makeCrossCheckSolver(std::move(s), makeBackend(otherBackend(options.backend), naming),
                             options.report ? *options.report : std::cerr, naming);
  if (!options.logPath.empty()) s = makeLoggingSolver(std::move(s), options.logPath, naming);
  if (options.cache) s = makeCachingSolver(std::move(s));
  if (options.independence) s = makeIndependentSolver(std::move(s));
  if (options.incremental) s = makeIncrementalSolver(std::move(s));
  s->setTimeout(options.timeoutMs);
  if (options.stop.any()) s->setQueryStop(options.stop);
  return s;
}

}  // namespace tandem::smt
