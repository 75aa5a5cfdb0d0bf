#include "abstraction/auto_predicates.h"

#include <algorithm>
#include <map>
#include <set>

#include "abstraction/linear_atom.h"
#include "abstraction/predicate_atoms.h"
#include "abstraction/predicate_scope.h"
#include "mc/expr/expr_walk.h"
#include "mc/ir/edge_exprs.h"

namespace tandem::abstraction {

namespace {

struct Found {
  ExprRef expr;
  PredicateScope scope;
  std::vector<ir::EdgeId> history;  // the assignments and calls its chain came through
};

// Predicate `pred` matters at `loc`. `check`: it is an implicit check made further on in the
// same procedure (or a weakest precondition of one), which a guard in front of it may bound.
struct Fact {
  uint32_t pred;
  ir::LocId loc;
  bool check;
  auto operator<=>(const Fact&) const = default;
};

// The backward dataflow: facts "predicate q matters at location l", processed in rounds (the
// number of weakest-precondition steps from a condition or check), so that the limit per scope
// keeps the predicates closest to the code.
class Inference {
 public:
  Inference(const ir::Program& p, const DefaultPredicateOptions& o)
      : p_(p),
        em_(*p.exprs),
        o_(o),
        reached_(p.cfas.size()),
        in_(p.locs.size()),
        callsTo_(p.cfas.size()) {}

  ScopedPredicates run() {
    reach();
    seed();
    for (size_t r = 0; r < rounds_.size(); ++r)
      for (size_t i = 0; i < rounds_[r].size(); ++i) {
        const Fact f = rounds_[r][i];
        step(f, static_cast<uint32_t>(r));
      }
    narrow();
    ScopedPredicates out;
    for (const Found& f : found_) {
      if (readsHidden(f.expr)) continue;  // a callee's result: only its preconditions matter
      switch (f.scope.kind) {
        case PredicateScope::Kind::Global:
          out.global.push_back(f.expr);
          break;
        case PredicateScope::Kind::Cfa:
          out.ofCfa[f.scope.index].push_back(f.expr);
          break;
        case PredicateScope::Kind::Class:
          out.ofClass[f.scope.index].push_back(f.expr);
          break;
        case PredicateScope::Kind::None:
          break;
      }
    }
    return out;
  }

 private:
  static constexpr uint32_t kSeed = ir::kNone;

  // Open systems: a global or class predicate that matters in one procedure or method only is
  // that one's (tracked in its frames alone, not at every location).
  void narrow() {
    if (p_.isClosed()) return;
    std::vector<std::set<ir::CfaId>> where(found_.size());
    for (const Fact& f : facts_) where[f.pred].insert(p_.locs[f.loc].cfa);
    for (size_t q = 0; q < found_.size(); ++q) {
      PredicateScope& s = found_[q].scope;
      if (s.kind != PredicateScope::Kind::Cfa && where[q].size() == 1)
        s = PredicateScope{PredicateScope::Kind::Cfa, *where[q].begin()};
    }
  }

  void reach() {
    std::vector<ir::CfaId> todo = o_.roots;
    while (!todo.empty()) {
      ir::CfaId c = todo.back();
      todo.pop_back();
      if (reached_[c]) continue;
      reached_[c] = true;
      for (ir::LocId l : p_.cfas[c].locs)
        for (ir::EdgeId id : p_.locs[l].out) {
          const ir::Edge& e = p_.edges[id];
          if (e.kind == ir::EdgeKind::Return || e.to == ir::kNone) continue;
          in_[e.to].push_back(id);
          if (e.kind == ir::EdgeKind::Call) {
            callsTo_[e.callee].push_back(id);
            todo.push_back(e.callee);
          }
        }
    }
  }

