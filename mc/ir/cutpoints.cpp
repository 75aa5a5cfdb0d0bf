#include "mc/ir/cutpoints.h"

#include "mc/expr/enum_names.h"

#include <set>

#include "mc/ir/edge_exprs.h"
#include "mc/ir/local_steps.h"

namespace tandem::ir {

namespace {

// Whether `e` accesses memory: a dereference, a field of an object, an array element, or a
// variable in `inMemory`.
bool accessesMemory(ExprRef e, const std::set<VarId>& inMemory) {
  if (e->op == Op::Deref || e->op == Op::Field || e->op == Op::Select) return true;
  if (e->op == Op::Var && inMemory.count(e->payload)) return true;
  if (e->op == Op::AddrOf) {  // &v names v without reading it; &a[i] still indexes
    ExprRef lv = e->kid(0);
    return lv->op != Op::Var && accessesMemory(lv, inMemory);
  }
  for (ExprRef k : e->kids)
    if (accessesMemory(k, inMemory)) return true;
  return false;
}

// Rule (iv): the locations before a statement that accesses memory.
std::vector<bool> memoryAccesses(const Program& p) {
  std::vector<bool> out(p.locs.size(), false);
  std::set<VarId> globalsTaken;
  std::vector<std::set<VarId>> taken(p.cfas.size());
  for (CfaId c = 0; c < p.cfas.size(); ++c) {
    taken[c] = addressTaken(p, c);
    for (VarId v : taken[c])
      if (p.vars[v].scope == VarScope::Global) globalsTaken.insert(v);
  }
  for (const Location& l : p.locs) {
    std::set<VarId> inMemory = globalsTaken;
    for (VarId v : taken[l.cfa])
      if (p.vars[v].scope != VarScope::Global) inMemory.insert(v);
    for (EdgeId id : l.out)
      forEachExpr(p.edges[id],
                  [&](ExprRef x) { out[l.id] = out[l.id] || accessesMemory(x, inMemory); });
  }
  return out;
}

constexpr EnumName<CutpointMode> kCutpointModeNames[] = {
    {CutpointMode::Loops, "loops"}, {CutpointMode::All, "all"}, {CutpointMode::Paper, "paper"}};
}  // namespace

const char* cutpointModeName(CutpointMode m) { return enumName(kCutpointModeNames, m, "loops"); }

std::optional<CutpointMode> parseCutpointMode(std::string_view s) {
  return enumFromName(kCutpointModeNames, s);
}

std::vector<bool> computeCutpoints(const Program& p, CutpointMode mode) {
  std::vector<bool> cut(p.locs.size(), mode == CutpointMode::All);
  if (mode == CutpointMode::All) return cut;
  const std::vector<bool> memory =
      mode == CutpointMode::Paper ? memoryAccesses(p) : std::vector<bool>(p.locs.size(), false);
  const std::vector<bool> local = localStepLocations(p);
  for (const Location& l : p.locs) {
    CfaKind k = p.cfas[l.cfa].kind;
    if (k == CfaKind::Process) {
      cut[l.id] = !local[l.id] || l.keepCutpoint;
      continue;
    }
    const bool common = k == CfaKind::Process || k == CfaKind::Rules || l.loopHead || l.isEntry ||
                        l.isExit || l.callSite || l.afterCall;
    cut[l.id] = common || (mode == CutpointMode::Loops ? l.property : memory[l.id]);
  }
  return cut;
}

}  // namespace tandem::ir
