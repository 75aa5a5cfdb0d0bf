#include "fabricate/fragments.h"

#include <set>

namespace tandem::fabricate {

namespace {

using symbolic::NotImplemented;
using symbolic::SymValue;

// Variables whose address the code of `cfa` (or any code, for globals) takes.
void collectAddressTaken(ExprRef e, std::set<ir::VarId>& out) {
  if (e->op == Op::AddrOf && e->kid(0)->op == Op::Var) out.insert(e->kid(0)->payload);
  for (ExprRef k : e->kids) collectAddressTaken(k, out);
}

void collectEdge(const ir::Edge& e, std::set<ir::VarId>& out) {
  for (ExprRef x : {e.guard, e.cond, e.result})
    if (x) collectAddressTaken(x, out);
  for (const auto& a : e.assigns) {
    collectAddressTaken(a.lhs, out);
    if (a.rhs) collectAddressTaken(a.rhs, out);
  }
  for (ExprRef x : e.args) collectAddressTaken(x, out);
}

}  // namespace

FragmentBuilder::FragmentBuilder(const ir::Program& p, const abstraction::Abstraction& abs,
                                 const symbolic::SymEvaluator& sev, std::vector<bool> cutpoints,
                                 std::array<bool, ir::kErrorKinds> tracked)
    : p_(p), abs_(abs), sev_(sev), cut_(std::move(cutpoints)), tracked_(tracked) {
  for (ir::CfaId c : p.processes)
    for (uint32_t i = 0; i < p.cfas[c].instances; ++i) threadCfa_.push_back(c);
  if (p.rules != ir::kNone) threadCfa_.push_back(p.rules);
}

bool FragmentBuilder::isCutpoint(const std::vector<ir::LocId>& pcs) const {
  if (!p_.isClosed()) {
    // A callee's exit is passed through: the fragment goes on to the caller's return site (a
    // cutpoint), so the returned value reaches the caller's predicates exactly instead of
    // through a hidden result variable no predicate can name.
    const ir::Location& top = p_.locs[pcs.back()];
    return cut_[pcs.back()] && !top.atomic && !(pcs.size() > 1 && top.isExit);
  }
  for (ir::LocId l : pcs)
    if (!cut_[l] || p_.locs[l].atomic) return false;
  return true;
}

ir::LocId& FragmentBuilder::pcOf(SymConfig& c, size_t t) const {
  return p_.isClosed() ? c.pcs[t] : c.pcs.back();
}

SymValue FragmentBuilder::freshValue(TypeRef t, const std::string& name) const {
  if (t->isFixedArray() && !(t->elem->isIntegral() || t->elem->kind == TypeKind::Bool ||
                             t->elem->kind == TypeKind::Enum)) {
    std::vector<SymValue> xs;
    for (int64_t i = 0; i < t->length; ++i)
      xs.push_back(freshValue(t->elem, name + "[" + std::to_string(i) + "]"));
    return SymValue::array(std::move(xs));
  }
  ExprRef symbol = nullptr;
  return sev_.freshInput(t, name, symbol);  // scalars, arrays of scalars (symbolic length)
}

std::vector<SymValue> FragmentBuilder::refCandidates(TypeRef refType,
                                                     const std::vector<ir::LocId>& pcs,
                                                     size_t depth) const {
  std::vector<SymValue> out{SymValue::nullRef()};
  std::set<ir::VarId> globalsTaken;
  // Frame `depth` may point at variables of its own frame and of its callers' frames.
  for (size_t d = 0; d <= depth && d < pcs.size(); ++d) {
    const ir::CfaId cfa = p_.locs[pcs[d]].cfa;
    std::set<ir::VarId> taken;
    for (ir::LocId l : p_.cfas[cfa].locs)
      for (ir::EdgeId e : p_.locs[l].out) collectEdge(p_.edges[e], taken);
    for (ir::VarId v : taken) {
      const ir::Variable& var = p_.vars[v];
      if (var.type != refType->elem) continue;
      if (var.scope == ir::VarScope::Global)
        globalsTaken.insert(v);
      else if (var.scope == ir::VarScope::Local && var.owner == cfa)
        out.push_back(SymValue::ref(symbolic::SymAddress{
            exec::AddressBase::Local, static_cast<uint32_t>(d), exec::kNoObject, var.slot, {}}));
    }
  }
  for (ir::VarId v : globalsTaken)
    out.push_back(SymValue::ref(
        symbolic::SymAddress{exec::AddressBase::Global, 0, exec::kNoObject, p_.vars[v].slot, {}}));
  return out;
}

std::vector<SymConfig> FragmentBuilder::prestates(const std::vector<ir::LocId>& pcs) const {
  SymConfig base;
  base.pcs = pcs;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= base.st.globals.size()) base.st.globals.resize(v.slot + 1);
    if (v.type->kind == TypeKind::Ref) throw NotImplemented("fabricating global references");
    base.st.globals[v.slot] = freshValue(v.type, v.name);
  }
  std::vector<SymConfig> out{base};
  if (p_.isClosed()) {
    for (ir::CfaId c : threadCfa_)
      if (!p_.cfas[c].processLocals.empty() || !p_.cfas[c].locals.empty())
        throw NotImplemented("fabricating process-local variables");
    return out;
  }
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::vector<SymValue>>> refs;
  for (size_t depth = 0; depth < pcs.size(); ++depth) {
    const ir::CfaId cfa = p_.locs[pcs[depth]].cfa;
    ir::EdgeId callEdge = ir::kNone;
    if (depth > 0) {  // the caller waits at its call site
      for (ir::EdgeId e : p_.locs[pcs[depth - 1]].out)
        if (p_.edges[e].kind == ir::EdgeKind::Call && p_.edges[e].callee == cfa) callEdge = e;
      if (callEdge == ir::kNone) throw NotImplemented("a call stack without its call edge");
    }
    if (p_.cfas[cfa].usesOld) throw NotImplemented("fabricating states of code that uses old()");
    symbolic::SymFrame f{cfa, pcs[depth], {}, callEdge, exec::kNoObject, nullptr};
    for (ir::VarId id : p_.cfas[cfa].locals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot >= f.locals.size()) f.locals.resize(v.slot + 1);
      if (v.type->kind == TypeKind::Ref) {
        refs.push_back({{static_cast<uint32_t>(depth), v.slot}, refCandidates(v.type, pcs, depth)});
        f.locals[v.slot] = SymValue::nullRef();
      } else {
        f.locals[v.slot] = freshValue(v.type, v.name);
      }
    }
    out[0].st.frames.push_back(std::move(f));
  }
  for (const auto& [where, cands] : refs) {
    std::vector<SymConfig> next;
    for (const SymConfig& c : out)
      for (const SymValue& r : cands) {
        SymConfig d = c;
        d.st.frames[where.first].locals[where.second] = r;
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  return out;
}

SymConfig FragmentBuilder::initialConfig(ir::CfaId entry, std::vector<ExprRef>& initCond) const {
  SymConfig c;
  std::vector<symbolic::Obligation> obls;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= c.st.globals.size()) c.st.globals.resize(v.slot + 1);
  }
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (!v.init || v.init->op == Op::Star)
      c.st.globals[v.slot] = freshValue(v.type, v.name);
    else
      c.st.globals[v.slot] = sev_.coerce(sev_.eval(v.init, c.st, obls), v.type);
  }
  if (p_.isClosed()) {
    for (ir::CfaId t : threadCfa_) {
      if (!p_.cfas[t].processLocals.empty() || !p_.cfas[t].locals.empty())
        throw NotImplemented("fabricating process-local variables");
      c.pcs.push_back(p_.cfas[t].entry);
    }
  } else {
    const ir::Cfa& cfa = p_.cfas[entry];
    symbolic::SymFrame f{entry, cfa.entry, {}, ir::kNone, exec::kNoObject, nullptr};
    for (ir::VarId id : cfa.locals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot >= f.locals.size()) f.locals.resize(v.slot + 1);
      f.locals[v.slot] = sev_.fromValue(exec::defaultValue(v.type), v.type);
    }
    for (ir::VarId id : cfa.params) {
      const ir::Variable& v = p_.vars[id];
      f.locals[v.slot] = freshValue(v.type, v.name);
    }
    c.st.frames.push_back(std::move(f));
    c.pcs.push_back(cfa.entry);
    Branch b{c, {}, {}};
    std::vector<FragmentEnd> ignored;
    bool ok = true;
    assign(b, cfa.entryInits, false, ir::kNone, ignored, ok);
    c = std::move(b.c);
    for (ExprRef x : b.pc) initCond.push_back(x);
  }
  for (ExprRef init : p_.inits) initCond.push_back(sev_.eval(init, c.st, obls).expr);
  for (const auto& ob : obls) initCond.push_back(ob.ok);
  return c;
}

