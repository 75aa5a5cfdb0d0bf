#include "cover/reach_vc.h"

#include <algorithm>
#include <stdexcept>

namespace tandem::cover {

using symbolic::SymState;
using symbolic::SymValue;

namespace {

ExprRef conjunction(ExprManager& em, const std::vector<ExprRef>& xs) {
  return em.mkAnd(std::span<const ExprRef>(xs));
}

ExprRef disjunction(ExprManager& em, const std::vector<ExprRef>& xs) {
  ExprRef r = em.falseExpr();
  for (ExprRef x : xs) r = em.mkOr(r, x);
  return r;
}

ExprRef implies(ExprManager& em, ExprRef a, ExprRef b) { return em.mkOr(em.mkNot(a), b); }

bool sameAddress(const symbolic::SymAddress& a, const symbolic::SymAddress& b) {
  return a.base == b.base && a.frame == b.frame && a.object == b.object && a.slot == b.slot &&
         a.thread == b.thread && a.path == b.path;
}

// Whether a phi can join the two values: references to the same place, the same objects.
bool joinable(const SymValue& a, const SymValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case SymValue::Kind::Scalar:
      return true;
    case SymValue::Kind::Ref:
      return a.addr.has_value() == b.addr.has_value() && (!a.addr || sameAddress(*a.addr, *b.addr));
    case SymValue::Kind::Object:
      return a.object == b.object;
    case SymValue::Kind::Array:
      break;
  }
  if (a.elems && b.elems && a.elems->size() == b.elems->size()) {
    for (size_t i = 0; i < a.elems->size(); ++i)
      if (!joinable((*a.elems)[i], (*b.elems)[i])) return false;
    return true;
  }
  // One array term: scalar elements only.
  for (const SymValue* v : {&a, &b})
    if (v->elems)
      for (const SymValue& e : *v->elems)
        if (e.kind != SymValue::Kind::Scalar) return false;
  return true;
}

bool joinable(const std::vector<SymValue>& a, const std::vector<SymValue>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!joinable(a[i], b[i])) return false;
  return true;
}

bool joinable(const SymState& a, const SymState& b) {
  if (a.heap.size() != b.heap.size() || a.frames.size() != b.frames.size()) return false;
  if (!joinable(a.globals, b.globals)) return false;
  for (size_t o = 0; o < a.heap.size(); ++o)
    if (a.heap[o].classIndex != b.heap[o].classIndex ||
        !joinable(a.heap[o].fields, b.heap[o].fields))
      return false;
  for (size_t d = 0; d < a.frames.size(); ++d)
    if (a.frames[d].old != b.frames[d].old || a.frames[d].self != b.frames[d].self ||
        !joinable(a.frames[d].locals, b.frames[d].locals))
      return false;
  return true;
}

// The single static assignment's phi: one value of the joined state from the values each
// incoming arc brings; where they differ, a fresh constant, equated on each arc to its value.
class Phi {
 public:
  Phi(ExprManager& em, const symbolic::SymEvaluator& ev, std::string where, size_t arcs)
      : em_(em), ev_(ev), where_(std::move(where)), eqs_(arcs) {}

  SymValue merge(const std::vector<const SymValue*>& vs, TypeRef t, const std::string& name) {
    const SymValue& first = *vs[0];
    for (const SymValue* v : vs)
      if (v->kind != first.kind) differ(name);
    switch (first.kind) {
      case SymValue::Kind::Scalar:
        return scalar(vs, t, name);
      case SymValue::Kind::Ref:
        for (const SymValue* v : vs)
          if (v->addr.has_value() != first.addr.has_value() ||
              (first.addr && !sameAddress(*v->addr, *first.addr)))
            differ(name);
        return first;
      case SymValue::Kind::Object:
        for (const SymValue* v : vs)
          if (v->object != first.object) differ(name);
        return first;
      case SymValue::Kind::Array:
        return array(vs, t, name);
    }
    return first;
  }
  std::vector<std::vector<ExprRef>>& equations() { return eqs_; }

 private:
  [[noreturn]] void differ(const std::string& name) const {
    throw symbolic::NotImplemented(
        "cover: '" + name + "' holds references or objects that differ where paths meet (at " +
        where_ + ")");
  }

