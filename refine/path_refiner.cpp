#include "refine/path_refiner.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "abstraction/linear_atom.h"
#include "chc/state_layout.h"
#include "chc/unsupported.h"
#include "mc/ir/cutpoints.h"
#include "mc/ir/ir_printer.h"
#include "mc/ir/liveness.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/fold_locations.h"
#include "mc/symbolic/fragments.h"

namespace tandem::refine {

namespace {

using symbolic::FragmentEnd;
using symbolic::SymConfig;
using symbolic::SymValue;

struct Unsupported {
  std::string why;
};

// Where a state symbol lives and the program expression that reads it there: a global (thread
// and frame -1), a process local of thread `thread`, or a local of frame `frame`.
struct Origin {
  ExprRef expr = nullptr;
  int64_t thread = -1, frame = -1;
};

// One position of the path: a fresh prestate at its locations, in element form (one symbol per
// scalar, as export-chc lays states out), its state symbols in layout order, and their origins.
struct Position {
  std::vector<SymConfig> pres;
  std::unique_ptr<chc::StateLayout> layout;
  std::vector<ExprRef> args;
  std::map<ExprRef, Origin> origin;
  const SymConfig& pre() const { return pres.front(); }
};

// A sequence of fragments from one position's prestate: their conditions and the state reached.
struct Chain {
  std::vector<ExprRef> conds;
  SymConfig post;
  std::vector<std::vector<ir::LocId>> via;  // the location vectors it reaches, in order
};

// Ops whose meaning the concrete evaluator (alpha) and the symbolic one (gamma) share: a
// predicate made of other terms (symbols, lengths, heap terms) is not written.
bool writable(ExprRef e) {
  static constexpr Op kOps[] = {Op::IntConst, Op::BoolConst, Op::EnumConst, Op::Var, Op::Neg,
                                Op::Add,      Op::Sub,       Op::Mul,       Op::Div, Op::Mod,
                                Op::Ite,      Op::Abs,       Op::Min,       Op::Max, Op::Cast};
  if (e->op == Op::Select
          ? e->kid(1)->op != Op::IntConst
          : !isComparison(e->op) && !isConnective(e->op) &&
                std::find(std::begin(kOps), std::end(kOps), e->op) == std::end(kOps))
    return false;
  return std::all_of(e->kids.begin(), e->kids.end(), writable);
}

bool isBool(ExprRef e) { return e->type && e->type->kind == TypeKind::Bool; }

// The atoms of a Boolean formula: its maximal subterms that are not connectives (Boolean `==`
// and `ite` count as connectives), constants left out.
void collectAtoms(ExprRef e, std::set<ExprRef>& seen, std::vector<ExprRef>& out) {
  if (!seen.insert(e).second || e->isConst()) return;
  const bool boolEq = (e->op == Op::Eq || e->op == Op::Ne) && isBool(e->kid(0));
  if (isConnective(e->op) || boolEq || (e->op == Op::Ite && isBool(e))) {
    for (ExprRef k : e->kids) collectAtoms(k, seen, out);
    return;
  }
  out.push_back(e);
}

// A comparison of two non-Boolean terms (Boolean `==` is a connective here).
bool isComparison(ExprRef e) { return isComparison(e->op) && !isBool(e->kid(0)); }

// A linear comparison over `int` written once whatever form the weakest precondition gave it
// (`serving + 1 + 1 == next + 1` is `next == serving + 1`): variables with positive
// coefficients on the left, in the order of their text, the others and the constant on the
// right. Of a predicate and its negation (one split of the states) the form whose first variable
// has a positive coefficient. Other atoms are simplified only.
ExprRef canonicalAtom(const ir::Program& p, ExprRef e) {
  ExprManager& em = *p.exprs;
  e = abstraction::simplify(em, e);
  if (!isComparison(e)) return e;
  abstraction::AtomKey k = abstraction::atomKey(e);
  if (k.relation > 1 || k.terms.empty()) return e;
  std::vector<std::pair<std::string, std::pair<ExprRef, BigInt>>> terms;
  for (const auto& t : k.terms) terms.push_back({ir::exprToString(p, t.first), t});
  std::sort(terms.begin(), terms.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  BigInt c = k.constant;
  if (terms.front().second.second.sign() < 0) {
    // sum <= 0 is the negation of -sum + 1 <= 0; sum == 0 is -sum == 0.
    for (auto& t : terms) t.second.second = -t.second.second;
    c = -c;
    if (k.relation == 0) c += BigInt(1);
  }
  TypeRef intT = em.types().intType();
  auto sum = [&](bool positive) {
    ExprRef out = nullptr;
    for (const auto& [text, t] : terms) {
      if ((t.second.sign() > 0) != positive) continue;
      const BigInt a = positive ? t.second : -t.second;
      ExprRef x = a == BigInt(1) ? t.first : em.mk(Op::Mul, intT, {em.intConst(a), t.first});
      out = out ? em.mk(Op::Add, intT, {out, x}) : x;
    }
    return out;
  };
  // sum + c REL 0, that is P REL N - c.
  ExprRef lhs = sum(true), rhs = sum(false);
  const BigInt minusC = -c;
  if (!rhs) {
    rhs = em.intConst(minusC);
  } else if (minusC.sign() > 0) {
    rhs = em.mk(Op::Add, intT, {rhs, em.intConst(minusC)});
  } else if (minusC.sign() < 0) {
    rhs = em.mk(Op::Sub, intT, {rhs, em.intConst(c)});
  }
  return em.mk(k.relation == 1 ? Op::Eq : Op::Le, em.types().boolType(), {lhs, rhs});
}

// `node` rebuilt over `kids`, an `ite` with a constant condition as its branch.
ExprRef foldIte(ExprManager& em, ExprRef node, std::vector<ExprRef> kids) {
  if (node->op == Op::Ite && kids[0]->op == Op::BoolConst)
    return kids[0]->isTrue() ? kids[1] : kids[2];
  return em.mk(node->op, node->type, std::move(kids), node->payload, node->value);
}

ExprRef firstIte(ExprRef e) {
  if (e->op == Op::Ite) return e;
  for (ExprRef k : e->kids)
    if (ExprRef i = firstIte(k)) return i;
  return nullptr;
}

// An atom over `ite` terms (a symbolic index into an array in element form reads
// `i == 0 ? a0 : i == 1 ? a1 : a2`) as the atoms it is a Boolean combination of: the conditions,
// and the atom with each branch in place of the `ite` (`(c ? x : y) < z` gives c, x < z, y < z).
void liftIte(ExprManager& em, ExprRef atom, std::set<ExprRef>& seen, std::vector<ExprRef>& out) {
  constexpr size_t kMaxAtoms = 256;
  if (out.size() >= kMaxAtoms || !seen.insert(atom).second || atom->isConst()) return;
  ExprRef ite = atom->op == Op::Ite ? nullptr : firstIte(atom);
  if (!ite) {
    out.push_back(atom);
    return;
  }
  std::vector<ExprRef> conds;
  std::set<ExprRef> condSeen;
  collectAtoms(ite->kid(0), condSeen, conds);
  for (ExprRef c : conds) liftIte(em, c, seen, out);
  auto fold = [&](ExprRef n, std::vector<ExprRef> ks) { return foldIte(em, n, std::move(ks)); };
  for (ExprRef branch : {ite->kid(1), ite->kid(2)})
    liftIte(em, symbolic::substitute(em, atom, {{ite, branch}}, fold), seen, out);
}

class PathDecider {
 public:
  PathDecider(const ir::Program& p, const exec::Evaluator& ev, smt::Solver& solver,
              const fabricate::ProveOptions& o)
      : p_(p),
        ev_(ev),
        solver_(solver),
        o_(o),
        em_(*p.exprs),
        sev_(p, ev),
        frag_(p, sev_, ir::computeCutpoints(p, o.cutpoints), o.tracked, o.classIndex),
        dead_(p.isClosed() ? ir::deadProcessLocals(p) : std::vector<std::vector<ir::VarId>>{}) {
    for (ExprRef e : p.predicates) know(e);
    for (const ir::Cfa& c : p.cfas)
      for (ExprRef e : c.predicates) know(e);
    for (ExprRef e : o.extraPredicates.global) know(e);
    for (const auto& [c, es] : o.extraPredicates.ofCfa)
      for (ExprRef e : es) know(e);
  }

  PathRefinement decide(const fabricate::ProveResult& r, size_t index);
  // One abstract path (node ids) to pe, and the location vectors from its last node to where
  // the error happens.
  PathRefinement decidePath(const fabricate::ProveResult& r, const fabricate::PotentialError& pe,
                            const std::vector<uint32_t>& path,
                            const std::vector<std::vector<ir::LocId>>& tail);

 private:
  // The shortest abstract paths from an initial abstract state to each of `targets` that is
  // reachable, nearest first.
  std::vector<std::vector<uint32_t>> abstractPaths(const fabricate::ProveResult& r,
                                                   const std::vector<uint32_t>& targets) const;
  std::unique_ptr<Position> position(const std::vector<ir::LocId>& pcs) const;
  void originsOf(const SymValue& v, TypeRef t, ExprRef e, int64_t thread, int64_t frame,
                 Position& pos) const;
  std::vector<std::vector<ir::LocId>> route(const std::vector<ir::LocId>& from,
                                            const std::vector<ir::LocId>& to);
  // The location vectors one fragment from `pcs` reaches (memoised).
  const std::vector<std::vector<ir::LocId>>& successors(const std::vector<ir::LocId>& pcs);
  ExprRef errorHere(const SymConfig& c, const exec::ExecError& err) const;
  std::optional<std::vector<std::vector<ir::LocId>>> errorRoute(const SymConfig& pre,
                                                                const exec::ExecError& err) const;
  // `f`, a formula over `to`'s state symbols, over the state `post` instead.
  ExprRef over(ExprRef f, const Position& to, const SymConfig& post) const;
  ExprRef invariantFails(const SymConfig& c, const exec::ExecError& err) const;
  static bool sameError(const exec::ExecError& a, const exec::ExecError& b) {
    return a.kind == b.kind && a.loc.line == b.loc.line && a.loc.col == b.loc.col;
  }
  void predicatesFrom(ExprRef f, const Position& pos, PathRefinement& out);

  const ir::Program& p_;
  const exec::Evaluator& ev_;
  smt::Solver& solver_;
  const fabricate::ProveOptions& o_;
  ExprManager& em_;
  symbolic::SymEvaluator sev_;
  symbolic::FragmentBuilder frag_;
  // Whether `e` is a new predicate (up to linear arithmetic and negation); it is known after.
  bool know(ExprRef e) {
    if (isComparison(e)) return knownKeys_.insert(abstraction::atomKey(e)).second;
    return known_.insert(e).second;
  }
  // Whether `e`, read by a thread at `l`, reads one of its process locals dead there.
  bool readsDead(ExprRef e, ir::LocId l) const {
    if (dead_.empty()) return false;
    for (uint32_t v : freeVars(e))
      if (std::binary_search(dead_[l].begin(), dead_[l].end(), v)) return true;
    return false;
  }
  std::set<ExprRef> known_;
  std::set<abstraction::AtomKey> knownKeys_;
  std::vector<std::vector<ir::VarId>> dead_;  // closed systems: by LocId, sorted
  std::map<std::vector<ir::LocId>, std::vector<std::vector<ir::LocId>>> successors_;
};

std::vector<std::vector<uint32_t>> PathDecider::abstractPaths(
    const fabricate::ProveResult& r, const std::vector<uint32_t>& targets) const {
  std::vector<std::vector<uint32_t>> succ(r.nodes.size());
  for (const fabricate::AbstractEdge& e : r.edges)
    if (e.from != e.to) succ[e.from].push_back(e.to);
  std::vector<int64_t> parent(r.nodes.size(), -2);
  std::deque<uint32_t> todo;
  for (uint32_t n = 0; n < r.nodes.size(); ++n)
    if (r.nodes[n].depth == 0 && !r.nodes[n].fabricated) {
      parent[n] = -1;
      todo.push_back(n);
    }
  const std::set<uint32_t> goal(targets.begin(), targets.end());
  std::vector<std::vector<uint32_t>> out;
  while (!todo.empty()) {
    const uint32_t n = todo.front();
    todo.pop_front();
    if (goal.count(n)) {
      std::vector<uint32_t> path;
      for (int64_t m = n; m >= 0; m = parent[m]) path.push_back(static_cast<uint32_t>(m));
      std::reverse(path.begin(), path.end());
      out.push_back(std::move(path));
    }
    for (uint32_t m : succ[n])
      if (parent[m] == -2) {
        parent[m] = n;
        todo.push_back(m);
      }
  }
  return out;
}

void PathDecider::originsOf(const SymValue& v, TypeRef t, ExprRef e, int64_t thread, int64_t frame,
                            Position& pos) const {
  if (v.kind == SymValue::Kind::Scalar && v.expr && v.expr->op == Op::Symbol) {
    pos.origin[v.expr] = Origin{e, thread, frame};
  } else if (v.kind == SymValue::Kind::Array && v.elems && t->isFixedArray()) {
    for (size_t i = 0; i < v.elems->size(); ++i)
      originsOf((*v.elems)[i], t->elem, em_.mk(Op::Select, t->elem, {e, em_.intConst(BigInt(i))}),
                thread, frame, pos);
  }
}

std::unique_ptr<Position> PathDecider::position(const std::vector<ir::LocId>& pcs) const {
  auto pos = std::make_unique<Position>();
  pos->pres = frag_.prestates(pcs);
  if (pos->pres.size() != 1)
    throw Unsupported{"states with references (one prestate per reference value)"};
  pos->layout = std::make_unique<chc::StateLayout>(p_, sev_, pos->pres);
  pos->args = pos->layout->args(pos->pre());
  for (ExprRef a : pos->args)
    if (a->op != Op::Symbol) throw Unsupported{"a state slot that is not a variable"};
  const SymConfig& c = pos->pre();
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    originsOf(c.st.globals[v.slot], v.type, em_.var(id, v.type), -1, -1, *pos);
  }
  for (size_t t = 0; t < c.st.threads.size(); ++t)
    for (ir::VarId id : p_.cfas[c.st.threads[t].cfa].processLocals) {
      const ir::Variable& v = p_.vars[id];
      originsOf(c.st.threads[t].locals[v.slot], v.type, em_.var(id, v.type),
                static_cast<int64_t>(t), -1, *pos);
    }
  if (!p_.isClosed())
    for (size_t d = 0; d < c.st.frames.size(); ++d)
      for (ir::VarId id : p_.cfas[c.st.frames[d].cfa].locals) {
        const ir::Variable& v = p_.vars[id];
        originsOf(c.st.frames[d].locals[v.slot], v.type, em_.var(id, v.type), -1,
                  static_cast<int64_t>(d), *pos);
      }
  return pos;
}

// The location vectors, a fragment apart, from `from` to `to` (`to` last; empty when there is
// no way). Execution between two abstraction points of a closed system may interleave a
// thread's local steps (which commute) with other threads' steps, so one abstract edge can be
// several fragments: the fewest are taken, breadth first over location vectors, each expanded
// once from a fresh prestate. A shorter route than execution's only makes the path's formula
// stronger: refinement may then find predicates it did not need, but it never calls a spurious
// path feasible (each step is a fragment).
std::vector<std::vector<ir::LocId>> PathDecider::route(const std::vector<ir::LocId>& from,
                                                       const std::vector<ir::LocId>& to) {
  constexpr size_t kMaxVectors = 100000;
  std::map<std::vector<ir::LocId>, std::vector<ir::LocId>> parent;
  std::deque<std::vector<ir::LocId>> todo{from};
  parent[from] = {};
  bool found = false;
  while (!todo.empty() && !found && parent.size() < kMaxVectors) {
    const std::vector<ir::LocId> at = std::move(todo.front());
    todo.pop_front();
    for (const std::vector<ir::LocId>& next : successors(at)) {
      if (next == to) {
        if (!parent.count(to) || to == from) parent[to] = at;
        found = true;
        break;
      }
      if (parent.emplace(next, at).second) todo.push_back(next);
    }
    if (!p_.isClosed()) break;  // open systems: one fragment per edge
  }
  if (!found) return {};
  std::vector<std::vector<ir::LocId>> out{to};
  for (std::vector<ir::LocId> at = parent[to]; at != from; at = parent[at]) out.push_back(at);
  std::reverse(out.begin(), out.end());
  return out;
}

const std::vector<std::vector<ir::LocId>>& PathDecider::successors(
    const std::vector<ir::LocId>& pcs) {
  auto [it, isNew] = successors_.try_emplace(pcs);
  if (!isNew) return it->second;
  std::set<std::vector<ir::LocId>> seen;
  for (const SymConfig& pre : frag_.prestates(pcs))
    for (const FragmentEnd& end : frag_.fragments(pre))
      if (end.kind == FragmentEnd::Kind::Cutpoint && seen.insert(end.post.pcs).second)
        it->second.push_back(end.post.pcs);
  return it->second;
}

ExprRef PathDecider::invariantFails(const SymConfig& c, const exec::ExecError& err) const {
  std::vector<ExprRef> fails;
  const bool any =
      std::none_of(p_.invariants.begin(), p_.invariants.end(), [&](const ir::Property& inv) {
        return inv.loc.line == err.loc.line && inv.loc.col == err.loc.col;
      });
  for (const ir::Property& inv : p_.invariants) {
    if (!any && !(inv.loc.line == err.loc.line && inv.loc.col == err.loc.col)) continue;
    std::vector<symbolic::Obligation> obls;
    ExprRef v = sev_.eval(symbolic::foldLocations(p_, ev_, inv.expr, c.pcs), c.st, obls).expr;
    fails.push_back(em_.mkNot(v));
  }
  ExprRef out = em_.falseExpr();
  for (ExprRef f : fails) out = em_.mkOr(out, f);
  return out;
}

// The condition under which the error happens at configuration `c` (an invariant) or on one
// fragment from it.
ExprRef PathDecider::errorHere(const SymConfig& c, const exec::ExecError& err) const {
  ExprRef out = err.kind == ir::ErrorKind::Invariant ? invariantFails(c, err) : em_.falseExpr();
  for (FragmentEnd& end : frag_.fragments(c)) {
    ExprRef here = em_.falseExpr();
    if (end.kind == FragmentEnd::Kind::Error && sameError(*end.error, err))
      here = em_.trueExpr();
    else if (end.kind == FragmentEnd::Kind::Cutpoint && err.kind == ir::ErrorKind::Invariant)
      here = invariantFails(end.post, err);
    if (here->isFalse()) continue;
    std::vector<ExprRef> conds = end.pathCond;
    conds.push_back(here);
    out = em_.mkOr(out, em_.mkAnd(std::span<const ExprRef>(conds)));
  }
  return out;
}

// Execution may reach an error from an abstract state of a closed system through states that
// are no abstraction point (threads amid their local steps): the location vectors, a fragment
// apart, from `pre`'s to the nearest one where errorHere is not false (empty: `pre`'s own), or
// nullopt when none is within three fragments.
std::optional<std::vector<std::vector<ir::LocId>>> PathDecider::errorRoute(
    const SymConfig& pre, const exec::ExecError& err) const {
  if (!errorHere(pre, err)->isFalse()) return std::vector<std::vector<ir::LocId>>{};
  const size_t maxLen = p_.isClosed() ? 3 : 0;
  std::set<std::vector<ir::LocId>> seen{pre.pcs};
  std::vector<Chain> level{Chain{{}, pre, {}}};
  for (size_t len = 1; len <= maxLen && !level.empty(); ++len) {
    std::vector<Chain> next;
    for (const Chain& c : level)
      for (FragmentEnd& end : frag_.fragments(c.post)) {
        if (end.kind != FragmentEnd::Kind::Cutpoint || !seen.insert(end.post.pcs).second) continue;
        Chain d{{}, std::move(end.post), c.via};
        d.via.push_back(d.post.pcs);
        if (!errorHere(d.post, err)->isFalse()) return d.via;
        next.push_back(std::move(d));
      }
    level = std::move(next);
  }
  return std::nullopt;
}

ExprRef PathDecider::over(ExprRef f, const Position& to, const SymConfig& post) const {
  const std::vector<ExprRef> vals = to.layout->args(post);
  std::map<ExprRef, ExprRef> map;
  for (size_t i = 0; i < vals.size(); ++i) map[to.args[i]] = vals[i];
  return symbolic::substitute(em_, f, map);
}

void PathDecider::predicatesFrom(ExprRef f, const Position& pos, PathRefinement& out) {
  std::set<ExprRef> seen, lifted;
  std::vector<ExprRef> found, atoms;
  collectAtoms(f, seen, found);
  for (ExprRef a : found) liftIte(em_, a, lifted, atoms);
  for (ExprRef a : atoms) {
    std::vector<ExprRef> symbols;
    symbolic::collectSymbols(a, symbols);
    std::map<ExprRef, ExprRef> map;
    int64_t thread = -1, frame = -1;
    bool ok = true;
    for (ExprRef s : symbols) {
      auto it = pos.origin.find(s);
      if (it == pos.origin.end()) {
        ok = false;  // a havoc's value, an old() value: not a state variable here
        break;
      }
      const Origin& o = it->second;
      if ((o.thread >= 0 && thread >= 0 && o.thread != thread) ||
          (o.frame >= 0 && frame >= 0 && o.frame != frame)) {
        ok = false;  // two threads' locals (or two frames'): no scope holds it
        break;
      }
      if (o.thread >= 0) thread = o.thread;
      if (o.frame >= 0) frame = o.frame;
      map[s] = o.expr;
    }
    if (!ok) continue;
    ExprRef e = canonicalAtom(p_, symbolic::substitute(em_, a, map));
    if (e->isConst() || !writable(e) || e->op == Op::Var || (e->op == Op::Select && isBool(e)))
      continue;
    // The dead-variable reduction would drop a process predicate where this position needs it.
    const bool dead = thread >= 0 && readsDead(e, pos.pre().pcs[thread]);
    const bool isNew = know(e);
    if (!isNew &&
        (!dead || o_.extraPredicates.keepWhereDead.count(e) || out.added.keepWhereDead.count(e)))
      continue;
    std::string scope = "global";
    if (thread >= 0 || frame >= 0) {
      const ir::CfaId cfa =
          thread >= 0 ? pos.pre().st.threads[thread].cfa : p_.locs[pos.pre().pcs[frame]].cfa;
      out.added.ofCfa[cfa].push_back(e);
      scope = p_.cfas[cfa].name;
    } else {
      out.added.global.push_back(e);
    }
    if (dead) out.added.keepWhereDead.insert(e);
    out.texts.push_back(scope + ": " + ir::exprToString(p_, e) +
                        (dead ? " (kept where it reads a dead variable)" : ""));
  }
}

PathRefinement PathDecider::decide(const fabricate::ProveResult& r, size_t index) {
  const fabricate::PotentialError& pe = r.potentialErrors.at(index);
  // Execution may have reached the error from an abstract state through states of a closed
  // system that are no abstraction point (a thread amid its local steps): abstract states the
  // error is within a few fragments of are taken, nearest first. A path whose predicates are all
  // known already (its chains of fragments are not the ones execution took) gives way to the
  // next.
  constexpr size_t kMaxTries = 16;
  size_t tries = 0;
  PathRefinement stuck;
  for (std::vector<uint32_t>& cand : abstractPaths(r, pe.fromNodes)) {
    if (++tries > kMaxTries) break;
    auto at = position(r.nodes[cand.back()].state.pcs);
    auto tail = errorRoute(at->pre(), pe.found.error);
    if (!tail) continue;
    PathRefinement out = decidePath(r, pe, cand, *tail);
    if (out.kind != PathRefinement::Kind::Stuck) return out;
    if (stuck.why.empty()) stuck = std::move(out);
  }
  if (!stuck.why.empty()) return stuck;
  PathRefinement out;
  out.why = tries ? "the error is not within a few fragments of the abstract states it was "
                    "reached from"
                  : "no abstract path from an initial state to it";
  return out;
}

PathRefinement PathDecider::decidePath(const fabricate::ProveResult& r,
                                       const fabricate::PotentialError& pe,
                                       const std::vector<uint32_t>& path,
                                       const std::vector<std::vector<ir::LocId>>& tail) {
  PathRefinement out;
  out.length = path.size() - 1;
  // The path as location vectors one fragment apart: an abstract edge that execution took
  // through states that are no abstraction point becomes the shortest chain of fragments, whose
  // location vectors are positions too (the abstraction there needs the predicates as well).
  std::vector<std::vector<ir::LocId>> locs{r.nodes[path.front()].state.pcs};
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const std::vector<std::vector<ir::LocId>> via =
        route(r.nodes[path[i]].state.pcs, r.nodes[path[i + 1]].state.pcs);
    if (via.empty()) {
      out.why = "no fragment between two abstract states of the path";
      return out;
    }
    locs.insert(locs.end(), via.begin(), via.end());
  }
  locs.insert(locs.end(), tail.begin(), tail.end());
  std::vector<std::unique_ptr<Position>> pos;
  for (const std::vector<ir::LocId>& l : locs) pos.push_back(position(l));
  // Backwards: f[i] is the weakest precondition, over position i's state, of reaching the error
  // along the rest of the path.
  std::vector<ExprRef> f(locs.size());
  f.back() = errorHere(pos.back()->pre(), pe.found.error);
  for (size_t i = locs.size() - 1; i-- > 0;) {
    ExprRef w = em_.falseExpr();
    for (FragmentEnd& end : frag_.fragments(pos[i]->pre())) {
      if (end.kind != FragmentEnd::Kind::Cutpoint || end.post.pcs != locs[i + 1]) continue;
      std::vector<ExprRef> conj = end.pathCond;
      conj.push_back(over(f[i + 1], *pos[i + 1], end.post));
      w = em_.mkOr(w, em_.mkAnd(std::span<const ExprRef>(conj)));
    }
    f[i] = w;
  }
  std::vector<ExprRef> initCond;
  SymConfig c0 = frag_.initialConfig(o_.entry, initCond);
  chc::inputsToElementForm(p_, sev_, c0, initCond);
  if (c0.pcs != pos.front()->pre().pcs) {
    out.why = "the path does not start at the initial locations";
    return out;
  }
  initCond.push_back(over(f.front(), *pos.front(), c0));
  smt::CheckResult res = smt::CheckResult::unknown("");
  try {
    res = solver_.check(std::span<const ExprRef>(initCond));
  } catch (const smt::SmtUnsupported& e) {
    out.why = e.what();
    return out;
  }
  if (res.isSat()) {
    out.kind = PathRefinement::Kind::Feasible;
    return out;
  }
  if (!res.isUnsat()) {
    out.kind = PathRefinement::Kind::Unknown;
    out.why = res.reason.empty() ? "the solver's unknown" : res.reason;
    return out;
  }
  for (size_t i = 0; i < locs.size(); ++i) predicatesFrom(f[i], *pos[i], out);
  out.kind = out.texts.empty() ? PathRefinement::Kind::Stuck : PathRefinement::Kind::NewPredicates;
  if (out.texts.empty())
    out.why = "the path is spurious, but its predicates are known or cannot be written";
  return out;
}

}  // namespace

PathRefinement refinePath(const ir::Program& p, const exec::Evaluator& ev, smt::Solver& solver,
                          const fabricate::ProveOptions& o, const fabricate::ProveResult& r,
                          size_t index) {
  if (o.classIndex != ir::kNone) {
    PathRefinement out;
    out.why = "the class analysis";
    return out;
  }
  try {
    return PathDecider(p, ev, solver, o).decide(r, index);
  } catch (const Unsupported& u) {
    PathRefinement out;
    out.why = u.why;
    return out;
  } catch (const chc::Unsupported& u) {
    PathRefinement out;
    out.why = u.what();
    return out;
  } catch (const symbolic::NotImplemented& u) {
    PathRefinement out;
    out.why = u.what();
    return out;
  }
}

}  // namespace tandem::refine