void FragmentBuilder::selectFrame(SymConfig& c, size_t t) const {
  if (!p_.isClosed()) {
    c.st.frames.back().pc = c.pcs.back();
    return;
  }
  c.st.frames.clear();
  c.st.frames.push_back(
      symbolic::SymFrame{threadCfa_[t], c.pcs[t], {}, ir::kNone, exec::kNoObject, nullptr});
}

bool FragmentBuilder::oblige(Branch& b, const std::vector<symbolic::Obligation>& obls,
                             ir::EdgeId id, std::vector<FragmentEnd>& ends) const {
  ExprManager& em = *p_.exprs;
  for (const symbolic::Obligation& ob : obls) {
    if (ob.ok->isTrue()) continue;
    if (tracked_[static_cast<size_t>(ob.kind)]) {
      FragmentEnd e;
      e.kind = FragmentEnd::Kind::Error;
      e.post = b.c;
      e.pathCond = b.pc;
      e.pathCond.push_back(em.mkNot(ob.ok));
      e.edges = b.edges;
      e.edges.push_back(id);
      e.error = exec::ExecError{ob.kind, p_.edges[id].loc, ob.message, false};
      ends.push_back(std::move(e));
    }
    if (ob.ok->isFalse()) return false;
    b.pc.push_back(ob.ok);
  }
  return true;
}

