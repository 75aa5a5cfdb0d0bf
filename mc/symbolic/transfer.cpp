// The edges: commands, assertions, calls and returns; obligations and assignments.
#include "mc/symbolic/transfer.h"

#include <optional>

#include "mc/symbolic/fold_locations.h"
#include "mc/symbolic/transfer_ctx.h"

namespace tandem::symbolic {

Transfer::Transfer(const SymEvaluator& ev, std::array<bool, ir::kErrorKinds> tracked)
    : p_(ev.program()), em_(ev.exprs()), ev_(ev), tracked_(tracked) {}

SymValue Transfer::eval(Ctx& c, ExprRef e, std::vector<Obligation>& obls) const {
  if (!c.t.locations.empty()) e = foldLocations(p_, ev_.concrete(), e, c.t.locations);
  SymValue v = ev_.eval(e, c.s, obls);
  c.policy.absorb(c.s);
  return v;
}

SymLvalue Transfer::lvalue(Ctx& c, ExprRef e, std::vector<Obligation>& obls) const {
  if (!c.t.locations.empty()) e = foldLocations(p_, ev_.concrete(), e, c.t.locations);
  SymLvalue lv = ev_.lvalue(e, c.s, obls);
  c.policy.absorb(c.s);
  return lv;
}

bool Transfer::assume(Ctx& c, ExprRef cond) const {
  if (cond->isTrue()) return true;
  if (cond->isFalse()) return false;
  c.s.pathCond.push_back(cond);
  return c.policy.feasible(c.s);
}

bool Transfer::require(Ctx& c, const std::vector<Obligation>& obls, ir::EdgeId id,
                       SourceLoc declared) const {
  bool added = false;
  for (const Obligation& ob : obls) {
    if (ob.ok->isTrue()) continue;
    if (ob.limit) {
      c.policy.limit(c.s, ob.ok);
      continue;
    }
    if (tracked_[static_cast<size_t>(ob.kind)]) {
      const SourceLoc loc = id != ir::kNone    ? p_.edges[id].loc
                            : declared.valid() ? declared
                                               : p_.locs[c.s.top().pc].loc;
      c.policy.fail(c.s, em_.mkNot(ob.ok), exec::ExecError{ob.kind, loc, ob.message, false}, id);
      if (c.policy.stopped()) return false;
    }
    if (ob.ok->isFalse()) return false;  // the path fails here (an untracked error ends it)
    c.s.pathCond.push_back(ob.ok);
    added = true;
  }
  return !added || c.policy.feasible(c.s);
}

bool Transfer::runAssignments(Ctx& c, const std::vector<ir::Assignment>& as, bool parallel,
                              ir::EdgeId id) const {
  struct Pending {
    SymLvalue lv;
    std::optional<SymValue> value;
    TypeRef type;
  };
  std::vector<Pending> pending;
  std::vector<Obligation> obls;
  SourceLoc declared;  // entry declarations: the one whose checks are pending
  auto finish = [&] {
    if (!obls.empty()) {
      if (!require(c, obls, id, declared)) return false;
      obls.clear();
    }
    for (Pending& pd : pending)
      if (!pd.value) pd.value = c.policy.input(c.s, InputKind::Havoc, pd.type, "havoc");
    for (Pending& pd : pending) ev_.store(c.s, pd.lv, std::move(*pd.value));
    pending.clear();
    return true;
  };
  for (const ir::Assignment& a : as) {
    if (id == ir::kNone && a.lhs->op == Op::Var) declared = p_.vars[a.lhs->payload].loc;
    Pending pd{lvalue(c, a.lhs, obls), std::nullopt, a.lhs->type};
    if (a.rhs && a.rhs->op != Op::Star) pd.value = ev_.coerce(eval(c, a.rhs, obls), a.lhs->type);
    pending.push_back(std::move(pd));
    if (!parallel && !finish()) return false;
  }
  return finish();
}

void Transfer::step(SymState s, const Mover& t, ir::EdgeId id, TransferPolicy& policy) const {
  const ir::Edge& edge = p_.edges[id];
  Ctx c{s, t, policy};
  std::vector<Obligation> obls;
  switch (edge.kind) {
    case ir::EdgeKind::Command: {
      ExprRef g = edge.guard ? eval(c, edge.guard, obls).expr : em_.trueExpr();
      if (!require(c, obls, id) || !assume(c, g)) return;
      if (!runAssignments(c, edge.assigns, !edge.sequential, id)) return;
      s.top().pc = edge.to;
      break;
    }
    case ir::EdgeKind::Assert: {
      ExprRef cond = eval(c, edge.cond, obls).expr;
      if (!require(c, obls, id)) return;
      const bool trusted = trustVerified_ && edge.premise && edge.premise->isTrue();
      if (tracked_[static_cast<size_t>(edge.errorKind)] && !cond->isTrue() && !trusted) {
        std::string what = edge.text.empty() ? "assertion" : "'" + edge.text + "'";
        policy.fail(s, em_.mkNot(cond),
                    exec::ExecError{edge.errorKind, edge.loc, what + " failed", false}, id);
        if (policy.stopped()) return;
      }
      if (!assume(c, cond)) return;
      s.top().pc = edge.to;
      break;
    }
    case ir::EdgeKind::Assumed:  // a := a && e, as the concrete step does
      if (!runAssignments(c, edge.assigns, false, id)) return;
      s.top().pc = edge.to;
      break;
    case ir::EdgeKind::Call:
      if (!call(c, edge, id)) return;
      break;
    case ir::EdgeKind::Return:
      if (s.frames.size() == 1) {
        policy.returned(s, id);
        return;
      }
      if (!returnToCaller(c, id)) return;
      break;
    case ir::EdgeKind::Sync:  // only in pairs (stepSync)
      throw NotImplemented("a rendezvous step of one process alone");
  }
  s.pathCondAt.resize(s.pathCond.size(), static_cast<uint32_t>(s.path.size()));
  s.path.push_back(id);
  ++s.depth;
  policy.successor(std::move(s), id);
}

bool Transfer::atBottomExit(const SymState& s) const {
  if (s.frames.size() != 1) return false;
  for (ir::EdgeId id : p_.locs[s.top().pc].out)
    if (p_.edges[id].kind != ir::EdgeKind::Return) return false;
  return true;
}

}  // namespace tandem::symbolic
