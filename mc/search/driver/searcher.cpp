#include "mc/search/driver/searcher.h"

#include "mc/expr/enum_names.h"

namespace tandem::search {

namespace {
constexpr EnumName<Strategy> kStrategyNames[] = {{Strategy::Dfs, "dfs"},
                                                 {Strategy::Bfs, "bfs"},
                                                 {Strategy::Random, "random"},
                                                 {Strategy::Coverage, "coverage"},
                                                 {Strategy::Interleaved, "interleaved"}};
}  // namespace

const char* strategyName(Strategy s) { return enumName(kStrategyNames, s, "dfs"); }

const std::vector<Strategy>& allStrategies() {
  static const std::vector<Strategy> kAll = {Strategy::Dfs, Strategy::Bfs, Strategy::Random,
                                             Strategy::Coverage, Strategy::Interleaved};
  return kAll;
}

std::optional<Strategy> parseStrategy(std::string_view name) {
  return enumFromName(kStrategyNames, name);
}

InterleavedSearcher::InterleavedSearcher(std::vector<std::unique_ptr<Searcher>> parts)
    : parts_(std::move(parts)) {}

void InterleavedSearcher::add(const FrontierEntry& e) {
  if (e.id >= taken_.size()) taken_.resize(e.id + 1, false);
  taken_[e.id] = false;
  for (auto& p : parts_) p->add(e);
  ++live_;
}

FrontierEntry InterleavedSearcher::next() {
  for (;;) {
    Searcher& s = *parts_[turn_];
    turn_ = (turn_ + 1) % parts_.size();
    while (!s.empty()) {
      FrontierEntry e = s.next();
      if (taken_[e.id]) continue;
      taken_[e.id] = true;
      --live_;
      return e;
    }
  }
}

std::unique_ptr<Searcher> makeSearcher(Strategy s, uint64_t seed) {
  switch (s) {
    case Strategy::Dfs:
      return std::make_unique<DfsSearcher>();
    case Strategy::Bfs:
      return std::make_unique<BfsSearcher>();
    case Strategy::Random:
      return std::make_unique<RandomSearcher>(seed);
    case Strategy::Coverage:
      return std::make_unique<CoverageSearcher>();
    case Strategy::Interleaved: {
      std::vector<std::unique_ptr<Searcher>> parts;
      parts.push_back(std::make_unique<CoverageSearcher>());
      parts.push_back(std::make_unique<RandomSearcher>(seed));
      return std::make_unique<InterleavedSearcher>(std::move(parts));
    }
  }
  return std::make_unique<DfsSearcher>();
}

}  // namespace tandem::search
