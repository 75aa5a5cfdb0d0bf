#include "mc/search/explore/exploration.h"

#include "mc/search/explore/parallel_explorer.h"
#include "mc/search/por/por_reducer.h"

namespace tandem::search {

void Exploration::run(const ExplorationRun& how) {
  const SearchOptions& common = how;
  ExploreOptions eo;
  static_cast<SearchOptions&>(eo) = common;
  eo.seed = how.seed;
  eo.graphLimit = how.graphLimit;
  eo.por = por.get();
  if (how.distributed) {
    DistributedOptions o;
    static_cast<SearchOptions&>(o) = common;
    dist =
        how.ranks ? DistributedExplorer(sys(), *how.ranks, o).run() : exploreInProcess({&sys()}, o);
    res = dist.result;
    errorPath = dist.path;
  } else if (threads > 1 || store != StoreKind::Exact) {
    ParallelOptions po;
    static_cast<SearchOptions&>(po) = common;
    po.store = store;
    po.bitstateBits = bits;
    po.threads = threads;
    const PorAnalysis* reduction = por.get();
    if (reduction) po.reducer = [reduction] { return std::make_unique<PorReducer>(*reduction); };
    // Every worker has its own system (they keep scratch buffers); the evaluator is shared.
    const bool isCompiled = compiled != nullptr;
    auto make = [this, isCompiled]() -> std::unique_ptr<TransitionSystem> {
      if (isCompiled) return std::make_unique<CompiledSystem>(p_, ev_, go_);
      return std::make_unique<GenericSystem>(p_, ev_, go_);
    };
    ParallelExplorer px(make, po);
    res = px.run();
    errorPath = px.errorPath();
    workers = px.workersStarted();
  } else {
    ex = std::make_unique<Explorer>(sys(), eo);
    res = ex->run();
  }
}

}  // namespace tandem::search