  // Where control can go next from `l`: its edges, into a callee and back, and in a class analysis
  // from the exit of init or a method to the entry of every method.
  std::vector<ir::LocId> successors(ir::LocId l) const {
    std::vector<ir::LocId> out;
    const ir::Location& loc = p_.locs[l];
    for (ir::EdgeId id : loc.out) {
      const ir::Edge& e = p_.edges[id];
      if (e.to != ir::kNone) out.push_back(e.to);
      if (e.kind == ir::EdgeKind::Call) out.push_back(p_.cfas[e.callee].entry);
    }
    if (loc.isExit)
      for (ir::EdgeId id : callsTo_[loc.cfa]) out.push_back(p_.edges[id].to);
    const ir::Cfa& cfa = p_.cfas[loc.cfa];
    if (loc.isExit && o_.classIndex != ir::kNone && cfa.classIndex == o_.classIndex)
      for (ir::CfaId m : p_.classes[o_.classIndex].methods) out.push_back(p_.cfas[m].entry);
    return out;
  }

  // Whether `e` lies on a cycle (a loop, or method after method).
  bool onCycle(ir::EdgeId id) {
    if (auto it = onCycle_.find(id); it != onCycle_.end()) return it->second;
    const ir::Edge& e = p_.edges[id];
    std::vector<bool> seen(p_.locs.size());
    std::vector<ir::LocId> todo{e.to};
    bool found = false;
    while (!todo.empty() && !found) {
      ir::LocId l = todo.back();
      todo.pop_back();
      if (seen[l]) continue;
      seen[l] = true;
      found = l == e.from;
      for (ir::LocId n : successors(l)) todo.push_back(n);
    }
    return onCycle_[id] = found;
  }

  // An assignment of `e` that updates a variable `pred` reads from its own value (`i := i + 1`).
  bool updatesRead(const ir::Edge& e, ExprRef pred) const {
    const std::vector<uint32_t> reads = freeVars(pred);
    for (const ir::Assignment& a : e.assigns) {
      if (a.lhs->op != Op::Var || !a.rhs) continue;
      const uint32_t v = a.lhs->payload;
      const std::vector<uint32_t> rhs = freeVars(a.rhs);
      if (std::binary_search(reads.begin(), reads.end(), v) &&
          std::binary_search(rhs.begin(), rhs.end(), v))
        return true;
    }
    return false;
  }

  std::vector<ir::CfaId> reachedCfas() const {
    std::vector<ir::CfaId> out;
    for (ir::CfaId c = 0; c < p_.cfas.size(); ++c)
      if (reached_[c]) out.push_back(c);
    return out;
  }

  void seed() {
    for (const ir::Property& inv : p_.invariants) {
      std::vector<ExprRef> xs;
      conditionAtoms(em_, inv.expr, xs);
      for (ir::CfaId c : reachedCfas())
        for (ir::LocId l : p_.cfas[c].locs)
          for (ExprRef x : xs) offer(x, l, 0, kSeed, kSeed, false);
    }
    for (ir::CfaId c : reachedCfas()) {
      const ir::Cfa& cfa = p_.cfas[c];
      std::vector<ExprRef> checks;
      for (const ir::Assignment& a : cfa.entryInits)
        if (a.rhs) implicitChecks(em_, a.rhs, checks);
      for (ExprRef x : checks) offer(x, cfa.entry, 0, kSeed, kSeed, true);
      for (ir::LocId l : cfa.locs)
        for (ir::EdgeId id : p_.locs[l].out) {
          const ir::Edge& e = p_.edges[id];
          std::vector<ExprRef> atoms;
          conditionAtoms(em_, e.guard, atoms);
          if (e.kind == ir::EdgeKind::Assert) conditionAtoms(em_, e.cond, atoms);
          for (ExprRef x : atoms) offer(x, l, 0, kSeed, kSeed, false);
          checks.clear();
          ir::forEachExpr(e, [&](ExprRef x) { implicitChecks(em_, x, checks); });
          for (ExprRef x : checks) offer(x, l, 0, kSeed, kSeed, true);
        }
    }
  }

