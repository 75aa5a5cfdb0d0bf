// Symbolic states and frames, mirroring the reference evaluator (mc/exec/frames.cpp,
// initial_state.cpp): the entry state (of a procedure or of a class initialiser), the frames of
// calls and of `new C(...)`, and the method calls of the class analysis.
#include "mc/symbolic/explorer_impl.h"

namespace tandem::symbolic {

namespace {

// `push` for the method `C.push`.
std::string shortName(const std::string& name) {
  auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

SymValue Explorer::input(SymState& s, TypeRef t, const std::string& name, ExprRef& symbol,
                         std::optional<std::pair<SymbolPool::Input, size_t>> pooled) {
  const bool scalar =
      t && (t->isIntegral() || t->kind == TypeKind::Bool || t->kind == TypeKind::Enum);
  if (symbols_ && pooled && scalar) {  // DART: the same symbols in every run
    symbol = symbols_->symbol(pooled->first, pooled->second, name, t);
    return SymValue::scalar(symbol);
  }
  SymValue v = ev_.freshInput(t, name, symbol);
  // A replay cannot build a longer array than the reference evaluator allows.
  if (v.isSymbolicArray() && !v.length->isConst())
    s.limits.push_back(ev_.mk(Op::Le, em_.types().boolType(),
                              {v.length, em_.intConst(BigInt(concrete_.limits().maxArrayLength))}));
  return v;
}

SymFrame Explorer::makeFrame(ir::CfaId cfa, exec::ObjectId self, ir::EdgeId callEdge) const {
  const ir::Cfa& c = p_.cfas[cfa];
  SymFrame f{cfa, c.entry, {}, callEdge, self, nullptr};
  for (ir::VarId v : c.locals) {
    const ir::Variable& var = p_.vars[v];
    if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
    f.locals[var.slot] = ev_.defaultOf(var.type);
  }
  return f;
}

std::shared_ptr<const SymSnapshot> Explorer::snapshot(const SymState& s) const {
  return std::make_shared<const SymSnapshot>(SymSnapshot{s.globals, s.heap});
}

exec::ObjectId Explorer::allocate(SymState& s, uint32_t classIndex) const {
  SymObject obj{classIndex, {}};
  for (ir::VarId id : p_.classes[classIndex].fields) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= obj.fields.size()) obj.fields.resize(v.slot + 1);
    obj.fields[v.slot] = ev_.defaultOf(v.type);
  }
  s.heap.push_back(std::move(obj));
  return static_cast<exec::ObjectId>(s.heap.size() - 1);
}

bool Explorer::initFields(SymState& s, ir::EdgeId id) {
  const exec::ObjectId self = s.top().self;
  // In order, with `this` (and the fields before) in scope.
  for (ir::VarId fid : p_.classes[s.heap[self].classIndex].fields) {
    const ir::Variable& v = p_.vars[fid];
    if (!v.init) continue;
    std::vector<Obligation> obls;
    SymValue value = ev_.coerce(ev_.eval(v.init, s, obls), v.type);
    if (!require(s, obls, id) || stop_) return false;
    s.heap[self].fields[v.slot] = std::move(value);
  }
  return true;
}

void Explorer::initGlobals(SymState& s) {
  std::vector<Obligation> obls;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= s.globals.size()) s.globals.resize(v.slot + 1);
    s.globals[v.slot] = ev_.defaultOf(v.type);
  }
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (!v.init || v.init->op == Op::Star) {
      ExprRef sym = nullptr;
      s.globals[v.slot] =
          input(s, v.type, v.name, sym, {{SymbolPool::Input::Global, globalSyms_.size()}});
      globalSyms_.emplace_back(v.name, sym);
    } else {
      s.globals[v.slot] = ev_.coerce(eval(s, v.init, obls), v.type);
    }
  }
  for (const Obligation& ob : obls)
    if (!ob.ok->isTrue()) s.pathCond.push_back(ob.ok);
}

std::unique_ptr<SymState> Explorer::entryState() {
  auto s = std::make_unique<SymState>();
  initGlobals(*s);
  const ir::Cfa& cfa = p_.cfas[o_.entry];
  if (classMode_) self_ = allocate(*s, classIndex_);
  SymFrame f = makeFrame(o_.entry, self_, ir::kNone);
  for (ir::VarId id : cfa.params) {
    const ir::Variable& v = p_.vars[id];
    ExprRef sym = nullptr;
    f.locals[v.slot] =
        input(*s, v.type, v.name, sym, {{SymbolPool::Input::Param, paramSyms_.size()}});
    paramSyms_.push_back(sym);
  }
  s->frames.push_back(std::move(f));
  std::vector<Obligation> obls;
  for (ExprRef init : p_.inits) {
    SymValue b = eval(*s, init, obls);
    if (!b.expr->isTrue()) s->pathCond.push_back(b.expr);
  }
  for (const Obligation& ob : obls)
    if (!ob.ok->isTrue()) s->pathCond.push_back(ob.ok);
  if (!s->pathCond.empty()) {
    PcAnswer a = check(s->pathCond, nullptr);
    if (!a.isSat()) return nullptr;
    s->certificate = a.certificate;
  }
  if (classMode_ && !initFields(*s, ir::kNone)) return nullptr;
  if (cfa.usesOld) s->top().old = snapshot(*s);
  if (!runAssignments(*s, cfa.entryInits, false, ir::kNone)) return nullptr;
  s->pathCondAt.assign(s->pathCond.size(), 0);
  return s;
}

