#include "mc/symbolic/fragments.h"

#include <set>

#include "mc/exec/system.h"
#include "mc/ir/edge_exprs.h"

namespace tandem::symbolic {

FragmentBuilder::FragmentBuilder(const ir::Program& p, const SymEvaluator& sev,
                                 std::vector<bool> cutpoints,
                                 std::array<bool, ir::kErrorKinds> tracked, uint32_t classIndex)
    : p_(p), sev_(sev), transfer_(sev, tracked), cut_(std::move(cutpoints)), class_(classIndex) {
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
    return cut_[pcs.back()] && !exec::keepsTurnAt(p_, pcs.back()) &&
           !(pcs.size() > 1 && top.isExit);
  }
  for (ir::LocId l : pcs)
    if (!cut_[l] || exec::keepsTurnAt(p_, l)) return false;
  return true;
}

bool FragmentBuilder::isAbstractionPoint(const std::vector<ir::LocId>& pcs) const {
  if (!p_.isClosed()) return isCutpoint(pcs);
  for (ir::LocId l : pcs)
    if (!cut_[l]) return false;
  return true;
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
    for (ir::VarId v : ir::addressTaken(p_, cfa)) {
      const ir::Variable& var = p_.vars[v];
      if (var.type != refType->elem) continue;
      if (var.scope == ir::VarScope::Global)
        globalsTaken.insert(v);
      else if (var.scope == ir::VarScope::Local && var.owner == cfa)
        out.push_back(SymValue::ref(SymAddress{
            exec::AddressBase::Local, static_cast<uint32_t>(d), exec::kNoObject, var.slot, {}}));
    }
  }
  for (ir::VarId v : globalsTaken)
    out.push_back(SymValue::ref(
        SymAddress{exec::AddressBase::Global, 0, exec::kNoObject, p_.vars[v].slot, {}}));
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
  if (class_ != ir::kNone) base.st.heap.push_back(freshObject(base.st.pathCond));
  if (p_.isClosed()) {
    base.st.threads = freshThreads(base.st.pathCond);
    return {base};
  }
  std::vector<SymConfig> out{base};
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::vector<SymValue>>> refs;
  for (size_t depth = 0; depth < pcs.size(); ++depth) {
    const ir::CfaId cfa = p_.locs[pcs[depth]].cfa;
    ir::EdgeId callEdge = ir::kNone;
    if (depth > 0) {  // the caller waits at its call site
      callEdge = transfer_.callEdgeAt(pcs[depth - 1], cfa);
      if (callEdge == ir::kNone) throw NotImplemented("a call stack without its call edge");
    }
    const bool ofClass = class_ != ir::kNone && p_.cfas[cfa].classIndex == class_;
    SymFrame f = transfer_.makeFrame(cfa, ofClass ? 0 : exec::kNoObject, callEdge);
    f.pc = pcs[depth];
    if (p_.cfas[cfa].usesOld) f.old = oldSnapshot(out[0], pcs[depth]);
    for (ir::VarId id : p_.cfas[cfa].locals) {
      const ir::Variable& v = p_.vars[id];
      if (v.type->kind == TypeKind::Class)
        throw NotImplemented("fabricating local variables that hold objects");
      if (v.type->kind == TypeKind::Ref) {
        refs.push_back({{static_cast<uint32_t>(depth), v.slot}, refCandidates(v.type, pcs, depth)});
        f.locals[v.slot] = SymValue::nullRef();
      } else {
        f.locals[v.slot] = freshValue(v.type, v.name);
        if (f.locals[v.slot].isSymbolicArray())
          out[0].st.pathCond.push_back(nonNegative(f.locals[v.slot].length));
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

std::shared_ptr<const SymSnapshot> FragmentBuilder::oldSnapshot(SymConfig& c, ir::LocId pc) const {
  if (class_ != ir::kNone || !c.st.heap.empty())
    throw NotImplemented("fabricating states of methods that use old()");
  // At a procedure's entry, when nothing leads back to it, old() is the globals themselves;
  // anywhere else their values on entry are unknown: fresh symbols, which the abstraction's
  // predicates over old() relate to the globals.
  bool reentered = false;
  for (const ir::Edge& e : p_.edges) reentered = reentered || e.to == pc;
  if (pc == p_.cfas[p_.locs[pc].cfa].entry && !reentered)
    return std::make_shared<const SymSnapshot>(SymSnapshot{c.st.globals, {}});
  SymSnapshot old;
  old.globals.resize(c.st.globals.size());
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    old.globals[v.slot] = freshValue(v.type, "old_" + v.name);
    if (old.globals[v.slot].isSymbolicArray())
      c.st.pathCond.push_back(nonNegative(old.globals[v.slot].length));
  }
  return std::make_shared<const SymSnapshot>(std::move(old));
}

ExprRef FragmentBuilder::nonNegative(ExprRef length) const {
  ExprManager& em = *p_.exprs;
  return em.mk(Op::Ge, em.types().boolType(), {length, em.intConst(BigInt(0))});
}

SymObject FragmentBuilder::freshObject(std::vector<ExprRef>& facts) const {
  const ir::ClassInfo& cls = p_.classes[class_];
  SymObject obj{class_, {}};
  for (ir::VarId id : cls.fields) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= obj.fields.size()) obj.fields.resize(v.slot + 1);
    if (v.type->kind == TypeKind::Ref || v.type->kind == TypeKind::Class)
      throw NotImplemented("fabricating objects whose fields are references or objects");
    obj.fields[v.slot] = freshValue(v.type, cls.name + "." + v.name);
    if (obj.fields[v.slot].isSymbolicArray())
      facts.push_back(nonNegative(obj.fields[v.slot].length));
  }
  return obj;
}