  // `e` matters at `at`; a new predicate when no known one is the same (linear_atom.h) and its
  // scope has room.
  void offer(ExprRef e, ir::LocId at, uint32_t round, uint32_t parent, ir::EdgeId via, bool check) {
    if (!e || e->op == Op::BoolConst) return;
    // Over constants and `pid` only (`1 - pid == pid`, a precondition of `turn == pid`): a
    // constant of each instance, nothing to track.
    if (!mentionsOp(e, Op::Var) && !mentionsOp(e, Op::ProcLocal)) return;
    AtomKey key = atomKey(e);
    if (auto it = index_.find(key); it != index_.end()) {
      relevant({it->second, at, check}, round);
      return;
    }
    std::vector<ir::EdgeId> history;
    if (parent != kSeed) history = found_[parent].history;
    if (via != kSeed) {
      if (std::find(history.begin(), history.end(), via) != history.end()) return;
      history.push_back(via);
    }
    const PredicateScope scope = scopeOf(p_, e, p_.locs[at].cfa);
    if (scope.kind == PredicateScope::Kind::None) return;
    size_t& n = counts_[{static_cast<uint8_t>(scope.kind), scope.index}];
    if (n >= o_.limit) return;
    ++n;
    const auto id = static_cast<uint32_t>(found_.size());
    index_.emplace(std::move(key), id);
    found_.push_back(Found{e, scope, std::move(history)});
    relevant({id, at, check}, round);
  }

  void relevant(const Fact& f, uint32_t round) {
    if (!facts_.insert(f).second) return;
    if (rounds_.size() <= round) rounds_.resize(round + 1);
    rounds_[round].push_back(f);
  }

  bool readsHidden(ExprRef e) const {
    for (uint32_t v : freeVars(e))
      if (p_.vars[v].hidden) return true;
    return false;
  }

  bool readsLocalsOf(ExprRef e, ir::CfaId c) const {
    for (uint32_t v : freeVars(e))
      if (p_.vars[v].scope == ir::VarScope::Local && p_.vars[v].owner == c) return true;
    return false;
  }

  // Predicate q matters at l: where else it (or its weakest precondition) matters.
  void step(const Fact& f, uint32_t round) {
    const uint32_t q = f.pred;
    const ir::LocId l = f.loc;
    const ExprRef e = found_[q].expr;
    const ir::CfaId c = p_.locs[l].cfa;
    // Closed systems: another process may change a global between any two steps.
    if (p_.isClosed() && found_[q].scope.kind == PredicateScope::Kind::Global &&
        everywhere_.insert(q).second) {
      std::vector<ir::CfaId> threads = p_.processes;
      if (p_.rules != ir::kNone) threads.push_back(p_.rules);
      for (ir::CfaId t : threads)
        for (ir::LocId at : p_.cfas[t].locs) relevant({q, at, false}, round);
    }
    for (ir::EdgeId id : in_[l]) {
      const ir::Edge& ed = p_.edges[id];
      if (ed.kind == ir::EdgeKind::Command) {
        std::vector<ExprRef> guards;
        ir::conjuncts(ed.guard, guards);
        if (f.check)
          for (ExprRef g : guards) offer(boundRelation(em_, g, e), ed.from, round, q, kSeed, false);
        // Around a loop (or from method to method) an update `i := i + 1` would turn `i < n`
        // into i + 1 < n, i + 2 < n, ...: what the loop needs is in its guards and checks.
        if (!ed.assigns.empty() && updatesRead(ed, e) && onCycle(id)) continue;
        ExprRef w = ed.assigns.empty() ? e : weakestPrecondition(em_, e, ed);
        offer(w, ed.from, w == e ? round : round + 1, q, w == e ? kSeed : id, f.check);
      } else if (ed.kind == ir::EdgeKind::Call) {
        intoCall(f, ed, id, round);
      } else {
        relevant({q, ed.from, f.check}, round);
      }
    }
    if (l == p_.cfas[c].entry) atEntry(f, c, round);
  }

