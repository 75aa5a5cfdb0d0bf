#include "abstraction/abstraction.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>

#include "abstraction/predicate_scope.h"
#include "mc/ir/ir_printer.h"
#include "mc/ir/liveness.h"
#include "mc/symbolic/fold_locations.h"

namespace tandem::abstraction {

namespace {

bool isExactType(TypeRef t) {
  return t && (t->kind == TypeKind::Bool || t->kind == TypeKind::Enum);
}

uint32_t exactCode(const exec::Value& v, TypeRef t) {
  return t->kind == TypeKind::Bool ? (v.asBool() ? 1 : 0) : v.enumIndex();
}

}  // namespace

Abstraction::Abstraction(const ir::Program& p, const exec::Evaluator& ev,
                         const ScopedPredicates& extra)
    : p_(p),
      ev_(ev),
      global_(p.predicates),
      cfaPreds_(p.cfas.size()),
      classPreds_(p.classes.size()),
      dead_(p.isClosed() ? ir::deadProcessLocals(p) : std::vector<std::vector<ir::VarId>>{}),
      keepWhereDead_(extra.keepWhereDead) {
  auto join = [](std::vector<ExprRef>& to, const std::vector<ExprRef>& more) {
    for (ExprRef e : more)
      if (std::find(to.begin(), to.end(), e) == to.end()) to.push_back(e);
  };
  for (ExprRef e : extra.global)
    if (scopeOf(p, e).kind != PredicateScope::Kind::Global)
      throw std::invalid_argument("a global predicate reads a local, field or process variable: " +
                                  ir::exprToString(p, e));
  join(global_, extra.global);
  for (size_t c = 0; c < p.cfas.size(); ++c) cfaPreds_[c] = p.cfas[c].predicates;
  for (const auto& [c, es] : extra.ofCfa) join(cfaPreds_.at(c), es);
  for (size_t k = 0; k < p.classes.size(); ++k) classPreds_[k] = p.classes[k].predicates;
  for (const auto& [k, es] : extra.ofClass) join(classPreds_.at(k), es);
}

const Scope& Abstraction::scopeAt(const std::vector<ir::LocId>& pcs) const {
  auto it = scopes_.find(pcs);
  if (it != scopes_.end()) return it->second;
  Scope sc;
  const exec::ThreadId globalThread = p_.isClosed() ? exec::kNoThread : 0;
  for (ExprRef e : global_) sc.preds.push_back({e, globalThread, kTopFrame});
  for (ir::VarId v : p_.globals) addExact(sc, v, globalThread, kTopFrame);
  for (size_t i = 0; i < pcs.size(); ++i) {
    const ir::Cfa& cfa = p_.cfas[p_.locs[pcs[i]].cfa];
    // Closed systems: position i is thread i. Open systems: frame i of thread 0.
    const auto tid = p_.isClosed() ? static_cast<exec::ThreadId>(i) : 0;
    const uint32_t frame =
        p_.isClosed() || i + 1 == pcs.size() ? kTopFrame : static_cast<uint32_t>(i);
    if (cfa.classIndex != ir::kNone)
      for (ExprRef e : classPreds_[cfa.classIndex]) sc.preds.push_back({e, tid, frame});
    for (ExprRef e : cfaPreds_[p_.locs[pcs[i]].cfa])
      if (keepWhereDead_.count(e) || !readsDead(e, pcs[i])) sc.preds.push_back({e, tid, frame});
    for (ir::VarId v : cfa.locals)
      if (!p_.vars[v].hidden) addExact(sc, v, tid, frame);
    if (p_.isClosed())
      for (ir::VarId v : cfa.processLocals)
        if (!std::binary_search(dead_[pcs[i]].begin(), dead_[pcs[i]].end(), v))
          addExact(sc, v, tid, frame);
  }
  return scopes_.emplace(pcs, std::move(sc)).first->second;
}

std::vector<Abstraction::Dropped> Abstraction::droppedPredicates() const {
  std::vector<Dropped> out;
  for (size_t c = 0; c < cfaPreds_.size(); ++c)
    for (ExprRef e : cfaPreds_[c]) {
      if (keepWhereDead_.count(e)) continue;
      Dropped d{e, static_cast<ir::CfaId>(c), {}};
      for (ir::LocId l : p_.cfas[c].locs)
        if (readsDead(e, l)) d.locations.push_back(l);
      if (!d.locations.empty()) out.push_back(std::move(d));
    }
  return out;
}

bool Abstraction::readsDead(ExprRef e, ir::LocId l) const {
  if (dead_.empty() || dead_[l].empty()) return false;
  for (uint32_t v : freeVars(e))
    if (std::binary_search(dead_[l].begin(), dead_[l].end(), v)) return true;
  return false;
}

void Abstraction::addExact(Scope& sc, ir::VarId v, exec::ThreadId thread, uint32_t frame) const {
  ExprManager& em = *p_.exprs;
  TypeRef t = p_.vars[v].type;
  ExprRef x = em.var(v, t);
  if (isExactType(t)) {
    sc.exact.push_back({v, x, thread, frame});
  } else if (t->isFixedArray() && isExactType(t->elem) && t->length <= kMaxExactElements) {
    for (int64_t i = 0; i < t->length; ++i)
      sc.exact.push_back(
          {v, em.mk(Op::Select, t->elem, {x, em.intConst(BigInt(i))}), thread, frame});
  }
}

std::vector<ir::LocId> Abstraction::locations(const exec::State& s) const {
  std::vector<ir::LocId> pcs;
  if (p_.isClosed()) {
    for (const exec::Thread& th : s.threads) pcs.push_back(th.top().pc);
  } else {
    for (const exec::Frame& f : s.threads[0].frames) pcs.push_back(f.pc);
  }
  return pcs;
}

AbstractState Abstraction::alpha(const exec::State& s) const {
  AbstractState a;
  a.pcs = locations(s);
  const Scope& sc = scopeAt(a.pcs);
  // A caller's predicates read its frame: evaluate them with the frames above it removed.
  std::map<uint32_t, exec::State> below;
  auto view = [&](uint32_t frame) -> const exec::State& {
    if (frame == kTopFrame) return s;
    auto it = below.find(frame);
    if (it != below.end()) return it->second;
    exec::State t = s;
    t.threads[0].frames.resize(frame + 1);
    return below.emplace(frame, std::move(t)).first->second;
  };
  for (const Scope::Pred& pr : sc.preds) {
    auto r = ev_.eval(pr.expr, view(pr.frame), pr.thread);
    a.truth.push_back(static_cast<uint8_t>(!r                   ? Truth::Undefined
                                           : r.value().asBool() ? Truth::True
                                                                : Truth::False));
  }
  for (const Scope::Exact& x : sc.exact) {
    auto r = ev_.eval(x.expr, view(x.frame), x.thread);
    a.exact.push_back(r ? exactCode(r.value(), x.expr->type) : 0);
  }
  return a;
}

ExprRef Abstraction::foldLocations(ExprRef e, const std::vector<ir::LocId>& pcs) const {
  return symbolic::foldLocations(p_, ev_, e, pcs);
}

ExprRef Abstraction::predicateValue(const Scope::Pred& pr, const symbolic::SymConfig& c,
                                    const symbolic::SymEvaluator& sev, ExprRef* definedOut) const {
  std::vector<symbolic::Obligation> obls;
  ExprRef e = foldLocations(pr.expr, c.pcs);
  symbolic::SymValue v;
  if (p_.isClosed()) {
    v = sev.eval(e, c.st, obls, pr.thread);  // the thread's pid and process locals
  } else if (pr.frame == kTopFrame || pr.frame + 1 >= c.st.frames.size()) {
    v = sev.eval(e, c.st, obls);
  } else {
    symbolic::SymState below = c.st;
    below.frames.resize(pr.frame + 1);
    v = sev.eval(e, below, obls);
  }
  ExprManager& em = *p_.exprs;
  if (definedOut) {
    ExprRef ok = em.trueExpr();
    for (const auto& ob : obls) ok = em.mkAnd(ok, ob.ok);
    *definedOut = ok;
  }
  return v.expr;
}

Abstraction::Valuation Abstraction::valuate(const std::vector<ir::LocId>& pcs,
                                            const symbolic::SymConfig& c,
                                            const symbolic::SymEvaluator& sev) const {
  const Scope& sc = scopeAt(pcs);
  Valuation v;
  for (const Scope::Pred& pr : sc.preds) {
    ExprRef defined = nullptr;
    v.value.push_back(predicateValue(pr, c, sev, &defined));
    v.defined.push_back(defined);
  }
  for (const Scope::Exact& x : sc.exact)
    v.exact.push_back(predicateValue({x.expr, x.thread, x.frame}, c, sev, nullptr));
  return v;
}

ExprRef Abstraction::gamma(const AbstractState& a, const symbolic::SymConfig& c,
                           const symbolic::SymEvaluator& sev) const {
  return gamma(a, valuate(a.pcs, c, sev));
}

ExprRef Abstraction::literal(ExprRef defined, ExprRef value, uint8_t truth) const {
  ExprManager& em = *p_.exprs;
  switch (static_cast<Truth>(truth)) {
    case Truth::True:
      return em.mkAnd(defined, value);
    case Truth::False:
      return em.mkAnd(defined, em.mkNot(value));
    case Truth::Undefined:
      break;
  }
  return em.mkNot(defined);
}

ExprRef Abstraction::exactLiteral(ExprRef value, TypeRef t, uint32_t code) const {
  ExprManager& em = *p_.exprs;
  return em.mkEq(value,
                 t->kind == TypeKind::Bool ? em.boolConst(code != 0) : em.enumConst(t, code));
}

ExprRef Abstraction::gamma(const AbstractState& a, const Valuation& val) const {
  const Scope& sc = scopeAt(a.pcs);
  std::vector<ExprRef> lits;
  for (size_t i = 0; i < sc.preds.size(); ++i)
    lits.push_back(literal(val.defined[i], val.value[i], a.truth[i]));
  for (size_t i = 0; i < sc.exact.size(); ++i)
    lits.push_back(exactLiteral(val.exact[i], sc.exact[i].expr->type, a.exact[i]));
  return p_.exprs->mkAnd(std::span<const ExprRef>(lits));
}

}  // namespace tandem::abstraction
