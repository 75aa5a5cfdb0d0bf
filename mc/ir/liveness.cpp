#include "mc/ir/liveness.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "mc/ir/edge_exprs.h"

namespace tandem::ir {

namespace {

// The variables named as `P[i].v` anywhere in `e`.
void collectProcLocals(ExprRef e, std::set<VarId>& out, std::unordered_set<ExprRef>& seen) {
  if (!seen.insert(e).second) return;
  if (e->op == Op::ProcLocal) out.insert(static_cast<VarId>(*e->value.toInt64()));
  for (ExprRef k : e->kids) collectProcLocals(k, out, seen);
}

// What an edge reads (gen) and overwrites whole (kill). A write to an element, field or through
// a pointer reads the rest of the variable, so it counts as a read.
struct EdgeUse {
  std::set<VarId> gen, kill;
};

EdgeUse useOf(const Edge& e) {
  EdgeUse u;
  auto read = [&u](ExprRef x) {
    for (uint32_t v : freeVars(x)) u.gen.insert(v);
  };
  for (ExprRef x : {e.guard, e.cond, e.result})
    if (x) read(x);
  for (ExprRef x : e.args) read(x);
  for (const Assignment& a : e.assigns) {
    if (a.rhs) read(a.rhs);
    if (a.lhs->op != Op::Var) read(a.lhs);
  }
  // Killed only when no expression of the edge reads it: sequential effects (DVE) may write a
  // variable and read it after; counting it live is the safe side.
  for (const Assignment& a : e.assigns)
    if (a.lhs->op == Op::Var && !u.gen.count(a.lhs->payload)) u.kill.insert(a.lhs->payload);
  return u;
}

}  // namespace

std::vector<std::vector<VarId>> deadProcessLocals(const Program& p) {
  std::vector<std::vector<VarId>> dead(p.locs.size());
  std::set<VarId> pinned;
  std::unordered_set<ExprRef> seen;
  for (const Edge& e : p.edges)
    forEachExpr(e, [&](ExprRef x) { collectProcLocals(x, pinned, seen); });
  for (const Property& inv : p.invariants) collectProcLocals(inv.expr, pinned, seen);
  for (ExprRef x : p.inits) collectProcLocals(x, pinned, seen);
  for (CfaId c : p.processes) {
    const Cfa& cfa = p.cfas[c];
    std::set<VarId> taken = addressTaken(p, c);
    std::vector<VarId> vars;
    for (VarId v : cfa.processLocals)
      if (!pinned.count(v) && !taken.count(v)) vars.push_back(v);
    if (vars.empty()) continue;
    std::vector<EdgeUse> uses(p.edges.size());
    for (LocId l : cfa.locs)
      for (EdgeId e : p.locs[l].out) uses[e] = useOf(p.edges[e]);
    // live[l]: the variables of `vars` live at l. Iterate to the least fixpoint.
    std::vector<std::set<VarId>> live(p.locs.size());
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = cfa.locs.rbegin(); it != cfa.locs.rend(); ++it) {
        std::set<VarId> in;
        for (EdgeId eid : p.locs[*it].out) {
          const Edge& e = p.edges[eid];
          const EdgeUse& u = uses[eid];
          for (VarId v : vars)
            if (u.gen.count(v) || (live[e.to].count(v) && !u.kill.count(v))) in.insert(v);
        }
        if (in != live[*it]) {
          live[*it] = std::move(in);
          changed = true;
        }
      }
    }
    for (LocId l : cfa.locs)
      for (VarId v : vars)
        if (!live[l].count(v)) dead[l].push_back(v);
  }
  for (auto& d : dead) std::sort(d.begin(), d.end());
  return dead;
}

}  // namespace tandem::ir
