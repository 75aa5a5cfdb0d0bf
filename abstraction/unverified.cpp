#include "abstraction/unverified.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <map>
#include <set>

#include "abstraction/bool_fn.h"
#include "mc/ir/edge_exprs.h"

namespace tandem::abstraction {

namespace {
constexpr EnumName<Guide> kGuideNames[] = {{Guide::Ignore, "ignore"},
                                           {Guide::None, "none"},
                                           {Guide::May, "may"},
                                           {Guide::Must, "must"},
                                           {Guide::MayMust, "may-must"}};
}  // namespace

const char* guideName(Guide g) { return enumName(kGuideNames, g); }

std::optional<Guide> parseGuide(std::string_view name) { return enumFromName(kGuideNames, name); }

namespace {

// Which evaluations may raise a tracked implicit error: no annotation speaks for those checks, so
// an edge that makes one is an unverified assertion of the boolean program.
class Raising {
 public:
  Raising(const ir::Program& p, const std::array<bool, ir::kErrorKinds>& tracked)
      : p_(p), tracked_(tracked), body_(p.cfas.size(), false) {
    // A procedure called inside an expression runs to its end there: any check in its body (its
    // assertions too), its initialisers' and its callees' are the expression's. A least
    // fixpoint: recursion adds no check of its own.
    for (bool grew = true; grew;) {
      grew = false;
      for (ir::CfaId c = 0; c < p.cfas.size(); ++c)
        if (!body_[c] && bodyRaises(c)) body_[c] = grew = true;
    }
  }

  bool expr(ExprRef e) const {
    if (own(e)) return true;
    for (ExprRef k : e->kids)
      if (expr(k)) return true;
    return false;
  }

  // The initialisers of `cfa`'s declarations run as a call enters (the error is the call edge's),
  // before the callee's first location, so every execution of the callee meets them (difftest
  // seed 11547: a check there was missed and its execution pruned).
  bool entry(ir::CfaId cfa) const {
    for (const ir::Assignment& a : p_.cfas[cfa].entryInits)
      if (expr(a.lhs) || (a.rhs && expr(a.rhs))) return true;
    return false;
  }

  // The edge's expressions, and the entry of the procedure it calls.
  bool edge(const ir::Edge& e) const {
    bool raises = false;
    ir::forEachExpr(e, [&](ExprRef x) { raises = raises || expr(x); });
    return raises || (e.kind == ir::EdgeKind::Call && e.callee != ir::kNone && entry(e.callee));
  }

 private:
  bool on(ir::ErrorKind k) const { return tracked_[static_cast<size_t>(k)]; }

  bool bodyRaises(ir::CfaId c) const {
    if (entry(c)) return true;
    for (ir::LocId l : p_.cfas[c].locs)
      for (ir::EdgeId id : p_.locs[l].out) {
        const ir::Edge& e = p_.edges[id];
        if (e.kind == ir::EdgeKind::Assert && on(e.errorKind)) return true;
        if (edge(e) || (e.kind == ir::EdgeKind::Call && e.callee != ir::kNone && body_[e.callee]))
          return true;
      }
    return false;
  }

  // The check `e` itself makes (not its operands').
  bool own(ExprRef e) const {
    switch (e->op) {
      case Op::Div:
      case Op::Mod:
        if (on(ir::ErrorKind::DivByZero) &&
            !(e->kid(1)->op == Op::IntConst && e->kid(1)->value != BigInt(0)))
          return true;
        return on(ir::ErrorKind::Overflow) && e->type && e->type->isBitVector();
      case Op::Select: {
        const TypeRef arr = e->kid(0)->type;
        const ExprRef i = e->kid(1);
        const bool inRange = i->op == Op::IntConst && arr && arr->isFixedArray() &&
                             i->value >= BigInt(0) && i->value < BigInt(arr->length);
        return on(ir::ErrorKind::IndexOutOfBounds) && !inRange;
      }
      case Op::Deref:
      case Op::Field:
        return on(ir::ErrorKind::NullDeref);
      case Op::NewArray:
        return on(ir::ErrorKind::NegativeSize) && e->kid(0)->op != Op::IntConst;
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Neg:
      case Op::Abs:
        return on(ir::ErrorKind::Overflow) && e->type && e->type->isBitVector();
      case Op::Call: {  // natives raise none: their failures are limits (exec/natives.h)
        if (e->payload >= p_.callees.size()) return false;
        const ir::Callee& c = p_.callees[e->payload];
        return !c.native && c.index < body_.size() && body_[c.index];
      }
      default:
        return false;
    }
  }

