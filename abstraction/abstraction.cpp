#include "abstraction/abstraction.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>

#include "abstraction/predicate_scope.h"
#include "mc/ir/ir_printer.h"
#include "mc/symbolic/fold_locations.h"

namespace tandem::abstraction {

namespace {

bool isExactType(TypeRef t) {
  return t && (t->kind == TypeKind::Bool || t->kind == TypeKind::Enum);
}

}  // namespace

Abstraction::Abstraction(const ir::Program& p, const exec::Evaluator& ev,
                         const ScopedPredicates& extra)
    : p_(p),
      ev_(ev),
      global_(p.predicates),
      cfaPreds_(p.cfas.size()),
      classPreds_(p.classes.size()) {
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
  for (ir::VarId v : p_.globals)
    if (isExactType(p_.vars[v].type)) sc.exact.push_back({v, globalThread, kTopFrame});
  for (size_t i = 0; i < pcs.size(); ++i) {
    const ir::Cfa& cfa = p_.cfas[p_.locs[pcs[i]].cfa];
    // Closed systems: position i is thread i. Open systems: frame i of thread 0.
    const auto tid = p_.isClosed() ? static_cast<exec::ThreadId>(i) : 0;
    const uint32_t frame =
        p_.isClosed() || i + 1 == pcs.size() ? kTopFrame : static_cast<uint32_t>(i);
    if (cfa.classIndex != ir::kNone)
      for (ExprRef e : classPreds_[cfa.classIndex]) sc.preds.push_back({e, tid, frame});
    for (ExprRef e : cfaPreds_[p_.locs[pcs[i]].cfa]) sc.preds.push_back({e, tid, frame});
    for (ir::VarId v : cfa.locals)
      if (!p_.vars[v].hidden && isExactType(p_.vars[v].type)) sc.exact.push_back({v, tid, frame});
  }
  return scopes_.emplace(pcs, std::move(sc)).first->second;
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
  ExprManager& em = *p_.exprs;
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
    const ir::Variable& v = p_.vars[x.var];
    auto r = ev_.eval(em.var(x.var, v.type), view(x.frame), x.thread);
    uint32_t code = 0;
    if (r)
      code = v.type->kind == TypeKind::Bool ? (r.value().asBool() ? 1 : 0) : r.value().enumIndex();
    a.exact.push_back(code);
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
  if (pr.frame == kTopFrame || pr.frame + 1 >= c.st.frames.size()) {
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

ExprRef Abstraction::gamma(const AbstractState& a, const symbolic::SymConfig& c,
                           const symbolic::SymEvaluator& sev) const {
  ExprManager& em = *p_.exprs;
  const Scope& sc = scopeAt(a.pcs);
  std::vector<ExprRef> lits;
  for (size_t i = 0; i < sc.preds.size(); ++i) {
    ExprRef defined = nullptr;
    ExprRef v = predicateValue(sc.preds[i], c, sev, &defined);
    switch (static_cast<Truth>(a.truth[i])) {
      case Truth::True:
        lits.push_back(em.mkAnd(defined, v));
        break;
      case Truth::False:
        lits.push_back(em.mkAnd(defined, em.mkNot(v)));
        break;
      case Truth::Undefined:
        lits.push_back(em.mkNot(defined));
        break;
    }
  }
  for (size_t i = 0; i < sc.exact.size(); ++i) {
    const ir::Variable& var = p_.vars[sc.exact[i].var];
    ExprRef v =
        predicateValue({em.var(sc.exact[i].var, var.type), sc.exact[i].thread, sc.exact[i].frame},
                       c, sev, nullptr);
    ExprRef k = var.type->kind == TypeKind::Bool ? em.boolConst(a.exact[i] != 0)
                                                 : em.enumConst(var.type, a.exact[i]);
    lits.push_back(em.mkEq(v, k));
  }
  return em.mkAnd(std::span<const ExprRef>(lits));
}

std::string Abstraction::locationText(const std::vector<ir::LocId>& pcs) const {
  std::string out;
  for (size_t t = 0; t < pcs.size(); ++t) {
    if (t) out += p_.isClosed() ? ", " : " > ";  // open systems: the call stack
    const ir::Cfa& cfa = p_.cfas[p_.locs[pcs[t]].cfa];
    if (p_.isClosed() && cfa.kind == ir::CfaKind::Process) out += cfa.name + "@";
    out += p_.locName(pcs[t]);
  }
  return out;
}

std::string Abstraction::formulaText(const AbstractState& a) const {
  const Scope& sc = scopeAt(a.pcs);
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : " && ") + s; };
  for (size_t i = 0; i < sc.preds.size(); ++i) {
    std::string text = ir::exprToString(p_, sc.preds[i].expr);
    switch (static_cast<Truth>(a.truth[i])) {
      case Truth::True:
        add(text);
        break;
      case Truth::False:
        add("!(" + text + ")");
        break;
      case Truth::Undefined:
        add("undefined(" + text + ")");
        break;
    }
  }
  for (size_t i = 0; i < sc.exact.size(); ++i) {
    const ir::Variable& var = p_.vars[sc.exact[i].var];
    std::string value = var.type->kind == TypeKind::Bool ? (a.exact[i] ? "true" : "false")
                                                         : var.type->members[a.exact[i]];
    add(var.name + " == " + value);
  }
  return out.empty() ? "true" : out;
}

std::string Abstraction::classInvariantText(uint32_t classIndex,
                                            const std::vector<const AbstractState*>& as) const {
  size_t globalExact = 0;
  for (ir::VarId v : p_.globals)
    if (isExactType(p_.vars[v].type)) ++globalExact;
  return disjunctionText(as, global_.size() + classPreds_[classIndex].size(), globalExact);
}

std::string Abstraction::disjunctionText(const std::vector<const AbstractState*>& as,
                                         size_t keepPreds, size_t keepExact) const {
  if (as.empty()) return "false";
  const Scope& sc = scopeAt(as.front()->pcs);
  const size_t k = std::min(sc.preds.size(), keepPreds);
  const size_t exact = std::min(sc.exact.size(), keepExact);
  // A cube: one entry per predicate (Truth, or -1 for "either"), then the exact values.
  using Cube = std::vector<int>;
  std::set<Cube> cubes;
  for (const AbstractState* a : as) {
    Cube c(a->truth.begin(), a->truth.begin() + static_cast<std::ptrdiff_t>(k));
    c.insert(c.end(), a->exact.begin(), a->exact.begin() + static_cast<std::ptrdiff_t>(exact));
    cubes.insert(std::move(c));
  }
  for (bool merged = true; merged;) {
    merged = false;
    for (auto i = cubes.begin(); i != cubes.end() && !merged; ++i) {
      for (size_t bit = 0; bit < k && !merged; ++bit) {
        if ((*i)[bit] != static_cast<int>(Truth::True)) continue;
        Cube other = *i;
        other[bit] = static_cast<int>(Truth::False);
        if (!cubes.count(other)) continue;
        Cube joined = *i;
        joined[bit] = -1;
        cubes.erase(other);
        cubes.erase(i);
        cubes.insert(std::move(joined));
        merged = true;
      }
    }
  }
  std::string out;
  for (const Cube& c : cubes) {
    std::string conj;
    auto add = [&conj](const std::string& s) { conj += (conj.empty() ? "" : " && ") + s; };
    for (size_t i = 0; i < k; ++i) {
      if (c[i] < 0) continue;
      std::string text = ir::exprToString(p_, sc.preds[i].expr);
      if (c[i] == static_cast<int>(Truth::True))
        add(text);
      else if (c[i] == static_cast<int>(Truth::False))
        add("!(" + text + ")");
      else
        add("undefined(" + text + ")");
    }
    for (size_t i = 0; i < exact; ++i) {
      const ir::Variable& var = p_.vars[sc.exact[i].var];
      const auto v = static_cast<uint32_t>(c[k + i]);
      add(var.name + " == " +
          (var.type->kind == TypeKind::Bool ? std::string(v ? "true" : "false")
                                            : var.type->members[v]));
    }
    if (conj.empty()) return "true";
    out += (out.empty() ? "" : " || ") + (cubes.size() > 1 ? "(" + conj + ")" : conj);
  }
  return out;
}

}  // namespace tandem::abstraction
