#include "fabricate/invariant_formula.h"

namespace tandem::fabricate {

InvariantFormula::InvariantFormula(const ir::Program& p, const exec::Evaluator& ev,
                                   const ProveOptions& o, const ProveResult& r)
    : p_(p), abs_(p, ev, o.extraPredicates), sev_(p, ev) {
  for (const AbstractNode& n : r.nodes) byPcs_[n.state.pcs].push_back(&n.state);
}

ExprRef InvariantFormula::at(const symbolic::SymConfig& c) const {
  ExprManager& em = *p_.exprs;
  auto it = byPcs_.find(c.pcs);
  if (it == byPcs_.end()) return em.falseExpr();
  const abstraction::Abstraction::Valuation v = abs_.valuate(c.pcs, c, sev_);
  ExprRef out = em.falseExpr();
  for (const abstraction::AbstractState* a : it->second) out = em.mkOr(out, abs_.gamma(*a, v));
  return out;
}

}  // namespace tandem::fabricate
