#include "mc/search/searcher.h"

namespace tandem::search {

std::unique_ptr<Searcher> makeSearcher(const std::string& name, uint64_t seed) {
  if (name == "dfs") return std::make_unique<DfsSearcher>();
  if (name == "bfs") return std::make_unique<BfsSearcher>();
  if (name == "random") return std::make_unique<RandomSearcher>(seed);
  if (name == "coverage") return std::make_unique<CoverageSearcher>();
  return nullptr;
}

}  // namespace tandem::search
