// Statistics of a solver chain. The first group counts the check() calls made on the solver the
// statistics come from (for the top of a chain: the client's queries); the second group is summed
// over the layers below it.
#pragma once

#include <cstdint>
#include <string>

namespace tandem::smt {

struct SolverStats {
  uint64_t queries = 0, sat = 0, unsat = 0, unknown = 0;
  double seconds = 0;  // wall-clock time spent in those checks

  uint64_t backendQueries = 0;  // checks that reached a back end
  double backendSeconds = 0;
  uint64_t cacheHits = 0, cacheMisses = 0;
  uint64_t independentGroups = 0;  // groups checked separately by independence slicing
  uint64_t crossChecks = 0, disagreements = 0;
  uint64_t modelFailures = 0;  // models that failed re-evaluation (cross-check decorator)
  uint64_t loggedQueries = 0;

  // Adds the second group of `from` to this one.
  void addChainCounters(const SolverStats& from);
  std::string toString() const;
};

}  // namespace tandem::smt
