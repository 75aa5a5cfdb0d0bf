#include "report/dse_report.h"

#include <algorithm>

namespace tandem::report {

nlohmann::json unreachableTargets(const ir::Program& p, const std::string& target,
                                  const testgen::DseResult& res) {
  nlohmann::json unreachable = nlohmann::json::array();
  if (res.targetUnreachable) unreachable.push_back({{"label", target}});
  for (const testgen::UnreachableBranch& u : res.unreachable) {
    nlohmann::json b{{"procedure", p.cfas[u.cfa].name}};
    if (u.edge != ir::kNone) b["line"] = p.edges[u.edge].loc.line;
    if (std::find(unreachable.begin(), unreachable.end(), b) == unreachable.end())
      unreachable.push_back(std::move(b));
  }
  return unreachable;
}

void dseStats(nlohmann::json& stats, const testgen::DseResult& res) {
  stats.update(nlohmann::json{
      {"mispredictions", res.mispredictions},
      {"concretizations", res.concretizations},
      {"lazy_queries", res.lazyQueries},
      {"lazy_sat", res.lazySat},
      {"relevant_queries", res.relevantQueries},
      {"relevant_sat", res.relevantSat},
      {"solver_unknown", res.unknownAnswers},
      {"tree_nodes", res.treeNodes},
      {"dangling_left", res.danglingLeft},
  });
}

}  // namespace tandem::report
