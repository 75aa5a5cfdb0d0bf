// Frames, mirroring the reference evaluator (mc/exec/frames.cpp, initial_state.cpp): the initial
// state (of a procedure, a class initialiser or a closed system), the frames of calls and of
// `new C(...)`, returns, and the method calls of the class analysis.
#include <optional>

#include "mc/symbolic/transfer_ctx.h"

namespace tandem::symbolic {

namespace {

// `push` for the method `C.push`.
std::string shortName(const std::string& name) {
  auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

SymFrame Transfer::makeFrame(ir::CfaId cfa, exec::ObjectId self, ir::EdgeId callEdge) const {
  const ir::Cfa& c = p_.cfas[cfa];
  SymFrame f{cfa, c.entry, {}, callEdge, self, nullptr};
  for (ir::VarId v : c.locals) {
    const ir::Variable& var = p_.vars[v];
    if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
    f.locals[var.slot] = ev_.defaultOf(var.type);
  }
  return f;
}

ir::EdgeId Transfer::callEdgeAt(ir::LocId site, ir::CfaId callee) const {
  ir::EdgeId found = ir::kNone;
  for (ir::EdgeId e : p_.locs[site].out)
    if (p_.edges[e].kind == ir::EdgeKind::Call && p_.edges[e].callee == callee) found = e;
  return found;
}

std::shared_ptr<const SymSnapshot> Transfer::snapshot(const SymState& s) const {
  return std::make_shared<const SymSnapshot>(SymSnapshot{s.globals, s.heap});
}

exec::ObjectId Transfer::allocate(SymState& s, uint32_t classIndex) const {
  SymObject obj{classIndex, {}};
  for (ir::VarId id : p_.classes[classIndex].fields) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= obj.fields.size()) obj.fields.resize(v.slot + 1);
    obj.fields[v.slot] = ev_.defaultOf(v.type);
  }
  s.heap.push_back(std::move(obj));
  return static_cast<exec::ObjectId>(s.heap.size() - 1);
}

bool Transfer::initGlobals(Ctx& c) const {
  SymState& s = c.s;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= s.globals.size()) s.globals.resize(v.slot + 1);
    s.globals[v.slot] = ev_.defaultOf(v.type);
  }
  const std::vector<std::vector<size_t>> due = p_.initSchedule();
  assumeInits(c, due[0]);
  for (size_t i = 0; i < p_.globals.size(); ++i) {
    const ir::Variable& v = p_.vars[p_.globals[i]];
    if (!v.init || v.init->op == Op::Star) {
      s.globals[v.slot] = c.policy.input(s, InputKind::Global, v.type, v.name);
    } else {
      std::vector<Obligation> obls;
      SymValue x = ev_.coerce(eval(c, v.init, obls), v.type);
      if (!require(c, obls, ir::kNone, v.loc)) return false;
      s.globals[v.slot] = std::move(x);
    }
    assumeInits(c, due[i + 1]);
  }
  return true;
}

void Transfer::assumeInits(Ctx& c, const std::vector<size_t>& which) const {
  // An `init` that cannot be evaluated excludes the inputs, as in the reference evaluator.
  std::vector<Obligation> obls;
  for (size_t k : which) {
    SymValue b = eval(c, p_.inits[k], obls);
    if (!b.expr->isTrue()) c.s.pathCond.push_back(b.expr);
  }
  for (const Obligation& ob : obls)
    if (!ob.ok->isTrue()) c.s.pathCond.push_back(ob.ok);
}

bool Transfer::initThreads(Ctx& c) const {
  SymState& s = c.s;
  for (ir::CfaId p : p_.processes) {
    const ir::Cfa& cfa = p_.cfas[p];
    for (uint32_t i = 0; i < cfa.instances; ++i) {
      s.thread = static_cast<exec::ThreadId>(s.threads.size());
      s.threads.push_back(SymThread{p, i, {}});
      std::vector<SymValue>& locals = s.threads.back().locals;
      for (ir::VarId id : cfa.processLocals) {
        const ir::Variable& v = p_.vars[id];
        if (v.slot >= locals.size()) locals.resize(v.slot + 1);
        locals[v.slot] = ev_.defaultOf(v.type);
      }
      // Initialisers may read `pid`, globals and the process's earlier locals.
      for (ir::VarId id : cfa.processLocals) {
        const ir::Variable& v = p_.vars[id];
        if (!v.init) continue;
        std::vector<Obligation> obls;
        SymValue x = ev_.coerce(eval(c, v.init, obls), v.type);
        if (!require(c, obls, ir::kNone, v.loc)) return false;
        s.threads[s.thread].locals[v.slot] = std::move(x);
      }
    }
  }
  if (p_.rules != ir::kNone) s.threads.push_back(SymThread{p_.rules, 0, {}});
  s.thread = 0;
  return true;
}

bool Transfer::enter(SymState& s, ir::CfaId entry, TransferPolicy& policy) const {
  const Mover none;
  Ctx c{s, none, policy};
  if (!initGlobals(c)) return false;
  if (p_.isClosed() && !initThreads(c)) return false;
  if (!s.pathCond.empty() && !policy.feasible(s)) return false;
  if (entry == ir::kNone) return true;
  std::vector<SymValue> args;
  for (ir::VarId id : p_.cfas[entry].params) {
    const ir::Variable& v = p_.vars[id];
    args.push_back(policy.input(s, InputKind::Param, v.type, v.name));
  }
  return pushFrame(c, entry, std::move(args), exec::kNoObject, ir::kNone, ir::kNone);
}