// The transfer relation's policy for the fragments out of one configuration (of `pcs`, thread
// `thread` moving): no solver (a path ends only where its condition is constant false), errors
// become Error ends, inputs are fresh symbols, the evaluator's limits are assumed (execution
// cannot go past them, and a fabricated state must be one it can run).
class FragmentBuilder::Policy final : public TransferPolicy {
 public:
  Policy(const FragmentBuilder& b, const std::vector<ir::LocId>& pcs, size_t thread,
         std::vector<SymConfig>& next, std::vector<FragmentEnd>& ends)
      : b_(b), p_(b.p_), pcs_(pcs), thread_(thread), next_(next), ends_(ends) {}

  bool feasible(SymState&) override { return true; }

  void fail(const SymState& s, ExprRef bad, const exec::ExecError& error, ir::EdgeId id) override {
    FragmentEnd e = end(FragmentEnd::Kind::Error, config(s));
    e.pathCond.push_back(bad);
    if (id != ir::kNone) e.edges.push_back(id);
    e.error = error;
    ends_.push_back(std::move(e));
  }

  SymValue input(SymState& s, InputKind kind, TypeRef t, const std::string& name) override {
    if (kind != InputKind::MethodArg) return b_.freshValue(t, name);
    if (t->kind == TypeKind::Ref || t->kind == TypeKind::Class)
      throw NotImplemented("method parameters that are references or objects");
    SymValue v = b_.freshValue(t, name);
    if (v.isSymbolicArray()) s.pathCond.push_back(b_.nonNegative(v.length));
    return v;
  }

  void successor(SymState&& s, ir::EdgeId) override {
    SymConfig c = config(std::move(s));
    if (p_.isClosed()) c.turn = exec::turnAfterAt(p_, thread_, c.pcs[thread_], false);
    next_.push_back(std::move(c));
  }

  void synced(SymState&& s, ir::EdgeId, exec::ThreadId u, ir::EdgeId recvId) override {
    SymConfig c = config(std::move(s));  // a rendezvous gives nobody the turn
    c.pcs[u] = p_.edges[recvId].to;
    next_.push_back(std::move(c));
  }

  void returned(const SymState& s, ir::EdgeId id) override {
    if (p_.isClosed()) throw NotImplemented("fabrication across returns in processes");
    if (b_.class_ != ir::kNone && s.frames.back().self != exec::kNoObject) {
      callMethods(s, id);
      return;
    }
    FragmentEnd e = end(FragmentEnd::Kind::Terminated, config(s));
    e.edges.push_back(id);
    ends_.push_back(std::move(e));
  }

  void calling(const SymState& s, const ir::Cfa& callee) override {
    if (p_.isClosed() || callee.kind != ir::CfaKind::Proc)
      throw NotImplemented("fabrication across calls in processes, of methods or constructors");
    if (s.frames.size() >= kMaxStack)
      throw NotImplemented("fabrication with call stacks deeper than " + std::to_string(kMaxStack) +
                           " (recursion)");
    if (callee.usesOld) throw NotImplemented("fabrication of code that uses old()");
  }

  void limit(SymState& s, ExprRef within) override { s.pathCond.push_back(within); }

  // A fragment's end; its condition and edges are the path's, not the post-state's.
  static FragmentEnd end(FragmentEnd::Kind kind, SymConfig c) {
    FragmentEnd e;
    e.kind = kind;
    e.pathCond = std::move(c.st.pathCond);
    e.edges = std::move(c.st.path);
    c.st.pathCond.clear();
    c.st.path.clear();
    e.post = std::move(c);
    return e;
  }

 private:
  // `s` with every thread's location: open systems, its call stack; closed systems, the moving
  // thread's from its frame.
  SymConfig config(SymState s) const {
    SymConfig c{std::move(s), {}};
    if (p_.isClosed()) {
      c.pcs = pcs_;
      if (!c.st.frames.empty()) c.pcs[thread_] = c.st.top().pc;
    } else {
      for (const SymFrame& f : c.st.frames) c.pcs.push_back(f.pc);
    }
    return c;
  }