  SymValue scalar(const std::vector<const SymValue*>& vs, TypeRef t, const std::string& name) {
    bool same = true;
    for (const SymValue* v : vs) same = same && v->expr == vs[0]->expr;
    if (same) return *vs[0];
    TypeRef type = vs[0]->expr->type ? vs[0]->expr->type : t;
    ExprRef x = em_.freshSymbol(name + "@" + where_, type);
    for (size_t i = 0; i < vs.size(); ++i) eqs_[i].push_back(em_.mkEq(x, vs[i]->expr));
    return SymValue::scalar(x);
  }

  SymValue array(const std::vector<const SymValue*>& vs, TypeRef t, const std::string& name) {
    bool sameShape = true;
    for (const SymValue* v : vs)
      sameShape = sameShape && v->elems && vs[0]->elems && v->elems->size() == vs[0]->elems->size();
    if (sameShape) {
      bool same = true;
      for (const SymValue* v : vs) same = same && v->elems == vs[0]->elems;
      if (same) return *vs[0];
      std::vector<SymValue> out;
      for (size_t i = 0; i < vs[0]->elems->size(); ++i) {
        std::vector<const SymValue*> es;
        for (const SymValue* v : vs) es.push_back(&(*v->elems)[i]);
        out.push_back(merge(es, t ? t->elem : nullptr, name + "[" + std::to_string(i) + "]"));
      }
      return SymValue::array(std::move(out));
    }
    // Lengths differ (or the symbolic form meets): one array term and one length.
    if (!t || !symbolic::isScalarType(t->elem)) differ(name);
    std::vector<SymValue> terms, lengths;
    for (const SymValue* v : vs) {
      terms.push_back(SymValue::scalar(ev_.arrayTerm(*v, t)));
      lengths.push_back(SymValue::scalar(ev_.lengthOf(*v)));
    }
    std::vector<const SymValue*> tp, lp;
    for (size_t i = 0; i < vs.size(); ++i) {
      tp.push_back(&terms[i]);
      lp.push_back(&lengths[i]);
    }
    SymValue term = scalar(tp, t, name);
    SymValue length = scalar(lp, em_.types().intType(), name + ".length");
    return SymValue::symbolicArray(term.expr, length.expr);
  }

  ExprManager& em_;
  const symbolic::SymEvaluator& ev_;
  std::string where_;
  std::vector<std::vector<ExprRef>> eqs_;
};

}  // namespace

// Collects what one step (or the entry) does: the successor, the return, the errors, the inputs.
class ReachVc::Policy final : public symbolic::TransferPolicy {
 public:
  Policy(ReachVc& vc, uint32_t from, uint32_t to) : vc_(vc), from_(from), to_(to) {}