bool Transfer::pushFrame(Ctx& c, ir::CfaId cfa, std::vector<SymValue> args, exec::ObjectId self,
                         ir::EdgeId callEdge, ir::EdgeId at) const {
  const ir::Cfa& callee = p_.cfas[cfa];
  if (callee.kind == ir::CfaKind::ClassInit) self = allocate(c.s, callee.classIndex);
  SymFrame f = makeFrame(cfa, self, callEdge);
  for (size_t i = 0; i < callee.params.size() && i < args.size(); ++i) {
    const ir::Variable& var = p_.vars[callee.params[i]];
    f.locals[var.slot] = ev_.coerce(std::move(args[i]), var.type);
  }
  if (callee.usesOld) f.old = snapshot(c.s);
  c.s.frames.push_back(std::move(f));
  if (callee.kind == ir::CfaKind::ClassInit) {
    if (!initFields(c, at)) return false;
    if (callee.usesOld) c.s.top().old = snapshot(c.s);  // old() in init sees the initialised fields
  }
  return runAssignments(c, callee.entryInits, false, at);
}

bool Transfer::initFields(Ctx& c, ir::EdgeId at) const {
  const exec::ObjectId self = c.s.top().self;
  // In order, with `this` (and the fields before) in scope.
  for (ir::VarId fid : p_.classes[c.s.heap[self].classIndex].fields) {
    const ir::Variable& v = p_.vars[fid];
    if (!v.init) continue;
    std::vector<Obligation> obls;
    SymValue value = ev_.coerce(eval(c, v.init, obls), v.type);
    if (!require(c, obls, at, v.loc)) return false;
    c.s.heap[self].fields[v.slot] = std::move(value);
  }
  return true;
}

bool Transfer::call(Ctx& c, const ir::Edge& edge, ir::EdgeId id) const {
  const ir::Cfa& callee = p_.cfas[edge.callee];
  c.policy.calling(c.s, callee);
  std::vector<Obligation> obls;
  std::vector<SymValue> args;
  for (ExprRef a : edge.args) args.push_back(eval(c, a, obls));
  if (!require(c, obls, id)) return false;
  if (c.policy.summarise(c.s, id, args)) return false;  // the policy hands on the successors
  return enterCallee(c, edge, id, std::move(args));
}

bool Transfer::enterCall(SymState& s, ir::EdgeId id, std::vector<SymValue> args,
                         TransferPolicy& policy) const {
  const Mover none;
  Ctx c{s, none, policy};
  return enterCallee(c, p_.edges[id], id, std::move(args));
}

bool Transfer::enterCallee(Ctx& c, const ir::Edge& edge, ir::EdgeId id,
                           std::vector<SymValue> args) const {
  const ir::Cfa& callee = p_.cfas[edge.callee];
  if (callee.kind == ir::CfaKind::Process || callee.kind == ir::CfaKind::Rules)
    throw NotImplemented("calls of processes");
  c.s.top().pc = edge.from;  // the caller stays at the call site until the callee returns
  exec::ObjectId self = exec::kNoObject;
  const SymFrame& caller = c.s.top();
  if (callee.kind == ir::CfaKind::Method && caller.self != exec::kNoObject &&
      p_.cfas[caller.cfa].classIndex == callee.classIndex)
    self = caller.self;  // a method called from its class runs on the same object
  return pushFrame(c, edge.callee, std::move(args), self, id, id);
}

bool Transfer::returnToCaller(Ctx& c, ir::EdgeId id) const {
  SymState& s = c.s;
  const SymFrame& top = s.top();
  const ir::Cfa& cfa = p_.cfas[top.cfa];
  std::optional<SymValue> result;
  if (cfa.kind == ir::CfaKind::ClassInit)
    result = SymValue::objectRef(top.self);  // `new C(...)` yields the object
  else if (cfa.resultVar != ir::kNone)
    result = top.locals[p_.vars[cfa.resultVar].slot];
  const ir::Edge& call = p_.edges[top.callEdge];
  s.frames.pop_back();
  return receiveResult(c, call, result, id);
}

bool Transfer::receiveResult(Ctx& c, const ir::Edge& call, const std::optional<SymValue>& result,
                             ir::EdgeId at) const {
  if (call.result && result) {
    std::vector<Obligation> obls;
    SymLvalue lv = lvalue(c, call.result, obls);
    if (!require(c, obls, at)) return false;
    ev_.store(c.s, lv, ev_.coerce(*result, call.result->type));
  }
  c.s.top().pc = call.to;
  return true;
}

void Transfer::skipCall(SymState s, ir::EdgeId id, const std::optional<SymValue>& result,
                        TransferPolicy& policy) const {
  const Mover none;
  Ctx c{s, none, policy};
  if (!receiveResult(c, p_.edges[id], result, id)) return;
  s.pathCondAt.resize(s.pathCond.size(), static_cast<uint32_t>(s.path.size()));
  s.path.push_back(id);
  ++s.depth;
  policy.successor(std::move(s), id);
}

bool Transfer::callMethod(SymState& s, ir::CfaId method, exec::ObjectId self, ir::EdgeId at,
                          TransferPolicy& policy) const {
  const Mover none;
  Ctx c{s, none, policy};
  const ir::Cfa& cfa = p_.cfas[method];
  s.frames.clear();
  const std::string prefix = shortName(cfa.name) + ".";
  std::vector<SymValue> args;
  for (ir::VarId id : cfa.params) {
    const ir::Variable& v = p_.vars[id];
    args.push_back(policy.input(s, InputKind::MethodArg, v.type, prefix + v.name));
  }
  return pushFrame(c, method, std::move(args), self, ir::kNone, at);
}

}  // namespace tandem::symbolic
