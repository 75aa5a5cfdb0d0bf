#include "mc/symbolic/summarisable.h"

#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

namespace {

bool localType(TypeRef t) {
  return isScalarType(t) || (t && t->kind == TypeKind::Array && isScalarType(t->elem));
}

// Reads only locals of `cfa`, and nothing a summary could not reproduce.
bool localOnly(const ir::Program& p, ir::CfaId cfa, ExprRef e) {
  if (!e) return true;
  switch (e->op) {
    case Op::Var: {
      const ir::Variable& v = p.vars[e->payload];
      return v.scope == ir::VarScope::Local && v.owner == cfa;
    }
    case Op::Field:
    case Op::Deref:
    case Op::AddrOf:
    case Op::Call:
    case Op::Old:
    case Op::AtLoc:
    case Op::ProcLocal:
    case Op::Received:
    case Op::Pid:
    case Op::NullConst:
      return false;
    default:
      break;
  }
  for (ExprRef k : e->kids)
    if (!localOnly(p, cfa, k)) return false;
  return true;
}

class Eligibility {
 public:
  Eligibility(const ir::Program& p, SummaryShape shape)
      : p_(p), shape_(shape), state_(p.cfas.size(), kUnknown) {}
  bool of(ir::CfaId c) {
    if (state_[c] == kVisiting) return false;  // a cycle of calls
    if (state_[c] != kUnknown) return state_[c] == kYes;
    state_[c] = kVisiting;
    const bool ok = own(c);
    state_[c] = ok ? kYes : kNo;
    return ok;
  }

 private:
  bool own(ir::CfaId c) {
    const ir::Cfa& cfa = p_.cfas[c];
    if (cfa.kind != ir::CfaKind::Proc || cfa.usesOld || cfa.concrete || cfa.entry == ir::kNone)
      return false;
    for (ir::VarId v : cfa.params) {
      TypeRef t = p_.vars[v].type;
      const bool fixedArray = shape_.fixedArrayParams && t && t->kind == TypeKind::Array &&
                              t->isFixedArray() && isScalarType(t->elem);
      if (!isScalarType(t) && !fixedArray) return false;
    }
    if (cfa.resultVar != ir::kNone && !isScalarType(p_.vars[cfa.resultVar].type)) return false;
    for (ir::VarId v : cfa.locals)
      if (!localType(p_.vars[v].type)) return false;
    auto local = [&](ExprRef e) { return localOnly(p_, c, e); };
    auto havoc = [&](const ir::Assignment& a) {
      return !shape_.havocs && (!a.rhs || a.rhs->op == Op::Star);
    };
    for (const ir::Assignment& a : cfa.entryInits)
      if (!local(a.lhs) || !local(a.rhs) || havoc(a)) return false;
    for (ir::LocId l : cfa.locs)
      for (ir::EdgeId id : p_.locs[l].out) {
        const ir::Edge& e = p_.edges[id];
        if (e.kind == ir::EdgeKind::Sync) return false;
        if (e.kind == ir::EdgeKind::Call && !of(e.callee)) return false;
        if (!local(e.guard) || !local(e.cond) || !local(e.result)) return false;
        for (const ir::Assignment& a : e.assigns)
          if (!local(a.lhs) || !local(a.rhs) || havoc(a)) return false;
        for (ExprRef a : e.args)
          if (!local(a)) return false;
      }
    return true;
  }

  enum : uint8_t { kUnknown, kVisiting, kYes, kNo };
  const ir::Program& p_;
  SummaryShape shape_;
  std::vector<uint8_t> state_;
};

}  // namespace

std::vector<bool> summarisable(const ir::Program& p, SummaryShape shape) {
  Eligibility e(p, shape);
  std::vector<bool> ok(p.cfas.size(), false);
  for (ir::CfaId c = 0; c < p.cfas.size(); ++c) ok[c] = e.of(c);
  return ok;
}

}  // namespace tandem::symbolic
