// Abstract states as text for reports: location vectors (`P[0]@CS, Q@A`), raw valuations, and
// the invariant's disjunctions of simplified conjunctions.
#include <algorithm>
#include <set>

#include "abstraction/abstraction.h"
#include "abstraction/literals.h"
#include "mc/ir/ir_printer.h"

namespace tandem::abstraction {

namespace {

// The complementary comparison, so that a false literal reads `t != serving`, not `!(t ==
// serving)`; other atoms are negated as they are.
std::string negatedText(const ir::Program& p, ExprRef atom) {
  const Op op = negatedComparison(atom->op);
  if (op == atom->op) return "!(" + ir::exprToString(p, atom) + ")";
  return ir::exprToString(p, p.exprs->mk(op, atom->type, atom->kids, atom->payload, atom->value));
}

}  // namespace

std::pair<ir::CfaId, uint32_t> Abstraction::processOf(exec::ThreadId t) const {
  uint32_t base = 0;
  for (ir::CfaId c : p_.processes) {
    const uint32_t n = p_.cfas[c].instances;
    if (t < base + n) return {c, t - base};
    base += n;
  }
  return {p_.rules, 0};
}

ExprRef Abstraction::instantiate(ExprRef e, exec::ThreadId t) const {
  if (!p_.isClosed() || t == exec::kNoThread) return e;
  const auto [cfa, instance] = processOf(t);
  if (cfa == ir::kNone || p_.cfas[cfa].kind != ir::CfaKind::Process) return e;
  ExprManager& em = *p_.exprs;
  const auto index = static_cast<uint32_t>(
      std::find(p_.processes.begin(), p_.processes.end(), cfa) - p_.processes.begin());
  ExprRef self = em.intConst(BigInt(static_cast<int64_t>(instance)));
  if (e->op == Op::Pid) return em.intConst(BigInt(static_cast<int64_t>(instance)), e->type);
  if (e->op == Op::Var && p_.vars[e->payload].scope == ir::VarScope::ProcessLocal &&
      p_.vars[e->payload].owner == cfa)
    return em.mk(Op::ProcLocal, e->type, {self}, index, BigInt(static_cast<int64_t>(e->payload)));
  bool changed = false, constant = true;
  std::vector<ExprRef> kids;
  for (ExprRef k : e->kids) {
    kids.push_back(instantiate(k, t));
    changed = changed || kids.back() != k;
    constant = constant && kids.back()->op == Op::IntConst;
  }
  if (!changed) return e;
  ExprRef out = em.mk(e->op, e->type, std::move(kids), e->payload, e->value);
  if (constant && out->type && out->type->isIntegral()) {  // `1 - pid` of instance 0 reads `1`
    const exec::State none;
    if (auto v = ev_.eval(out, none, exec::kNoThread); v && v.value().isIntegral())
      return em.intConst(v.value().toBigInt(), out->type);
  }
  return out;
}

std::string Abstraction::locationText(const std::vector<ir::LocId>& pcs) const {
  std::string out;
  for (size_t t = 0; t < pcs.size(); ++t) {
    if (t) out += p_.isClosed() ? ", " : " > ";  // open systems: the call stack
    const ir::Cfa& cfa = p_.cfas[p_.locs[pcs[t]].cfa];
    if (p_.isClosed() && cfa.kind == ir::CfaKind::Process) {
      out += cfa.name;
      if (cfa.instances > 1)
        out += "[" + std::to_string(processOf(static_cast<exec::ThreadId>(t)).second) + "]";
      out += "@";
    }
    out += p_.locName(pcs[t]);
  }
  return out;
}

std::string Abstraction::exactText(const Scope::Exact& x, uint32_t value) const {
  TypeRef t = x.expr->type;
  return ir::exprToString(p_, instantiate(x.expr, x.thread)) + " == " +
         (t->kind == TypeKind::Bool ? std::string(value ? "true" : "false") : t->members[value]);
}

std::string Abstraction::formulaText(const AbstractState& a) const {
  const Scope& sc = scopeAt(a.pcs);
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : " && ") + s; };
  for (size_t i = 0; i < sc.preds.size(); ++i) {
    std::string text = ir::exprToString(p_, instantiate(sc.preds[i].expr, sc.preds[i].thread));
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
  for (size_t i = 0; i < sc.exact.size(); ++i) add(exactText(sc.exact[i], a.exact[i]));
  return out.empty() ? "true" : out;
}

std::string Abstraction::classInvariantText(uint32_t classIndex,
                                            const std::vector<const AbstractState*>& as) const {
  size_t globalExact = 0;
  if (!as.empty())
    for (const Scope::Exact& x : scopeAt(as.front()->pcs).exact)
      if (p_.vars[x.var].scope == ir::VarScope::Global) ++globalExact;
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
  std::vector<ExprRef> atoms;
  for (size_t i = 0; i < k; ++i) atoms.push_back(instantiate(sc.preds[i].expr, sc.preds[i].thread));
  std::string out;
  for (const Cube& c : cubes) {
    // The defined literals, with those the others imply left out; then the undefined ones.
    std::vector<Literal> lits;
    std::vector<size_t> at;
    std::vector<std::string> undefined;
    for (size_t i = 0; i < k; ++i) {
      if (c[i] == static_cast<int>(Truth::Undefined))
        undefined.push_back("undefined(" + ir::exprToString(p_, atoms[i]) + ")");
      if (c[i] < 0 || c[i] == static_cast<int>(Truth::Undefined)) continue;
      lits.push_back({atoms[i], c[i] == static_cast<int>(Truth::True)});
      at.push_back(i);
    }
    std::string conj;
    auto add = [&conj](const std::string& s) { conj += (conj.empty() ? "" : " && ") + s; };
    for (size_t j : nonImplied(lits))
      add(lits[j].positive ? ir::exprToString(p_, lits[j].atom) : negatedText(p_, lits[j].atom));
    for (const std::string& u : undefined) add(u);
    for (size_t i = 0; i < exact; ++i) add(exactText(sc.exact[i], static_cast<uint32_t>(c[k + i])));
    if (conj.empty()) return "true";
    out += (out.empty() ? "" : " || ") + (cubes.size() > 1 ? "(" + conj + ")" : conj);
  }
  return out;
}

}  // namespace tandem::abstraction