  // Class analysis: init or a method returned; the object gets a call of every method.
  void callMethods(const SymState& s, ir::EdgeId ret) {
    const exec::ObjectId self = s.frames.back().self;
    for (ir::CfaId m : p_.classes[b_.class_].methods) {
      if (p_.cfas[m].usesOld) throw NotImplemented("fabrication of code that uses old()");
      SymState n = s;
      if (!b_.transfer_.callMethod(n, m, self, ret, *this)) continue;
      n.path.push_back(ret);
      next_.push_back(config(std::move(n)));
    }
  }

  const FragmentBuilder& b_;
  const ir::Program& p_;
  const std::vector<ir::LocId>& pcs_;
  size_t thread_;
  std::vector<SymConfig>& next_;
  std::vector<FragmentEnd>& ends_;
};

std::vector<SymThread> FragmentBuilder::freshThreads(std::vector<ExprRef>& facts) const {
  std::vector<SymThread> out;
  std::vector<uint32_t> instance(p_.cfas.size(), 0);
  for (ir::CfaId c : threadCfa_) {
    const ir::Cfa& cfa = p_.cfas[c];
    // A process's frame variables (not its process locals) live only during one step: the
    // fragments between cutpoints would lose them.
    if (!cfa.locals.empty())
      throw NotImplemented("fabricating frame variables of processes (" + cfa.name + ")");
    SymThread th{c, instance[c]++, {}};
    const std::string prefix =
        cfa.name + (cfa.instances > 1 ? "[" + std::to_string(th.instance) + "]" : "") + ".";
    for (ir::VarId id : cfa.processLocals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot >= th.locals.size()) th.locals.resize(v.slot + 1);
      if (v.type->kind == TypeKind::Ref || v.type->kind == TypeKind::Class)
        throw NotImplemented("fabricating process-local references or objects");
      th.locals[v.slot] = freshValue(v.type, prefix + v.name);
      if (th.locals[v.slot].isSymbolicArray())
        facts.push_back(nonNegative(th.locals[v.slot].length));
    }
    out.push_back(std::move(th));
  }
  return out;
}

SymConfig FragmentBuilder::initialConfig(ir::CfaId entry, std::vector<ExprRef>& initCond,
                                         std::vector<FragmentEnd>* errors) const {
  SymConfig c;
  // The initial condition assumes the initialisers succeed; their errors go to `errors`.
  std::vector<SymConfig> none;
  std::vector<FragmentEnd> failing;
  Policy policy(*this, c.pcs, 0, none, failing);
  const bool ok = transfer_.enter(c.st, p_.isClosed() ? ir::kNone : entry, policy);
  if (p_.isClosed()) {
    for (ir::CfaId t : threadCfa_) c.pcs.push_back(p_.cfas[t].entry);
  } else {
    for (const SymFrame& f : c.st.frames) c.pcs.push_back(f.pc);
  }
  initCond.insert(initCond.end(), c.st.pathCond.begin(), c.st.pathCond.end());
  c.st.pathCond.clear();
  if (!ok) initCond.push_back(p_.exprs->falseExpr());
  if (errors)
    for (FragmentEnd& e : failing)
      if (e.kind == FragmentEnd::Kind::Error) errors->push_back(std::move(e));
  return c;
}

SymState FragmentBuilder::threadState(const SymConfig& c, size_t t) const {
  SymState s = c.st;
  if (p_.isClosed()) {  // processes have no frame variables here (prestates refuses them)
    SymFrame f = transfer_.makeFrame(threadCfa_[t], exec::kNoObject, ir::kNone);
    f.pc = c.pcs[t];
    s.frames.assign(1, std::move(f));
    s.thread = static_cast<exec::ThreadId>(t);
  }
  return s;
}

// The condition under which thread `t` takes some step from `from` (or fails trying): the
// disjunction, over what its steps from `from` produced (successors in `next`, error ends from
// `ends[firstEnd]` on), of the conditions each added to `from`'s path condition.
ExprRef FragmentBuilder::moved(const SymConfig& from, const std::vector<SymConfig>& next,
                               const std::vector<FragmentEnd>& ends, size_t firstEnd) const {
  ExprManager& em = *p_.exprs;
  const size_t prefix = from.st.pathCond.size();
  ExprRef any = em.falseExpr();
  auto add = [&](const std::vector<ExprRef>& cond) {
    std::vector<ExprRef> rest(cond.begin() + static_cast<std::ptrdiff_t>(prefix), cond.end());
    any = em.mkOr(any, em.mkAnd(std::span<const ExprRef>(rest)));
  };
  for (const SymConfig& n : next) add(n.st.pathCond);
  for (size_t e = firstEnd; e < ends.size(); ++e) add(ends[e].pathCond);
  return any;
}

