#include "mc/ir/call_graph.h"

#include <algorithm>

namespace tandem::ir {

std::vector<CfaId> callClosure(const Program& p, CfaId entry) {
  std::vector<bool> seen(p.cfas.size(), false);
  std::vector<CfaId> todo{entry}, out;
  seen[entry] = true;
  while (!todo.empty()) {
    const CfaId c = todo.back();
    todo.pop_back();
    out.push_back(c);
    for (LocId l : p.cfas[c].locs)
      for (EdgeId e : p.locs[l].out) {
        const Edge& edge = p.edges[e];
        if (edge.kind == EdgeKind::Call && edge.callee < seen.size() && !seen[edge.callee]) {
          seen[edge.callee] = true;
          todo.push_back(edge.callee);
        }
      }
  }
  return out;
}

std::vector<LocId> labelledLocations(const Program& p, const std::string& label, CfaId entry) {
  std::vector<LocId> out;
  for (CfaId c : callClosure(p, entry))
    for (LocId l : p.cfas[c].locs)
      if (std::find(p.locs[l].labels.begin(), p.locs[l].labels.end(), label) !=
          p.locs[l].labels.end())
        out.push_back(l);
  return out;
}

}  // namespace tandem::ir