  bool feasible(SymState&) override { return true; }  // the formula keeps every path
  void fail(const SymState& s, ExprRef bad, const exec::ExecError& error, ir::EdgeId id) override {
    std::vector<ExprRef> c = s.pathCond;
    c.push_back(bad);
    const uint32_t a = add(vc_.em_.mkAnd(std::span<const ExprRef>(c)), id, VcArc::kEnd);
    vc_.arcs_[a].error = error;
    vc_.arcs_[a].errorGroup = vc_.errorGroup(id, error);
  }
  SymValue input(SymState& s, symbolic::InputKind kind, TypeRef t,
                 const std::string& name) override {
    ExprRef symbol = nullptr;
    SymValue v = vc_.ev_.freshInput(t, name, symbol);
    // A replay cannot build a longer array than the reference evaluator allows.
    if (v.isSymbolicArray() && !v.length->isConst())
      s.pathCond.push_back(vc_.ev_.mk(
          Op::Le, vc_.em_.types().boolType(),
          {v.length, vc_.em_.intConst(BigInt(vc_.ev_.concrete().limits().maxArrayLength))}));
    vc_.inputs_.push_back(VcInput{kind, name, t, v});
    if (kind == symbolic::InputKind::Havoc)
      havocs_.push_back(static_cast<uint32_t>(vc_.inputs_.size() - 1));
    return v;
  }
  void successor(SymState&& s, ir::EdgeId id) override {
    if (to_ == VcArc::kEnd) throw std::logic_error("cover: a step past the unwinding's end");
    // Passive form: every value the step computed becomes a constant of its own, equated to its
    // term on this arc. Substituting terms instead nests them over the whole program, and the
    // solver drowns in the products of their coefficients (measured on the random benchmark:
    // 10 s timeouts on 9 diamonds).
    std::vector<ExprRef> defs = s.pathCond;
    auto name = [&](SymValue& v, const std::string& n) { assign(v, n, defs); };
    for (ir::VarId g : vc_.p_.globals) name(s.globals[vc_.p_.vars[g].slot], vc_.p_.vars[g].name);
    for (symbolic::SymObject& o : s.heap)
      for (SymValue& f : o.fields) name(f, "field");
    for (symbolic::SymFrame& f : s.frames)
      for (ir::VarId l : vc_.p_.cfas[f.cfa].locals)
        name(f.locals[vc_.p_.vars[l].slot], vc_.p_.vars[l].name);
    const uint32_t a = add(conjunction(vc_.em_, defs), id, VcArc::kEnd);
    vc_.pending_[to_].emplace_back(a, std::move(s));  // its target copy is chosen by join()
  }
  void returned(const SymState& s, ir::EdgeId id) override {
    add(conjunction(vc_.em_, s.pathCond), id, VcArc::kEnd);
  }
  // Names `v` by a fresh constant (recursively for arrays) unless it is a constant or a symbol.
  void assign(SymValue& v, const std::string& n, std::vector<ExprRef>& defs) {
    auto fresh = [&](ExprRef e) {
      if (!e || e->isConst() || e->op == Op::Symbol) return e;
      ExprRef x = vc_.em_.freshSymbol(n, e->type);
      defs.push_back(vc_.em_.mkEq(x, e));
      return x;
    };
    if (v.kind == SymValue::Kind::Scalar) {
      v.expr = fresh(v.expr);
    } else if (v.kind == SymValue::Kind::Array && v.elems) {
      std::vector<SymValue> xs = *v.elems;
      for (SymValue& x : xs) assign(x, n, defs);
      v = SymValue::array(std::move(xs));
    } else if (v.kind == SymValue::Kind::Array) {
      v.expr = fresh(v.expr);
      v.length = fresh(v.length);
    }
  }
  // Executions within the reference evaluator's limits only: every test must replay.
  void limit(SymState& s, ExprRef within) override { s.pathCond.push_back(within); }
  // One arc per test of the callee: its path, run from the caller's state.
  bool summarise(const SymState& s, ir::EdgeId id, const std::vector<SymValue>& args) override {
    const Summary* sum = vc_.summaries_ ? vc_.summaries_->of(vc_.p_.edges[id].callee) : nullptr;
    if (!sum) return false;
    if (vc_.anyResult_) {
      const ir::Cfa& callee = vc_.p_.cfas[vc_.p_.edges[id].callee];
      std::optional<SymValue> any;
      if (callee.resultVar != ir::kNone)
        any = SymValue::scalar(
            vc_.em_.freshSymbol(callee.name + ".result", vc_.p_.vars[callee.resultVar].type));
      vc_.transfer_.skipCall(s, id, any, *this);
      // A callee that can fail ends the execution there: its errors as errors of the call, so
      // that what comes before the call is reached by those executions too.
      for (const SummaryPair& pair : sum->pairs)
        if (pair.error)
          fail(s, vc_.em_.trueExpr(), *pair.error,
               pair.errorEdge == ir::kNone ? id : pair.errorEdge);
      return true;
    }
    const ir::Cfa& callee = vc_.p_.cfas[vc_.p_.edges[id].callee];
    const symbolic::Mover mover;
    const size_t havocs = havocs_.size();  // the caller's, before the call
    for (const SummaryPair& pair : sum->pairs) {
      havocs_.resize(havocs);
      PathFollower along(*this, pair, id);
      SymState t = s;
      bool on = vc_.transfer_.enterCall(t, id, args, along);
      for (size_t i = 0; on && i < pair.edges.size(); ++i) {
        along.at(i);
        if (i + 1 == pair.edges.size() && !pair.error) nameResult(t, callee);
        vc_.transfer_.step(std::move(t), mover, pair.edges[i], along);
        on = along.next.has_value();
        if (on) t = std::move(*along.next);
        along.next.reset();
      }
      pair_ = &pair;
      call_ = id;
      if (pair.error && along.failing)
        fail(along.failing->first, along.failing->second, *pair.error,
             pair.errorEdge == ir::kNone ? id : pair.errorEdge);
      else if (!pair.error && on)
        successor(std::move(t), id);
      pair_ = nullptr;
      call_ = ir::kNone;
    }
    havocs_.resize(havocs);
    return true;
  }