void FragmentBuilder::assign(Branch& b, const std::vector<ir::Assignment>& as, bool parallel,
                             ir::EdgeId id, std::vector<FragmentEnd>& ends, bool& ok) const {
  struct Pending {
    symbolic::SymLvalue lv;
    std::optional<SymValue> value;
    TypeRef type;
  };
  std::vector<Pending> pending;
  auto finish = [&] {
    for (Pending& pd : pending) {
      if (!pd.value) pd.value = freshValue(pd.type, "havoc");
      sev_.store(b.c.st, pd.lv, std::move(*pd.value));
    }
    pending.clear();
  };
  for (const ir::Assignment& a : as) {
    std::vector<symbolic::Obligation> obls;
    Pending pd{sev_.lvalue(a.lhs, b.c.st, obls), std::nullopt, a.lhs->type};
    if (a.rhs && a.rhs->op != Op::Star)
      pd.value = sev_.coerce(sev_.eval(a.rhs, b.c.st, obls), a.lhs->type);
    if (id == ir::kNone) {
      for (const auto& ob : obls) b.pc.push_back(ob.ok);
    } else if (!oblige(b, obls, id, ends)) {
      ok = false;
      return;
    }
    pending.push_back(std::move(pd));
    if (!parallel) finish();
  }
  finish();
}

