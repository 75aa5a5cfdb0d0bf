#include "mc/ir/cutpoints.h"

namespace tandem::ir {

std::vector<bool> computeCutpoints(const Program& p, CutpointMode mode) {
  std::vector<bool> cut(p.locs.size(), mode == CutpointMode::All);
  if (mode == CutpointMode::All) return cut;
  for (const Location& l : p.locs) {
    CfaKind k = p.cfas[l.cfa].kind;
    cut[l.id] = k == CfaKind::Process || k == CfaKind::Rules || l.loopHead || l.isEntry ||
                l.isExit || l.callSite || l.afterCall || l.property;
  }
  return cut;
}

}  // namespace tandem::ir
