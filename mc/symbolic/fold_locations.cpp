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

  ExprRef fold(ExprRef e) {
    if (auto it = done.find(e); it != done.end()) return it->second;
    ExprManager& em = *p.exprs;
    ExprRef out = e;
    if (e->op == Op::AtLoc) {
      const auto loc = static_cast<ir::LocId>(*e->value.toInt64());
      uint32_t instance = 0;
      if (!e->kids.empty() && e->kid(0)->op == Op::IntConst)
        instance = static_cast<uint32_t>(*e->kid(0)->value.toInt64());
      const exec::ThreadId t = threadOf(p.locs[loc].cfa, instance);
      out = em.boolConst(t < pcs.size() && pcs[t] == loc);
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