bool Explorer::pushCall(SymState& n, const ir::Edge& edge, ir::EdgeId id,
                        std::vector<SymValue> args) {
  const ir::Cfa& callee = p_.cfas[edge.callee];
  if (callee.kind == ir::CfaKind::Process || callee.kind == ir::CfaKind::Rules)
    throw NotImplemented("calls of processes");
  n.top().pc = edge.from;  // stays at the call site until the callee returns
  exec::ObjectId self = exec::kNoObject;
  const SymFrame& caller = n.top();
  if (callee.kind == ir::CfaKind::ClassInit) {
    self = allocate(n, callee.classIndex);
  } else if (callee.kind == ir::CfaKind::Method && caller.self != exec::kNoObject &&
             p_.cfas[caller.cfa].classIndex == callee.classIndex) {
    self = caller.self;  // a method called from its class runs on the same object
  }
  SymFrame f = makeFrame(edge.callee, self, id);
  for (size_t i = 0; i < callee.params.size() && i < args.size(); ++i) {
    const ir::Variable& var = p_.vars[callee.params[i]];
    f.locals[var.slot] = ev_.coerce(std::move(args[i]), var.type);
  }
  if (callee.usesOld) f.old = snapshot(n);
  n.frames.push_back(std::move(f));
  if (callee.kind == ir::CfaKind::ClassInit) {
    if (!initFields(n, id)) return false;
    if (callee.usesOld) n.top().old = snapshot(n);  // old() in init sees the initialised fields
  }
  return runAssignments(n, callee.entryInits, false, id);
}

// Lvalues and right-hand sides in the pre-state, then the havocs in order, then the stores.
bool Explorer::runAssignments(SymState& n, const std::vector<ir::Assignment>& as, bool parallel,
                              ir::EdgeId id) {
  struct Pending {
    SymLvalue lv;
    std::optional<SymValue> value;
    TypeRef type;
  };
  std::vector<Pending> pending;
  std::vector<Obligation> obls;
  auto finish = [&] {
    if (!obls.empty()) {
      if (!require(n, obls, id) || stop_) return false;
      obls.clear();
    }
    for (Pending& pd : pending) {
      if (!pd.value) {
        ExprRef sym = nullptr;
        pd.value = input(n, pd.type, "havoc", sym, {{SymbolPool::Input::Havoc, n.havocs.size()}});
        n.havocs.push_back(sym);
      }
    }
    for (Pending& pd : pending) ev_.store(n, pd.lv, std::move(*pd.value));
    pending.clear();
    return true;
  };
  for (const ir::Assignment& a : as) {
    Pending pd{lvalue(n, a.lhs, obls), std::nullopt, a.lhs->type};
    if (a.rhs && a.rhs->op != Op::Star) pd.value = ev_.coerce(eval(n, a.rhs, obls), a.lhs->type);
    pending.push_back(std::move(pd));
    if (!parallel && !finish()) return false;
  }
  return finish();
}

void Explorer::methodBoundary(const SymState& s) {
  const ir::ClassInfo& cls = p_.classes[classIndex_];
  if (cls.methods.empty()) {  // nothing can happen after init
    endPath(s, std::nullopt, std::nullopt);
    return;
  }
  if (o_.maxCalls && s.calls.size() >= *o_.maxCalls) {
    ++r_.callCuts;
    ++r_.paths;
    return;
  }
  for (ir::CfaId m : cls.methods) {
    reported_.clear();
    auto n = startMethod(s, m);
    if (stop_) return;
    if (n) nextRound_.push_back(std::move(n));
  }
}

std::unique_ptr<SymState> Explorer::startMethod(const SymState& s, ir::CfaId method) {
  const ir::Cfa& cfa = p_.cfas[method];
  auto n = std::make_unique<SymState>(s);
  n->frames.clear();
  SymFrame f = makeFrame(method, self_, ir::kNone);
  SymCall call{method, {}, n->path.size()};
  const std::string prefix = shortName(cfa.name) + ".";
  for (ir::VarId id : cfa.params) {
    const ir::Variable& v = p_.vars[id];
    ExprRef sym = nullptr;
    f.locals[v.slot] = input(*n, v.type, prefix + v.name, sym);
    call.args.push_back(sym);
  }
  if (cfa.usesOld) f.old = snapshot(*n);
  n->frames.push_back(std::move(f));
  n->calls.push_back(std::move(call));
  if (!runAssignments(*n, cfa.entryInits, false, ir::kNone)) return nullptr;
  return n;
}

}  // namespace tandem::symbolic
