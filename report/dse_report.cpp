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
  stats["mispredictions"] = res.mispredictions;
  stats["concretizations"] = res.concretizations;
  stats["lazy_queries"] = res.lazyQueries;
  stats["lazy_sat"] = res.lazySat;
  stats["relevant_queries"] = res.relevantQueries;
  stats["relevant_sat"] = res.relevantSat;
  stats["solver_unknown"] = res.unknownAnswers;
  stats["tree_nodes"] = res.treeNodes;
  stats["dangling_left"] = res.danglingLeft;
}

}  // namespace tandem::report