 private:
  uint32_t add(ExprRef cond, ir::EdgeId id, uint32_t to) {
    const uint32_t a = static_cast<uint32_t>(vc_.arcs_.size());
    VcArc arc;
    arc.from = from_;
    arc.to = to;
    arc.edge = id;
    // `taken` is chosen once the step's arcs are all known (ReachVc::name).
    arc.havocs = havocs_;
    arc.call = call_;
    arc.pair = pair_;
    vc_.arcs_.push_back(std::move(arc));
    vc_.cond_.push_back(cond);
    (from_ == VcArc::kRoot ? vc_.rootOut_ : vc_.out_[from_]).push_back(a);
    return a;
  }

  // Before the callee's return: its result becomes a constant of its own, equated to its term
  // (a constant, on many paths). The caller then folds no more than with the callee inlined,
  // where other paths join: no error of the caller's is left out of the formula because one
  // test's result made its condition constant.
  void nameResult(SymState& t, const ir::Cfa& callee) {
    if (callee.resultVar == ir::kNone) return;
    const ir::Variable& v = vc_.p_.vars[callee.resultVar];
    SymValue& value = t.top().locals[v.slot];
    if (value.kind != SymValue::Kind::Scalar || !value.expr) return;
    const ExprRef x =
        vc_.em_.freshSymbol(callee.name + ".result", value.expr->type ? value.expr->type : v.type);
    t.pathCond.push_back(vc_.em_.mkEq(x, value.expr));
    value = SymValue::scalar(x);
  }

  // Follows one test's path through the callee: keeps the state after each edge, and the
  // failing condition where the test fails. The path assumes every error it passes does not
  // happen (those are other tests of the callee), except the store of the result on its return
  // edge, which is the caller's own error and becomes an arc as with the callee inlined.
  class PathFollower final : public symbolic::TransferPolicy {
   public:
    PathFollower(Policy& outer, const SummaryPair& pair, ir::EdgeId call)
        : outer_(outer), pair_(pair), call_(call) {}
    void at(size_t i) { i_ = i; }
    bool feasible(SymState&) override { return true; }
    void fail(const SymState& s, ExprRef bad, const exec::ExecError& error,
              ir::EdgeId id) override {
      const bool last = i_ + 1 == pair_.edges.size();
      if (pair_.error && id == (pair_.errorEdge == ir::kNone ? call_ : pair_.errorEdge) &&
          (last || pair_.edges.empty()) && error.kind == pair_.error->kind &&
          error.message == pair_.error->message) {
        failing.emplace(s, bad);
      } else if (!pair_.error && last && outer_.vc_.p_.edges[id].kind == ir::EdgeKind::Return) {
        outer_.pair_ = &pair_;
        outer_.call_ = call_;
        outer_.fail(s, bad, error, id);
        outer_.pair_ = nullptr;
        outer_.call_ = ir::kNone;
      }
    }
    SymValue input(SymState& s, symbolic::InputKind kind, TypeRef t,
                   const std::string& name) override {
      return outer_.input(s, kind, t, name);
    }
    void successor(SymState&& s, ir::EdgeId) override { next = std::move(s); }
    void returned(const SymState&, ir::EdgeId) override {
      throw std::logic_error("cover: a summarised callee's path returns from the bottom frame");
    }
    void limit(SymState& s, ExprRef within) override { s.pathCond.push_back(within); }

    std::optional<SymState> next;
    std::optional<std::pair<SymState, ExprRef>> failing;