void FragmentBuilder::stepThread(const SymConfig& b, size_t t, Policy& policy) const {
  const bool closed = p_.isClosed();
  const auto tid = static_cast<exec::ThreadId>(t);
  const Mover mover{tid, closed ? std::span<const ir::LocId>(b.pcs) : std::span<const ir::LocId>()};
  const ir::LocId at = closed ? b.pcs[t] : b.pcs.back();
  for (ir::EdgeId id : p_.locs[at].out)
    if (p_.edges[id].kind == ir::EdgeKind::Sync && exec::keepsTurnAt(p_, at))
      throw NotImplemented("a rendezvous inside an atomic block");
  // The moves of exec::System (system.h), enumerated by the same rule over locations; the
  // transfer relation takes them (guards become path conditions).
  exec::forEachMoveOf(
      p_, b.pcs.size(), [&](exec::ThreadId u) { return b.pcs[u]; }, tid, at,
      [&](ir::EdgeId id) { transfer_.step(threadState(b, t), mover, id, policy); },
      [&](ir::EdgeId id, exec::ThreadId u, ir::EdgeId rid) {
        // The fragment goes on with the sender; a receiver inside an atomic block would have to
        // move first.
        if (exec::keepsTurnAt(p_, p_.edges[rid].to))
          throw NotImplemented("a rendezvous whose receiver enters an atomic block");
        transfer_.stepSync(threadState(b, t), mover, id, u, rid, policy);
      });
}

std::vector<FragmentEnd> FragmentBuilder::fragments(const SymConfig& pre) const {
  std::vector<FragmentEnd> ends;
  constexpr size_t kMaxBranches = 100000;
  size_t made = 0;
  const bool closed = p_.isClosed();
  const size_t threads = closed ? pre.pcs.size() : 1;
  ExprManager& em = *p_.exprs;
  // Deadlocks of closed systems: the prestate where no thread moves, unless all are at a valid
  // end (LANGUAGE.md, Semantics).
  const bool deadlocks =
      closed && transfer_.tracks(ir::ErrorKind::Deadlock) && !exec::allAtValidEnd(p_, pre.pcs);
  std::vector<ExprRef> stuck;
  // The prestate's facts stay with it: a fragment's condition and edges are its path's.
  SymConfig start = pre;
  start.st.pathCond.clear();
  start.st.path.clear();
  for (size_t t = 0; t < threads; ++t) {
    const size_t before = ends.size();
    std::vector<SymConfig> work{start};
    bool first = true;
    while (!work.empty()) {
      SymConfig b = std::move(work.back());
      work.pop_back();
      // Another thread may be inside an atomic block, where it was blocked: it no longer holds
      // the others back (isAbstractionPoint).
      if (!first && (closed ? isAbstractionPoint(b.pcs) && b.turn != t : isCutpoint(b.pcs))) {
        ends.push_back(Policy::end(FragmentEnd::Kind::Cutpoint, std::move(b)));
        continue;
      }
      std::vector<SymConfig> next;
      const size_t endsBefore = ends.size();
      Policy policy(*this, b.pcs, t, next, ends);
      stepThread(b, t, policy);
      if (closed && (first || b.turn == t)) {
        ExprRef moves = moved(b, next, ends, endsBefore);
        if (first && deadlocks) stuck.push_back(em.mkNot(moves));
        // Blocked inside an atomic block, the thread lets the others move (as SPIN): the state is
        // a meeting point like a cutpoint (isAbstractionPoint).
        if (!first && !moves->isTrue() && isAbstractionPoint(b.pcs)) {
          SymConfig blocked = b;
          blocked.turn = exec::kNoThread;
          blocked.st.pathCond.push_back(em.mkNot(moves));
          ends.push_back(Policy::end(FragmentEnd::Kind::Cutpoint, std::move(blocked)));
        }
      }
      first = false;
      made += next.size();
      if (made > kMaxBranches)
        throw NotImplemented("fragments with more than 100000 paths between cutpoints");
      for (SymConfig& n : next) work.push_back(std::move(n));
    }
    for (size_t e = before; e < ends.size(); ++e) ends[e].thread = static_cast<uint32_t>(t);
  }
  if (deadlocks) {
    SymConfig at = start;
    at.st.pathCond = {em.mkAnd(std::span<const ExprRef>(stuck))};
    FragmentEnd e = Policy::end(FragmentEnd::Kind::Error, std::move(at));
    e.error = exec::ExecError{ir::ErrorKind::Deadlock, SourceLoc{}, "no process can move", false};
    if (!e.pathCond[0]->isFalse()) ends.push_back(std::move(e));
  }
  return ends;
}

}  // namespace tandem::symbolic
