#include "mc/smt/solver_stats.h"

#include <fmt/format.h>

namespace tandem::smt {

void SolverStats::addChainCounters(const SolverStats& from) {
  backendQueries += from.backendQueries;
  backendSeconds += from.backendSeconds;
  cacheHits += from.cacheHits;
  cacheMisses += from.cacheMisses;
  independentGroups += from.independentGroups;
  crossChecks += from.crossChecks;
  disagreements += from.disagreements;
  modelFailures += from.modelFailures;
  loggedQueries += from.loggedQueries;
}

std::string SolverStats::toString() const {
  return fmt::format(
      "queries {} (sat {}, unsat {}, unknown {}) in {:.3f} s; back end {} in {:.3f} s; "
      "cache {} hits, {} misses; {} independent groups; {} cross-checks, {} disagreements, {} "
      "failed models; {} logged",
      queries, sat, unsat, unknown, seconds, backendQueries, backendSeconds, cacheHits, cacheMisses,
      independentGroups, crossChecks, disagreements, modelFailures, loggedQueries);
}

}  // namespace tandem::smt