  const ir::Program& p_;
  const std::array<bool, ir::kErrorKinds>& tracked_;
  std::vector<bool> body_;  // per CfaId: whether running it inside an expression may raise
};

// Constant propagation's value of one id at a location.
enum class Known : uint8_t { Unreached, True, False, Unknown };

Known join(Known a, Known b) {
  if (a == Known::Unreached) return b;
  if (b == Known::Unreached || a == b) return a;
  return Known::Unknown;
}

// The boolean program of one procedure and its analyses.
class Procedure {
 public:
  Procedure(const ir::Program& p, ir::CfaId c, const Raising& raising)
      : p_(p), c_(p.cfas[c]), entryRaises_(raising.entry(c)) {
    for (ir::LocId l : c_.locs)
      for (ir::EdgeId e : p_.locs[l].out) {
        const ir::Edge& edge = p_.edges[e];
        if (edge.kind == ir::EdgeKind::Assumed) idOf(edge.assumedId);
        if (edge.kind == ir::EdgeKind::Assert && edge.premise) collectIds(edge.premise);
        if (raising.edge(edge)) raising_.insert(e);
      }
  }

  bool tooMany() const { return ids_.size() > BoolFn::kMaxIds; }
  size_t idCount() const { return ids_.size(); }

  // One round of both backward analyses, given the callees' constants; true if they changed.
  bool analyse(const std::vector<bool>& verifiedAll, const std::vector<bool>& mustAll) {
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    if (wp_.empty()) {
      for (ir::LocId l : c_.locs) {
        wp_.emplace(l, BoolFn::constant(n, true));     // greatest fixpoint: from true
        must_.emplace(l, BoolFn::constant(n, false));  // least fixpoint: from false
      }
    }
    const BoolFn top = BoolFn::constant(n, true), bottom = BoolFn::constant(n, false);
    bool changed = false, round = true;
    while (round) {
      round = false;
      for (auto it = c_.locs.rbegin(); it != c_.locs.rend(); ++it) {
        const ir::LocId l = *it;
        const std::vector<ir::EdgeId>& out = p_.locs[l].out;
        BoolFn w = BoolFn::constant(n, true);
        BoolFn m = BoolFn::constant(n, !out.empty());
        for (ir::EdgeId e : out) {
          const ir::Edge& edge = p_.edges[e];
          const BoolFn& wq = edge.to == ir::kNone ? top : wp_.at(edge.to);
          const BoolFn& mq = edge.to == ir::kNone ? bottom : must_.at(edge.to);
          w = w & wpEdge(edge, wq, verifiedAll);
          m = m & mustEdge(edge, mq, mustAll);
        }
        if (!(w == wp_.at(l))) {
          wp_.at(l) = w;
          round = changed = true;
        }
        if (!(m == must_.at(l))) {
          must_.at(l) = m;
          round = changed = true;
        }
      }
    }
    return changed;
  }

  // On entry every id is true.
  // The declarations' initialisers run first: when they may raise, every execution meets a check.
  bool verifiedOnEntry() const {
    return !entryRaises_ && wp_.at(c_.entry).restrict(allTrue()).isConstant(true);
  }
  bool mustOnEntry() const {
    return entryRaises_ || must_.at(c_.entry).restrict(allTrue()).isConstant(true);
  }

  // The conditions kept at the selected locations (ICSE'16 §3.4), simplified by the constants.
  void conditions(ExprManager& em, UnverifiedConditions& out) const {
    const std::map<ir::LocId, std::vector<std::optional<bool>>> known = constants();
    std::map<ir::LocId, std::vector<ir::EdgeId>> in;
    for (ir::LocId l : c_.locs)
      for (ir::EdgeId e : p_.locs[l].out)
        if (p_.edges[e].to != ir::kNone) in[p_.edges[e].to].push_back(e);
    auto selected = [&](ir::LocId l) {
      if (l == c_.entry || p_.locs[l].loopHead) return true;
      for (ir::EdgeId e : in[l]) {
        const ir::Edge& edge = p_.edges[e];
        if (edge.kind == ir::EdgeKind::Assumed || p_.locs[edge.from].out.size() > 1) return true;
      }
      return false;
    };
    auto mayAt = [&](ir::LocId l) { return (~wp_.at(l)).restrict(known.at(l)); };
    auto mustAt = [&](ir::LocId l) { return must_.at(l).restrict(known.at(l)); };
    // A condition is a repetition when every way in comes from a location where the
    // executions that go on satisfy a condition implying it (and no `assumed` lies between):
    // one instrumented there, or true, or itself a repetition (a least fixpoint, so that a loop
    // does not vouch for itself). The entry is never one: the run starts there.
    auto instrument = [&](auto condAt, auto nontrivial) {
      std::set<ir::LocId> held;  // locations whose condition holds on every execution going on
      auto repeated = [&](ir::LocId l) {
        if (l == c_.entry || in[l].empty()) return false;
        const BoolFn here = condAt(l);
        for (ir::EdgeId e : in[l]) {
          const ir::Edge& edge = p_.edges[e];
          if (edge.kind == ir::EdgeKind::Assumed || !held.count(edge.from)) return false;
          if (!(condAt(edge.from) & ~here).isConstant(false)) return false;
        }
        return true;
      };
      for (bool grew = true; grew;) {
        grew = false;
        for (ir::LocId l : c_.locs)
          if (known.count(l) && !held.count(l) &&
              (selected(l) || condAt(l).isConstant(true) || repeated(l))) {
            held.insert(l);
            grew = true;
          }
      }
      std::vector<ir::LocId> out;
      for (ir::LocId l : c_.locs)
        if (known.count(l) && selected(l) && nontrivial(condAt(l)) && !repeated(l))
          out.push_back(l);
      return out;
    };
    for (ir::LocId l : instrument(mayAt, [](const BoolFn& f) { return !f.isConstant(true); }))
      out.may[l] = toExpr(em, mayAt(l));
    for (ir::LocId l : instrument(
             mustAt, [](const BoolFn& f) { return !f.isConstant(true) && !f.isConstant(false); }))
      out.must[l] = toExpr(em, mustAt(l));
  }

