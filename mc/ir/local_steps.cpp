#include "mc/ir/local_steps.h"

#include <functional>
#include <set>
#include <unordered_set>

#include "mc/ir/edge_exprs.h"

namespace tandem::ir {

namespace {

// The locations named by `P@L` and the processes whose locals are named by `P[i].v` in `e`.
struct Named {
  std::set<LocId> locs;
  std::set<VarId> procLocals;
  std::unordered_set<ExprRef> seen;
  void collect(ExprRef e) {
    if (!seen.insert(e).second) return;
    if (e->op == Op::AtLoc) locs.insert(static_cast<LocId>(*e->value.toInt64()));
    if (e->op == Op::ProcLocal) procLocals.insert(static_cast<VarId>(*e->value.toInt64()));
    for (ExprRef k : e->kids) collect(k);
  }
};

// The processes (CFAs) whose locations `e` names where being there can make `e` true: `P@L`
// under an even number of negations, or under an operator that is not monotone. (At a local
// step a process is at no named location, so an invariant that names its locations only
// negatively is at least as false at the next cutpoint as at the local step.)
void positiveLocations(const Program& p, ExprRef e, bool positive, std::set<CfaId>& out,
                       std::set<std::pair<ExprRef, bool>>& seen) {
  // Each (subterm, polarity) once: a non-monotone operator visits its kids both ways, which is
  // exponential in the nesting without this (found by the expr fuzzer: `2---...---6`).
  if (!seen.emplace(e, positive).second) return;
  switch (e->op) {
    case Op::AtLoc:
      if (positive) out.insert(p.locs[static_cast<LocId>(*e->value.toInt64())].cfa);
      return;
    case Op::Not:
      positiveLocations(p, e->kid(0), !positive, out, seen);
      return;
    case Op::And:
    case Op::Or:
      for (ExprRef k : e->kids) positiveLocations(p, k, positive, out, seen);
      return;
    case Op::Implies:
      positiveLocations(p, e->kid(0), !positive, out, seen);
      positiveLocations(p, e->kid(1), positive, out, seen);
      return;
    default:
      for (ExprRef k : e->kids) {  // both ways
        positiveLocations(p, k, true, out, seen);
        positiveLocations(p, k, false, out, seen);
      }
  }
}

// Whether `e` reads only variables of `own`, through nothing but plain reads and arithmetic.
bool readsOnly(ExprRef e, const std::set<VarId>& own) {
  switch (e->op) {
    case Op::Var:
      return own.count(e->payload) > 0;
    case Op::Call:
    case Op::Deref:
    case Op::Field:
    case Op::AddrOf:
    case Op::Old:
    case Op::NewArray:
    case Op::AtLoc:
    case Op::ProcLocal:
    case Op::Symbol:
      return false;
    default:
      break;
  }
  for (ExprRef k : e->kids)
    if (!readsOnly(k, own)) return false;
  return true;
}

bool isLocalStep(const Program& p, const Location& l, const std::set<VarId>& own) {
  if (l.out.empty() || l.out.size() > 2) return false;
  for (EdgeId id : l.out) {
    const Edge& e = p.edges[id];
    if (e.kind != EdgeKind::Command && e.kind != EdgeKind::Assert) return false;
    bool ok = true;
    forEachExpr(e, [&](ExprRef x) { ok = ok && readsOnly(x, own); });
    if (!ok) return false;
  }
  // Some step is always enabled: one unguarded step, or two whose guards are each other's
  // negation (an `if` or a loop test).
  auto guardOf = [&](EdgeId id) {
    const Edge& e = p.edges[id];
    return e.kind == EdgeKind::Command && e.guard ? e.guard : p.exprs->trueExpr();
  };
  if (l.out.size() == 1) return guardOf(l.out[0])->isTrue();
  if (p.edges[l.out[0]].kind != EdgeKind::Command || p.edges[l.out[1]].kind != EdgeKind::Command)
    return false;
  ExprRef g0 = guardOf(l.out[0]), g1 = guardOf(l.out[1]);
  return p.exprs->mkNot(g0) == g1 || p.exprs->mkNot(g1) == g0;
}

}  // namespace

std::vector<bool> localStepLocations(const Program& p) {
  std::vector<bool> local(p.locs.size(), false);
  Named named;
  for (const Edge& e : p.edges) forEachExpr(e, [&](ExprRef x) { named.collect(x); });
  for (const Property& inv : p.invariants) named.collect(inv.expr);
  for (ExprRef x : p.inits) named.collect(x);
  // Nor where a rendezvous brings its receiver: that step is the sender's (a fragment of `prove`
  // goes on with the sender), so the receiver's next step could not be run at once after it.
  std::unordered_set<LocId> received;
  for (const Edge& e : p.edges)
    if (e.kind == EdgeKind::Sync && !e.syncSend) received.insert(e.to);
  for (ExprRef x : p.predicates) named.collect(x);
  for (const Cfa& c : p.cfas)
    for (ExprRef x : c.predicates) named.collect(x);
  Named invariantNames;
  for (const Property& inv : p.invariants) invariantNames.collect(inv.expr);
  // A process whose location the code reads (`await P@L` in another process) is seen at its
  // local steps too, and one that an invariant names positively could satisfy it only there:
  // neither is reduced.
  Named codeNames;
  for (const Edge& e : p.edges) forEachExpr(e, [&](ExprRef x) { codeNames.collect(x); });
  std::set<CfaId> keepAll;
  for (LocId l : codeNames.locs) keepAll.insert(p.locs[l].cfa);
  std::set<std::pair<ExprRef, bool>> seen;
  for (const Property& inv : p.invariants) positiveLocations(p, inv.expr, true, keepAll, seen);
  for (CfaId c : p.processes) {
    const Cfa& cfa = p.cfas[c];
    if (!cfa.locals.empty()) continue;  // frame variables of a process: not handled here
    std::set<VarId> own(cfa.processLocals.begin(), cfa.processLocals.end());
    bool namedByInvariant = false;
    for (VarId v : own) namedByInvariant = namedByInvariant || invariantNames.procLocals.count(v);
    if (namedByInvariant || own.empty() || keepAll.count(c)) continue;
    for (LocId id : cfa.locs) {
      const Location& l = p.locs[id];
      // Nor a step into an atomic block: no other process moves at its target, so a step of
      // theirs taken before it cannot be moved after it (found by difftest, seed 16838).
      bool intoAtomic = false;
      for (EdgeId e : l.out) intoAtomic = intoAtomic || p.locs[p.edges[e].to].atomic;
      local[id] = !l.isEntry && !l.isExit && !l.atomic && !intoAtomic && !named.locs.count(id) &&
                  !received.count(id) && isLocalStep(p, l, own);
    }
    // Every cycle through local steps alone keeps one of them as a cutpoint: a depth-first
    // search over the local locations; the target of each back edge stays a cutpoint.
    std::vector<uint8_t> mark(p.locs.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::function<void(LocId)> dfs = [&](LocId u) {
      mark[u] = 1;
      for (EdgeId eid : p.locs[u].out) {
        const LocId v = p.edges[eid].to;
        if (!local[v] || mark[v] == 2) continue;
        if (mark[v] == 1) {
          local[v] = false;
          continue;
        }
        dfs(v);
      }
      mark[u] = 2;
    };
    for (LocId id : cfa.locs)
      if (local[id] && mark[id] == 0) dfs(id);
  }
  return local;
}

}  // namespace tandem::ir