void FragmentBuilder::step(const Branch& b, size_t t, ir::EdgeId id, std::vector<Branch>& next,
                           std::vector<FragmentEnd>& ends) const {
  const ir::Edge& edge = p_.edges[id];
  Branch n = b;
  selectFrame(n.c, t);
  std::vector<symbolic::Obligation> obls;
  ExprManager& em = *p_.exprs;
  // Process locations (P@L) are known in a configuration: they fold to constants.
  auto folded = [&](ExprRef e) { return abs_.foldLocations(e, n.c.pcs); };
  switch (edge.kind) {
    case ir::EdgeKind::Command: {
      ExprRef g = edge.guard ? sev_.eval(folded(edge.guard), n.c.st, obls).expr : em.trueExpr();
      if (!oblige(n, obls, id, ends)) return;
      if (g->isFalse()) return;
      if (!g->isTrue()) n.pc.push_back(g);
      bool ok = true;
      std::vector<ir::Assignment> as = edge.assigns;
      for (auto& a : as)
        if (a.rhs) a.rhs = folded(a.rhs);
      assign(n, as, !edge.sequential, id, ends, ok);
      if (!ok) return;
      break;
    }
    case ir::EdgeKind::Assert: {
      ExprRef c = sev_.eval(folded(edge.cond), n.c.st, obls).expr;
      if (!oblige(n, obls, id, ends)) return;
      if (tracked_[static_cast<size_t>(edge.errorKind)] && !c->isTrue()) {
        FragmentEnd e;
        e.kind = FragmentEnd::Kind::Error;
        e.post = n.c;
        e.pathCond = n.pc;
        e.pathCond.push_back(em.mkNot(c));
        e.edges = n.edges;
        e.edges.push_back(id);
        std::string what = edge.text.empty() ? "assertion" : "'" + edge.text + "'";
        e.error = exec::ExecError{edge.errorKind, edge.loc, what + " failed", false};
        ends.push_back(std::move(e));
      }
      if (c->isFalse()) return;
      if (!c->isTrue()) n.pc.push_back(c);
      break;
    }
    case ir::EdgeKind::Assumed:
      break;
    case ir::EdgeKind::Call: {
      const ir::Cfa& callee = p_.cfas[edge.callee];
      if (p_.isClosed() || callee.kind != ir::CfaKind::Proc)
        throw NotImplemented("fabrication across calls in processes, of methods or constructors");
      if (n.c.st.frames.size() >= kMaxStack)
        throw NotImplemented("fabrication with call stacks deeper than " +
                             std::to_string(kMaxStack) + " (recursion)");
      if (callee.usesOld) throw NotImplemented("fabrication of code that uses old()");
      std::vector<SymValue> args;
      for (ExprRef a : edge.args) args.push_back(sev_.eval(a, n.c.st, obls));
      if (!oblige(n, obls, id, ends)) return;
      symbolic::SymFrame f{edge.callee, callee.entry, {}, id, exec::kNoObject, nullptr};
      for (ir::VarId v : callee.locals) {
        const ir::Variable& var = p_.vars[v];
        if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
        f.locals[var.slot] = sev_.fromValue(exec::defaultValue(var.type), var.type);
      }
      for (size_t i = 0; i < callee.params.size() && i < args.size(); ++i) {
        const ir::Variable& var = p_.vars[callee.params[i]];
        f.locals[var.slot] = sev_.coerce(args[i], var.type);
      }
      n.c.st.frames.push_back(std::move(f));
      n.c.pcs.push_back(callee.entry);
      bool ok = true;
      assign(n, callee.entryInits, false, id, ends, ok);
      if (!ok) return;
      n.edges.push_back(id);
      next.push_back(std::move(n));
      return;
    }
    case ir::EdgeKind::Return: {
      if (p_.isClosed()) throw NotImplemented("fabrication across returns in processes");
      if (n.c.st.frames.size() == 1) {
        FragmentEnd e;
        e.kind = FragmentEnd::Kind::Terminated;
        e.post = std::move(n.c);
        e.pathCond = std::move(n.pc);
        e.edges = std::move(n.edges);
        e.edges.push_back(id);
        ends.push_back(std::move(e));
        return;
      }
      const ir::Cfa& cfa = p_.cfas[n.c.st.frames.back().cfa];
      std::optional<SymValue> result;
      if (cfa.resultVar != ir::kNone)
        result = n.c.st.frames.back().locals[p_.vars[cfa.resultVar].slot];
      const ir::Edge& call = p_.edges[n.c.st.frames.back().callEdge];
      n.c.st.frames.pop_back();
      n.c.pcs.pop_back();
      if (call.result && result) {
        symbolic::SymLvalue lv = sev_.lvalue(call.result, n.c.st, obls);
        if (!oblige(n, obls, id, ends)) return;
        sev_.store(n.c.st, lv, sev_.coerce(*result, call.result->type));
      }
      n.c.pcs.back() = call.to;
      n.c.st.frames.back().pc = call.to;
      n.edges.push_back(id);
      next.push_back(std::move(n));
      return;
    }
  }
  pcOf(n.c, t) = edge.to;
  if (!p_.isClosed()) n.c.st.frames.back().pc = edge.to;
  n.edges.push_back(id);
  next.push_back(std::move(n));
}

std::vector<FragmentEnd> FragmentBuilder::fragments(const SymConfig& pre) const {
  std::vector<FragmentEnd> ends;
  constexpr size_t kMaxBranches = 100000;
  size_t made = 0;
  const size_t threads = p_.isClosed() ? pre.pcs.size() : 1;
  for (size_t t = 0; t < threads; ++t) {
    std::vector<Branch> work{Branch{pre, {}, {}}};
    bool first = true;
    while (!work.empty()) {
      Branch b = std::move(work.back());
      work.pop_back();
      if (!first && isCutpoint(b.c.pcs)) {
        FragmentEnd e;
        e.kind = FragmentEnd::Kind::Cutpoint;
        e.post = std::move(b.c);
        e.pathCond = std::move(b.pc);
        e.edges = std::move(b.edges);
        ends.push_back(std::move(e));
        continue;
      }
      std::vector<Branch> next;
      for (ir::EdgeId id : p_.locs[pcOf(b.c, t)].out) step(b, t, id, next, ends);
      first = false;
      made += next.size();
      if (made > kMaxBranches)
        throw NotImplemented("fragments with more than 100000 paths between cutpoints");
      for (Branch& n : next) work.push_back(std::move(n));
    }
  }
  return ends;
}

}  // namespace tandem::fabricate
