#include "mc/symbolic/fold_locations.h"

#include <unordered_map>

namespace tandem::symbolic {

namespace {

struct Folder {
  const ir::Program& p;
  const exec::Evaluator& concrete;
  std::span<const ir::LocId> pcs;
  std::unordered_map<ExprRef, ExprRef> done;  // shared subterms are folded once

  exec::ThreadId threadOf(ir::CfaId cfa, uint32_t instance) const {
    if (!p.isClosed()) return 0;
    if (cfa == p.rules) return concrete.ruleThread();
    return concrete.threadOf(cfa, instance);
  }

  // P[k]@L: true iff thread P[k] is at L. A symbolic k becomes a choice over the instances; an
  // instance out of range is left for the symbolic evaluator, which reports it as the reference
  // evaluator does.
  ExprRef foldAt(ExprRef e) {
    ExprManager& em = *p.exprs;
    const auto loc = static_cast<ir::LocId>(*e->value.toInt64());
    const ir::CfaId cfa = p.locs[loc].cfa;
    auto at = [&](uint32_t instance) {
      const exec::ThreadId t = threadOf(cfa, instance);
      return em.boolConst(t < pcs.size() && pcs[t] == loc);
    };
    if (e->kids.empty()) return at(0);
    ExprRef k = fold(e->kid(0));
    const uint32_t n = cfa == p.rules ? 1 : p.cfas[cfa].instances;
    if (k->op == Op::IntConst) {
      const auto i = k->value.toInt64();
      if (i && *i >= 0 && *i < static_cast<int64_t>(n)) return at(static_cast<uint32_t>(*i));
    }
    ExprRef out = em.mk(Op::AtLoc, e->type, {k}, e->payload, e->value);
    if (k->op == Op::IntConst) return out;
    for (uint32_t i = n; i-- > 0;)
      out = em.mk(Op::Ite, e->type,
                  {em.mkEq(k, em.intConst(BigInt(static_cast<int64_t>(i)), k->type)), at(i), out});
    return out;
  }

  ExprRef fold(ExprRef e) {
    if (auto it = done.find(e); it != done.end()) return it->second;
    ExprManager& em = *p.exprs;
    ExprRef out = e;
    if (e->op == Op::AtLoc) {
      out = foldAt(e);
    } else {
      bool changed = false;
      std::vector<ExprRef> kids;
      for (ExprRef k : e->kids) {
        kids.push_back(fold(k));
        changed = changed || kids.back() != k;
      }
      if (changed) out = em.mk(e->op, e->type, std::move(kids), e->payload, e->value);
    }
    done.emplace(e, out);
    return out;
  }
};

}  // namespace

ExprRef foldLocations(const ir::Program& p, const exec::Evaluator& concrete, ExprRef e,
                      std::span<const ir::LocId> pcs) {
  return Folder{p, concrete, pcs, {}}.fold(e);
}

}  // namespace tandem::symbolic