 private:
  uint32_t idOf(ir::VarId v) {
    auto it = std::find(ids_.begin(), ids_.end(), v);
    if (it != ids_.end()) return static_cast<uint32_t>(it - ids_.begin());
    ids_.push_back(v);
    return static_cast<uint32_t>(ids_.size() - 1);
  }
  uint32_t indexOf(ir::VarId v) const {
    return static_cast<uint32_t>(std::find(ids_.begin(), ids_.end(), v) - ids_.begin());
  }
  void collectIds(ExprRef e) {
    if (e->op == Op::Var) idOf(e->payload);
    for (ExprRef k : e->kids) collectIds(k);
  }
  std::vector<std::optional<bool>> allTrue() const {
    return std::vector<std::optional<bool>>(ids_.size(), true);
  }

  BoolFn premise(ExprRef e) const {
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    switch (e->op) {
      case Op::BoolConst:
        return BoolFn::constant(n, e->isTrue());
      case Op::Var:
        return BoolFn::variable(n, indexOf(e->payload));
      case Op::Not:
        return ~premise(e->kid(0));
      case Op::And:
        return premise(e->kid(0)) & premise(e->kid(1));
      case Op::Or:
        return premise(e->kid(0)) | premise(e->kid(1));
      case Op::Implies:
        return ~premise(e->kid(0)) | premise(e->kid(1));
      default:
        return BoolFn::constant(n, false);
    }
  }

  // WP(edge, q): every execution through the edge verifies what it checks, then q.
  BoolFn wpEdge(const ir::Edge& e, const BoolFn& q, const std::vector<bool>& verifiedAll) const {
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    if (raises(e)) return BoolFn::constant(n, false);
    switch (e.kind) {
      case ir::EdgeKind::Assumed:  // a := a && *: for either value of the assumed fact
        return q & q.substitute(indexOf(e.assumedId), false);
      case ir::EdgeKind::Assert:
        return e.premise ? premise(e.premise) & q : BoolFn::constant(n, false);
      case ir::EdgeKind::Call:
        return verifiedAll[e.callee] ? q : BoolFn::constant(n, false);
      default:
        return q;
    }
  }

  // Must(edge, q): every execution through the edge meets an unverified assertion (here or in
  // the callee) or goes on where q holds.
  BoolFn mustEdge(const ir::Edge& e, const BoolFn& q, const std::vector<bool>& mustAll) const {
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    if (raises(e)) return BoolFn::constant(n, true);
    switch (e.kind) {
      case ir::EdgeKind::Assumed:
        return q & q.substitute(indexOf(e.assumedId), false);
      case ir::EdgeKind::Assert:
        return e.premise ? ~premise(e.premise) | q : BoolFn::constant(n, true);
      case ir::EdgeKind::Call:
        return mustAll[e.callee] ? BoolFn::constant(n, true) : q;
      default:
        return q;
    }
  }

