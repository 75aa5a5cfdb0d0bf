#include "report/dse_report.h"

#include <algorithm>

namespace tandem::report {

std::vector<TestgenKeys::Unreachable> unreachableTargets(const ir::Program& p,
                                                         const std::string& target,
                                                         const testgen::DseResult& res) {
  std::vector<TestgenKeys::Unreachable> unreachable;
  if (res.targetUnreachable) unreachable.push_back({target, std::nullopt, std::nullopt});
  for (const testgen::UnreachableBranch& u : res.unreachable) {
    TestgenKeys::Unreachable b{std::nullopt, p.cfas[u.cfa].name, std::nullopt};
    if (u.edge != ir::kNone) b.line = p.edges[u.edge].loc.line;
    auto same = [&b](const TestgenKeys::Unreachable& x) {
      return x.label == b.label && x.procedure == b.procedure && x.line == b.line;
    };
    if (std::find_if(unreachable.begin(), unreachable.end(), same) == unreachable.end())
      unreachable.push_back(std::move(b));
  }
  return unreachable;
}

void dseStats(Stats& stats, const testgen::DseResult& res) {
  stats.mispredictions = res.mispredictions;
  stats.concretizations = res.concretizations;
  stats.lazy_queries = res.lazyQueries;
  stats.lazy_sat = res.lazySat;
  stats.relevant_queries = res.relevantQueries;
  stats.relevant_sat = res.relevantSat;
  stats.solver_unknown = res.unknownAnswers;
  stats.tree_nodes = res.treeNodes;
  stats.dangling_left = res.danglingLeft;
}

}  // namespace tandem::report
