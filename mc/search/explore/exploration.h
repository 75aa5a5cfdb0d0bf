// The explicit search of `check` over a closed or concrete open system: the transition systems
// (the compiled one when it runs the program exactly, the generic one always, as the reference
// that replays traces), the explorer the store, threads and ranks choose (sequential, parallel
// or distributed), and what it found.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/distributed_explorer.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/por/por_analysis.h"

namespace tandem::search {

// How the search runs: its order, bounds and progress line, and where it is spread.
struct ExplorationRun : SearchOptions {
  uint64_t seed = 0;
  size_t graphLimit = 0;  // --dot: the states to keep for the graph
  bool distributed = false;
  Transport* ranks = nullptr;  // --distributed over MPI (none: one rank in this process)
};

// The explicit search of one run: the transition systems, the explorer chosen by the store, the
// threads and the ranks, and what it found.
struct Exploration {
  Exploration(const ir::Program& p, exec::Evaluator& ev, const GenericOptions& go)
      : p_(p), ev_(ev), go_(go), generic(p, ev, go) {}
  // The sequential search; the parallel one for more threads or another store; the distributed
  // one over `how.ranks` (or one rank in this process without them).
  void run(const ExplorationRun& how);

 private:
  const ir::Program& p_;
  exec::Evaluator& ev_;
  const GenericOptions& go_;

 public:
  GenericSystem generic;  // always: the reference that replays traces
  std::unique_ptr<CompiledSystem> compiled;
  std::string whyGeneric;  // what keeps a closed system from the compiled engine
  TransitionSystem& sys() { return compiled ? static_cast<TransitionSystem&>(*compiled) : generic; }
  StoreKind store = StoreKind::Exact;
  unsigned bits = 0;  // --store bitstate
  std::unique_ptr<const PorAnalysis> por;
  std::string whyNoPor;
  std::unique_ptr<Explorer> ex;        // the sequential search (its store draws --dot)
  std::vector<std::string> errorPath;  // the parallel or distributed search's path to the error
  unsigned threads = 1;                // of the search: --threads, or the cores where it applies
  unsigned workers = 1;                // started
  DistributedResult dist;
  ExploreResult res;
};

}  // namespace tandem::search