   private:
    Policy& outer_;
    const SummaryPair& pair_;
    ir::EdgeId call_;
    size_t i_ = 0;
  };

  ReachVc& vc_;
  uint32_t from_;  // a node copy, or kRoot
  uint32_t to_;    // an unwinding node, or kEnd
  std::vector<uint32_t> havocs_;
  ir::EdgeId call_ = ir::kNone;  // while a summarised call makes its arcs
  const SummaryPair* pair_ = nullptr;
};

ReachVc::ReachVc(const ir::Program& p, const Unwinding& u, const symbolic::SymEvaluator& ev,
                 std::array<bool, ir::kErrorKinds> tracked, ir::CfaId entry, search::Budget& budget,
                 const SummaryTable* summaries, bool anyResult)
    : p_(p),
      em_(ev.exprs()),
      ev_(ev),
      transfer_(ev, tracked),
      summaries_(summaries),
      anyResult_(anyResult) {
  pending_.resize(u.nodes().size());
  if (!u.nodes().empty()) {
    SymState s;
    Policy entering(*this, VcArc::kRoot, 0);
    if (transfer_.enter(s, entry, entering)) entering.successor(std::move(s), ir::kNone);
    name(rootOut_, nullptr);
  }
  const symbolic::Mover mover;
  for (uint32_t node : u.order()) {
    if (budget.poll()) {
      stopped_ = true;
      return;
    }
    // No arc leads here: the node has no copy, and no execution reaches it.
    if (pending_[node].empty()) continue;
    for (auto& [copy, s] : join(u, node)) {
      for (uint32_t ua : u.nodes()[node].out) {
        const UnwindArc& arc = u.arcs()[ua];
        Policy step(*this, copy, arc.to == ir::kNone ? VcArc::kEnd : arc.to);
        transfer_.step(s, mover, arc.edge, step);
      }
      name(out_[copy], nodes_[copy].reach);
    }
  }
  clauses();
}

void ReachVc::name(const std::vector<uint32_t>& arcs, ExprRef reachFrom) {
  // The only way on from a reached node is taken whenever the node is reached: one boolean
  // for both (a straight line of statements then has one boolean, as a basic block).
  if (reachFrom && arcs.size() == 1 && !arcs_[arcs[0]].error) {
    arcs_[arcs[0]].taken = reachFrom;
    return;
  }
  for (uint32_t a : arcs) arcs_[a].taken = em_.freshSymbol("taken", em_.types().boolType());
}

const std::vector<uint32_t>& ReachVc::out(uint32_t node) const {
  return node == VcArc::kRoot ? rootOut_ : out_[node];
}

bool sameError(const VcErrorGroup& a, const VcErrorGroup& b) {
  return a.edge == b.edge && a.error.kind == b.error.kind && a.error.message == b.error.message;
}

uint32_t ReachVc::errorGroup(ir::EdgeId edge, const exec::ExecError& e) {
  const VcErrorGroup g{edge, e};
  for (size_t i = 0; i < errorGroups_.size(); ++i)
    if (sameError(errorGroups_[i], g)) return static_cast<uint32_t>(i);
  errorGroups_.push_back(g);
  return static_cast<uint32_t>(errorGroups_.size() - 1);
}

std::vector<std::pair<uint32_t, SymState>> ReachVc::join(const Unwinding& u, uint32_t node) {
  auto incoming = std::move(pending_[node]);
  pending_[node].clear();
  // Arcs whose states a phi can join share a copy (the first state of each group decides).
  std::vector<std::vector<std::pair<uint32_t, SymState>>> groups;
  for (auto& in : incoming) {
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto& grp) { return joinable(grp[0].second, in.second); });
    if (g == groups.end()) {
      groups.emplace_back();
      g = groups.end() - 1;
    }
    g->push_back(std::move(in));
  }
  std::vector<std::pair<uint32_t, SymState>> out;
  for (auto& grp : groups) {
    const uint32_t copy = static_cast<uint32_t>(nodes_.size());
    const ir::LocId loc = u.nodes()[node].loc;
    // Reached iff its only arc in is taken: one boolean for both.
    ExprRef reach = grp.size() == 1
                        ? arcs_[grp[0].first].taken
                        : em_.freshSymbol("reach_" + p_.locName(loc), em_.types().boolType());
    nodes_.push_back(VcNode{node, loc, reach});
    in_.emplace_back();
    out_.emplace_back();
    for (auto& [a, st] : grp) {
      arcs_[a].to = copy;
      in_[copy].push_back(a);
    }
    out.emplace_back(copy, joinStates(grp));
  }
  return out;
}