  // Predicate f.pred matters after `call`: before it, if the call leaves what it reads alone (the
  // caller's frame is kept); in the callee, on its returned value, if it reads the result.
  void intoCall(const Fact& f, const ir::Edge& call, ir::EdgeId id, uint32_t round) {
    const ExprRef e = found_[f.pred].expr;
    const std::vector<uint32_t> reads = freeVars(e);
    if (!call.result || call.result->op != Op::Var ||
        !std::binary_search(reads.begin(), reads.end(), call.result->payload)) {
      relevant({f.pred, call.from, f.check}, round);
      return;
    }
    const ir::Cfa& callee = p_.cfas[call.callee];
    if (callee.resultVar == ir::kNone) return;
    const ir::Variable& rv = p_.vars[callee.resultVar];
    ExprRef w = substituteVars(em_, e, {{call.result, em_.var(callee.resultVar, rv.type)}});
    offer(w, callee.exit, round + 1, f.pred, id, false);
  }

  // Predicate q matters at the entry of c: in its callers (parameters are the arguments), and in
  // a class analysis at the exit of init and of every method.
  void atEntry(const Fact& f, ir::CfaId c, uint32_t round) {
    const uint32_t q = f.pred;
    const ir::Cfa& cfa = p_.cfas[c];
    ExprRef e = found_[q].expr;
    for (auto it = cfa.entryInits.rbegin(); it != cfa.entryInits.rend() && e; ++it)
      e = substituteVars(em_, e, {*it});
    if (!e) return;
    for (ir::EdgeId id : callsTo_[c]) {
      const ir::Edge& call = p_.edges[id];
      std::vector<ir::Assignment> bind;
      for (size_t i = 0; i < cfa.params.size() && i < call.args.size(); ++i)
        bind.push_back({em_.var(cfa.params[i], p_.vars[cfa.params[i]].type), call.args[i]});
      ExprRef w = substituteVars(em_, e, bind);
      if (w && !readsLocalsOf(w, c))
        offer(w, call.from, w == found_[q].expr ? round : round + 1, q, id, f.check);
    }
    // A method's entry follows the exit of init and of every method; init's follows nothing.
    if (o_.classIndex == ir::kNone || cfa.kind != ir::CfaKind::Method ||
        cfa.classIndex != o_.classIndex || readsLocalsOf(e, c))
      return;
    const ir::ClassInfo& cls = p_.classes[o_.classIndex];
    std::vector<ir::CfaId> next = cls.methods;
    next.push_back(cls.init);
    for (ir::CfaId m : next)
      offer(e, p_.cfas[m].exit, e == found_[q].expr ? round : round + 1, q, kSeed, false);
  }

  const ir::Program& p_;
  ExprManager& em_;
  const DefaultPredicateOptions& o_;
  std::vector<bool> reached_;                     // by CfaId
  std::vector<std::vector<ir::EdgeId>> in_;       // by LocId: edges of its CFA into it
  std::vector<std::vector<ir::EdgeId>> callsTo_;  // by CfaId: the calls of it
  std::vector<Found> found_;
  std::map<AtomKey, uint32_t> index_;
  std::map<std::pair<uint8_t, uint32_t>, size_t> counts_;
  std::set<Fact> facts_;
  std::vector<std::vector<Fact>> rounds_;
  std::set<uint32_t> everywhere_;  // closed systems: global predicates spread to every thread
  std::map<ir::EdgeId, bool> onCycle_;
};

}  // namespace

ScopedPredicates defaultPredicates(const ir::Program& p, const DefaultPredicateOptions& o) {
  return Inference(p, o).run();
}

DefaultPredicateOptions analysisOptions(const ir::Program& p, ir::CfaId entry, uint32_t classIndex,
                                        size_t limit) {
  DefaultPredicateOptions d;
  d.roots = p.processes;
  if (p.rules != ir::kNone) d.roots.push_back(p.rules);
  if (entry != ir::kNone) d.roots.push_back(entry);
  if (classIndex != ir::kNone)
    for (ir::CfaId m : p.classes[classIndex].methods) d.roots.push_back(m);
  d.classIndex = classIndex;
  d.limit = limit;
  return d;
}

}  // namespace tandem::abstraction