  // Forward: each id is true on entry; an `assumed` makes a true id unknown.
  std::map<ir::LocId, std::vector<std::optional<bool>>> constants() const {
    std::map<ir::LocId, std::vector<Known>> k;
    k[c_.entry] = std::vector<Known>(ids_.size(), Known::True);
    std::vector<ir::LocId> todo{c_.entry};
    while (!todo.empty()) {
      const ir::LocId l = todo.back();
      todo.pop_back();
      for (ir::EdgeId e : p_.locs[l].out) {
        const ir::Edge& edge = p_.edges[e];
        if (edge.to == ir::kNone) continue;
        std::vector<Known> next = k[l];
        if (edge.kind == ir::EdgeKind::Assumed) {
          Known& a = next[indexOf(edge.assumedId)];
          if (a == Known::True) a = Known::Unknown;
        }
        auto [it, fresh] =
            k.try_emplace(edge.to, std::vector<Known>(ids_.size(), Known::Unreached));
        bool grew = fresh;
        for (size_t i = 0; i < next.size(); ++i) {
          const Known j = join(it->second[i], next[i]);
          grew = grew || j != it->second[i];
          it->second[i] = j;
        }
        if (grew) todo.push_back(edge.to);
      }
    }
    std::map<ir::LocId, std::vector<std::optional<bool>>> out;
    for (auto& [l, ks] : k) {
      std::vector<std::optional<bool>> v;
      for (Known x : ks)
        v.push_back(x == Known::True    ? std::optional<bool>(true)
                    : x == Known::False ? std::optional<bool>(false)
                                        : std::nullopt);
      out.emplace(l, std::move(v));
    }
    return out;
  }

  ExprRef toExpr(ExprManager& em, const BoolFn& f) const {
    ExprRef any = em.falseExpr();
    for (const BoolFn::Cube& cube : f.cubes()) {
      ExprRef all = em.trueExpr();
      for (const BoolFn::Literal& lit : cube) {
        ExprRef v = em.var(ids_[lit.id], p_.vars[ids_[lit.id]].type);
        all = em.mkAnd(all, lit.value ? v : em.mkNot(v));
      }
      any = em.mkOr(any, all);
    }
    return any;
  }

  bool raises(const ir::Edge& e) const {
    return raising_.count(static_cast<ir::EdgeId>(&e - p_.edges.data())) > 0;
  }

  const ir::Program& p_;
  const ir::Cfa& c_;
  std::vector<ir::VarId> ids_;
  const bool entryRaises_;        // the declarations' initialisers may raise
  std::set<ir::EdgeId> raising_;  // edges whose evaluation may raise a tracked implicit error
  std::map<ir::LocId, BoolFn> wp_, must_;
};

}  // namespace

UnverifiedConditions inferUnverified(const ir::Program& p,
                                     const std::array<bool, ir::kErrorKinds>& tracked) {
  UnverifiedConditions out;
  out.may.assign(p.locs.size(), nullptr);
  out.must.assign(p.locs.size(), nullptr);
  out.skipped.assign(p.cfas.size(), "");
  std::vector<Procedure> procs;
  const Raising raising(p, tracked);
  for (ir::CfaId c = 0; c < p.cfas.size(); ++c) procs.emplace_back(p, c, raising);
  // A procedure with too many ids is not analysed: calls of it may reach an unverified
  // assertion and need not (the conservative constants).
  std::vector<bool> verifiedAll(p.cfas.size(), true), mustAll(p.cfas.size(), false);
  for (ir::CfaId c = 0; c < p.cfas.size(); ++c)
    if (procs[c].tooMany()) {
      verifiedAll[c] = false;
      out.skipped[c] = std::to_string(procs[c].idCount()) + " assumption ids (at most " +
                       std::to_string(BoolFn::kMaxIds) + " are analysed)";
    }
  // Across calls: verifiedAll falls from true, mustAll rises from false, until both settle.
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::CfaId c = 0; c < p.cfas.size(); ++c) {
      if (procs[c].tooMany()) continue;
      procs[c].analyse(verifiedAll, mustAll);
      const bool v = procs[c].verifiedOnEntry(), m = procs[c].mustOnEntry();
      if (v != verifiedAll[c] || m != mustAll[c]) changed = true;
      verifiedAll[c] = v;
      mustAll[c] = m;
    }
  }
  for (ir::CfaId c = 0; c < p.cfas.size(); ++c)
    if (!procs[c].tooMany()) procs[c].conditions(*p.exprs, out);
  return out;
}

std::vector<bool> implicitCheckEdges(const ir::Program& p,
                                     const std::array<bool, ir::kErrorKinds>& tracked) {
  std::vector<bool> out(p.edges.size(), false);
  const Raising raising(p, tracked);
  for (ir::EdgeId e = 0; e < p.edges.size(); ++e) out[e] = raising.edge(p.edges[e]);
  return out;
}

symbolic::Guidance guidanceFor(const UnverifiedConditions& c, Guide guide) {
  symbolic::Guidance g;
  g.assumeAt.assign(c.may.size(), nullptr);
  g.tryFirstAt.assign(c.must.size(), nullptr);
  if (guide == Guide::May || guide == Guide::MayMust) g.assumeAt = c.may;
  if (guide == Guide::Must || guide == Guide::MayMust) g.tryFirstAt = c.must;
  return g;
}

}  // namespace tandem::abstraction