SymState ReachVc::joinStates(std::vector<std::pair<uint32_t, SymState>>& incoming) {
  SymState s = std::move(incoming[0].second);
  s.pathCond.clear();
  s.pathCondAt.clear();
  s.path.clear();
  s.havocs.clear();
  s.limits.clear();
  s.certificate = nullptr;
  if (incoming.size() == 1) return s;
  const std::string where = p_.locName(s.top().pc);
  Phi phi(em_, ev_, where, incoming.size());
  auto values = [&](auto pick) {
    std::vector<const SymValue*> vs;
    for (size_t i = 0; i < incoming.size(); ++i)
      vs.push_back(i == 0 ? &pick(s) : &pick(incoming[i].second));
    return vs;
  };
  for (ir::VarId g : p_.globals) {
    const ir::Variable& v = p_.vars[g];
    s.globals[v.slot] = phi.merge(
        values([&](SymState& x) -> SymValue& { return x.globals[v.slot]; }), v.type, v.name);
  }
  for (size_t o = 0; o < s.heap.size(); ++o) {
    const uint32_t ci = s.heap[o].classIndex;
    for (ir::VarId f : p_.classes[ci].fields) {
      const ir::Variable& v = p_.vars[f];
      s.heap[o].fields[v.slot] =
          phi.merge(values([&](SymState& x) -> SymValue& { return x.heap[o].fields[v.slot]; }),
                    v.type, v.name);
    }
  }
  for (size_t d = 0; d < s.frames.size(); ++d)
    for (ir::VarId l : p_.cfas[s.frames[d].cfa].locals) {
      const ir::Variable& v = p_.vars[l];
      s.frames[d].locals[v.slot] =
          phi.merge(values([&](SymState& x) -> SymValue& { return x.frames[d].locals[v.slot]; }),
                    v.type, v.name);
    }
  for (size_t i = 0; i < incoming.size(); ++i) {
    const uint32_t a = incoming[i].first;
    std::vector<ExprRef>& eqs = phi.equations()[i];
    if (eqs.empty()) continue;
    eqs.push_back(cond_[a]);
    cond_[a] = conjunction(em_, eqs);
  }
  return s;
}

void ReachVc::clauses() {
  std::vector<ExprRef> xs;
  for (uint32_t a : rootOut_) xs.push_back(arcs_[a].taken);
  clauses_.push_back(disjunction(em_, xs));  // the root is reached
  // `reach => \/ xs`, unless xs is `reach` itself (the booleans ReachVc::name shares).
  auto reachImplies = [&](ExprRef reach) {
    if (xs.size() == 1 && xs[0] == reach) return;
    clauses_.push_back(implies(em_, reach, disjunction(em_, xs)));
  };
  for (size_t n = 0; n < nodes_.size(); ++n) {
    xs.clear();
    for (uint32_t a : in_[n]) xs.push_back(arcs_[a].taken);
    reachImplies(nodes_[n].reach);
    xs.clear();
    for (uint32_t a : out_[n]) xs.push_back(arcs_[a].taken);
    reachImplies(nodes_[n].reach);
  }
  for (size_t a = 0; a < arcs_.size(); ++a) {
    const VcArc& arc = arcs_[a];
    std::vector<ExprRef> then{cond_[a]};
    if (arc.from != VcArc::kRoot && nodes_[arc.from].reach != arc.taken)
      then.push_back(nodes_[arc.from].reach);
    if (arc.to != VcArc::kEnd && nodes_[arc.to].reach != arc.taken)
      then.push_back(nodes_[arc.to].reach);
    clauses_.push_back(implies(em_, arc.taken, conjunction(em_, then)));
  }
}

}  // namespace tandem::cover
