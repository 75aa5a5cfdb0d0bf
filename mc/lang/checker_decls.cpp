// Type checker: top-level declarations, classes, processes, rules, tests, purity.
#include <algorithm>
#include <functional>

#include "mc/lang/checker_impl.h"

namespace tandem {

bool checkProgram(ast::Program& program, TypeTable& types, Diagnostics& diags) {
  check::Checker c(program, types, diags);
  return c.run();
}

bool checkGlobalExpr(ast::Expr& expr, ast::Program& program, TypeTable& types, Diagnostics& diags) {
  check::Checker c(program, types, diags);
  return c.checkStandalone(expr);
}

bool checkTests(std::vector<ast::TestDecl>& tests, ast::Program& program, TypeTable& types,
                Diagnostics& diags) {
  check::Checker c(program, types, diags);
  return c.checkStandalone(tests);
}

namespace check {

bool Checker::run() {
  declareGlobals();
  for (auto& c : prog_.consts) checkConst(c);
  for (auto& c : prog_.chans) checkChan(c);
  for (size_t i = 0; i < prog_.globals.size(); ++i)
    checkGlobalVar(*prog_.globals[i], ast::VarScope::Global, static_cast<uint32_t>(i), "");
  for (auto& n : prog_.natives) checkNative(n);
  // Signatures first so that bodies can call procedures declared later.
  for (auto& p : prog_.procs) checkProcSignature(*p, nullptr);
  for (auto& c : prog_.classes) {
    if (c->init) checkProcSignature(*c->init, c.get());
    for (auto& m : c->methods) checkProcSignature(*m, c.get());
  }
  gatherProcessLabels();  // so a process may name a label of a process declared later
  for (auto& c : prog_.classes) checkClass(*c);
  for (auto& p : prog_.procs) checkProcBody(*p, nullptr);
  for (auto& p : prog_.processes) checkProcess(*p);
  for (auto& e : prog_.inits) checkCond(*e.expr, "init");
  for (auto& e : prog_.predicates) checkCond(*e.expr, "predicate");
  inGlobalProperty_ = true;
  for (auto& e : prog_.invariants) checkCond(*e.expr, "invariant");
  inGlobalProperty_ = false;
  for (auto& r : prog_.rules) checkRule(r);
  for (auto& t : prog_.tests) checkTest(t);
  checkPurity();
  if (!prog_.processes.empty() || !prog_.rules.empty()) {
    // A closed system: processes and rules. Procedures may still be called from processes.
  }
  return !diags_.hasErrors();
}

bool Checker::checkStandalone(std::vector<ast::TestDecl>& tests) {
  declareGlobals();
  for (auto& c : prog_.consts) globals_[c.name].type = resolveType(c.type.get());
  for (auto& t : tests) checkTest(t);
  return !diags_.hasErrors();
}

bool Checker::checkStandalone(ast::Expr& e) {
  declareGlobals();
  for (auto& c : prog_.consts) globals_[c.name].type = resolveType(c.type.get());
  gatherProcessLabels();
  inGlobalProperty_ = true;
  checkCond(e, "invariant");
  return !diags_.hasErrors();
}

void Checker::gatherProcessLabels() {
  for (auto& p : prog_.processes) {
    auto& labels = processLabels_[p->name];
    labels.clear();
    std::function<void(std::vector<ast::StmtPtr>&)> gather = [&](std::vector<ast::StmtPtr>& body) {
      for (auto& s : body) {
        labels.insert(labels.end(), s->labels.begin(), s->labels.end());
        gather(s->body);
      }
    };
    gather(p->body);
  }
}

void Checker::declare(const std::string& name, GlobalSym sym) {
  auto it = globals_.find(name);
  if (it != globals_.end()) {
    error(sym.loc, "redeclaration of '" + name + "' (first declared at line " +
                       std::to_string(it->second.loc.line) + ")");
    return;
  }
  globals_.emplace(name, sym);
}

void Checker::declareGlobals() {
  using K = GlobalSym::Kind;
  for (size_t i = 0; i < prog_.enums.size(); ++i) {
    auto& e = prog_.enums[i];
    TypeRef t = types_.enumType(e.name, e.members);
    declare(e.name, {K::EnumType, i, t, e.loc});
    std::set<std::string> seen;
    for (size_t m = 0; m < e.members.size(); ++m) {
      if (!seen.insert(e.members[m]).second)
        error(e.memberLocs.size() > m ? e.memberLocs[m] : e.loc,
              "duplicate member '" + e.members[m] + "' in enum '" + e.name + "'");
      declare(e.members[m],
              {K::EnumMember, m, t, e.memberLocs.size() > m ? e.memberLocs[m] : e.loc});
    }
  }
  for (size_t i = 0; i < prog_.classes.size(); ++i) {
    types_.classType(prog_.classes[i]->name);
    declare(prog_.classes[i]->name,
            {K::Class, i, types_.findClass(prog_.classes[i]->name), prog_.classes[i]->loc});
  }
  for (size_t i = 0; i < prog_.consts.size(); ++i)
    declare(prog_.consts[i].name, {K::Const, i, nullptr, prog_.consts[i].loc});
  for (size_t i = 0; i < prog_.globals.size(); ++i)
    declare(prog_.globals[i]->name, {K::Var, i, nullptr, prog_.globals[i]->loc});
  for (size_t i = 0; i < prog_.natives.size(); ++i)
    declare(prog_.natives[i].name, {K::Native, i, nullptr, prog_.natives[i].loc});
  for (size_t i = 0; i < prog_.procs.size(); ++i)
    declare(prog_.procs[i]->name, {K::Proc, i, nullptr, prog_.procs[i]->loc});
  for (size_t i = 0; i < prog_.processes.size(); ++i)
    declare(prog_.processes[i]->name, {K::Process, i, nullptr, prog_.processes[i]->loc});
  for (size_t i = 0; i < prog_.chans.size(); ++i)
    declare(prog_.chans[i].name, {K::Chan, i, nullptr, prog_.chans[i].loc});
  std::set<std::string> rules;
  for (auto& r : prog_.rules)
    if (!rules.insert(r.name).second) error(r.loc, "duplicate rule name '" + r.name + "'");
}

void Checker::checkConst(ast::ConstDecl& c) {
  TypeRef t = resolveType(c.type.get());
  if (!c.value) return;
  TypeRef vt = checkExpr(*c.value, t);
  if (t && vt) coerce(*c.value, t, "constant '" + c.name + "'");
  if (!isConstantValue(*c.value))
    error(c.value->loc, "the value of constant '" + c.name + "' must be a constant expression");
  else if (t && t->kind == TypeKind::F64 && c.value->kind != ast::Expr::Kind::FloatLit &&
           !(c.value->kind == ast::Expr::Kind::Unary && c.value->unop == ast::UnOp::Neg &&
             c.value->args[0]->kind == ast::Expr::Kind::FloatLit))
    error(c.value->loc,
          "the value of f64 constant '" + c.name + "' must be a literal such as 1.5 or -2.0e-3");
  globals_[c.name].type = t;
}

void Checker::checkGlobalVar(ast::GlobalVarDecl& g, ast::VarScope scope, uint32_t index,
                             const std::string& owner) {
  TypeRef t = resolveType(g.type.get());
  g.var = std::make_unique<ast::VarInfo>();
  g.var->name = g.name;
  g.var->type = t;
  g.var->scope = scope;
  g.var->loc = g.loc;
  g.var->owner = owner;
  g.var->index = index;
  if (scope == ast::VarScope::Global) globals_[g.name].type = t;
  if (g.init) {
    if (g.init->kind == ast::Expr::Kind::Star) {
      error(g.init->loc,
            "a global takes no '*' initialiser; declare it without one to leave it unconstrained");
      return;
    }
    TypeRef it = checkExpr(*g.init, t);
    if (t && it) coerce(*g.init, t, "initialiser of '" + g.name + "'");
  }
}

void Checker::declareParams(std::vector<ast::Param>& params, const std::string& owner,
                            std::vector<std::unique_ptr<ast::VarInfo>>& out) {
  uint32_t idx = 0;
  std::set<std::string> seen;
  for (auto& prm : params) {
    auto v = std::make_unique<ast::VarInfo>();
    v->name = prm.name;
    v->type = resolveType(prm.type.get());
    v->scope = ast::VarScope::Param;
    v->owner = owner;
    v->index = idx++;
    v->loc = prm.loc;
    if (!seen.insert(prm.name).second) error(prm.loc, "duplicate parameter '" + prm.name + "'");
    prm.var = v.get();
    out.push_back(std::move(v));
  }
}

void Checker::checkNative(ast::NativeDecl& n) {
  declareParams(n.params, n.name, prog_.extraVars);
  std::map<std::string, ast::VarInfo*> scope;
  for (auto& p : n.params) scope.emplace(p.name, p.var);
  if (!n.returnType)
    error(n.loc, "native '" + n.name + "' must declare a result type");
  else
    resolveType(n.returnType.get());
  scopes_.push_back(scope);
  for (auto& part : n.partitions) checkCond(*part, "partition");
  scopes_.pop_back();
}

void Checker::checkProcSignature(ast::ProcDecl& p, ast::ClassDecl* cls) {
  p.vars.clear();
  declareParams(p.params, p.name, p.vars);
  if (p.returnType) resolveType(p.returnType.get());
}

void Checker::checkProcBody(ast::ProcDecl& p, ast::ClassDecl* cls) {
  BodyCtx ctx;
  ctx.proc = &p;
  ctx.cls = cls;
  ctx.returnType = p.returnType ? resolveType(p.returnType.get()) : nullptr;
  ctx.vars = &p.vars;
  ctx.localScope = ast::VarScope::Local;
  ctx.owner = cls ? cls->name + "." + p.name : p.name;
  body_ = &ctx;
  writesState_[&p] = false;
  callsProcs_[&p];
  std::map<std::string, ast::VarInfo*> params;
  for (auto& v : p.vars) params.emplace(v->name, v.get());
  scopes_.push_back(params);
  for (auto& part : p.partitions) checkCond(*part, "partition");
  checkContracts(p, cls);
  collectLabels(p.body);
  checkBlock(p.body);
  scopes_.pop_back();
  body_ = nullptr;
}

namespace {

const ast::Expr* fieldIn(const ast::Expr& e) {
  if (e.kind == ast::Expr::Kind::Name && e.ref == ast::RefKind::Var && e.var &&
      e.var->scope == ast::VarScope::Field)
    return &e;
  for (const auto& a : e.args)
    if (const ast::Expr* f = a ? fieldIn(*a) : nullptr) return f;
  return nullptr;
}

const ast::Expr* oldIn(const ast::Expr& e) {
  if (e.kind == ast::Expr::Kind::Call && e.ref == ast::RefKind::Builtin && e.name == "old")
    return &e;
  for (const auto& a : e.args)
    if (const ast::Expr* o = a ? oldIn(*a) : nullptr) return o;
  return nullptr;
}

}  // namespace

// `requires` over what the caller can see at the call (parameters, globals, and in a method the
// fields of the same object); `ensures` also over `old(..)` and `result`.
void Checker::checkContracts(ast::ProcDecl& p, ast::ClassDecl* cls) {
  if (p.concrete && !(p.preconditions.empty() && p.postconditions.empty()))
    error(p.loc,
          "a @concrete procedure runs as one opaque step: it cannot have requires or "
          "ensures (write them on a procedure that calls it)");
  const bool usesOld = p.usesOld;
  for (auto& r : p.preconditions) {
    checkCond(*r, "precondition");
    if (const ast::Expr* o = oldIn(*r))
      error(o->loc, "'old' in a precondition: it is evaluated on entry, where old(e) is e");
    if (cls && p.name == "init")
      if (const ast::Expr* f = fieldIn(*r))
        error(f->loc, "a precondition of init cannot read the field '" + f->name +
                          "': the object does not exist when init is called");
  }
  if (p.postconditions.empty()) return;
  std::map<std::string, ast::VarInfo*> resultScope;
  if (body_->returnType) {
    p.result = std::make_unique<ast::VarInfo>();
    p.result->name = "result";
    p.result->type = body_->returnType;
    p.result->scope = ast::VarScope::Local;
    p.result->owner = body_->owner;
    p.result->loc = p.loc;
    resultScope.emplace("result", p.result.get());
  }
  scopes_.push_back(resultScope);
  for (auto& e : p.postconditions) checkCond(*e, "postcondition");
  scopes_.pop_back();
  p.usesOld = usesOld;  // the lowering copies what `ensures` reads of old() on entry
}

void Checker::checkClass(ast::ClassDecl& c) {
  Type* ct = types_.classType(c.name);
  ct->fields.clear();
  std::set<std::string> seen;
  for (size_t i = 0; i < c.fields.size(); ++i) {
    auto& f = *c.fields[i];
    if (!seen.insert(f.name).second)
      error(f.loc, "duplicate field '" + f.name + "' in class '" + c.name + "'");
    checkGlobalVar(f, ast::VarScope::Field, static_cast<uint32_t>(i), c.name);
    ct->fields.emplace_back(f.name, f.var->type);
  }
  std::set<std::string> methods;
  for (auto& m : c.methods)
    if (!methods.insert(m->name).second)
      error(m->loc, "duplicate method '" + m->name + "' in class '" + c.name + "'");
  // Class predicates range over the fields.
  BodyCtx ctx;
  ctx.cls = &c;
  body_ = &ctx;
  for (auto& pr : c.predicates) checkCond(*pr.expr, "predicate");
  std::set<std::string> invNames;
  for (auto& inv : c.invariants) {
    checkCond(*inv.expr, "invariant");
    if (!inv.name.empty() && !invNames.insert(inv.name).second)
      error(inv.loc, "duplicate invariant '" + inv.name + "' in class '" + c.name + "'");
  }
  body_ = nullptr;
  if (c.init) checkProcBody(*c.init, &c);
  for (auto& m : c.methods) checkProcBody(*m, &c);
}

std::optional<long long> Checker::instanceCount(ast::Expr& count, const std::string& constant,
                                                const std::string& range) {
  checkExpr(count);
  auto n = foldConst(count);
  if (!n)
    error(count.loc, constant);
  else if (*n < 1 || *n > 255)
    error(count.loc, range);
  else
    return n;
  return std::nullopt;
}

void Checker::checkProcess(ast::ProcessDecl& p) {
  if (p.count) {
    if (auto n = instanceCount(
            *p.count, "the number of instances of process '" + p.name + "' must be a constant",
            "process '" + p.name + "' must have between 1 and 255 instances"))
      p.instances = *n;
  }
  BodyCtx ctx;
  ctx.process = &p;
  ctx.vars = &p.vars;
  ctx.localScope = ast::VarScope::ProcessLocal;
  ctx.owner = p.name;
  body_ = &ctx;
  p.vars.clear();
  scopes_.emplace_back();
  collectLabels(p.body);
  checkBlock(p.body);
  scopes_.pop_back();
  body_ = nullptr;
}

void Checker::checkRule(ast::RuleDecl& r) {
  if (r.guard) checkCond(*r.guard, "rule guard");
  if (r.lhs.size() != r.rhs.size()) {
    error(r.loc, "rule '" + r.name + "' assigns " + std::to_string(r.lhs.size()) +
                     " targets from " + std::to_string(r.rhs.size()) + " values");
    return;
  }
  for (size_t i = 0; i < r.lhs.size(); ++i) {
    TypeRef lt = checkExpr(*r.lhs[i]);
    checkLvalue(*r.lhs[i]);
    if (r.rhs[i]->kind == ast::Expr::Kind::Star) {
      r.rhs[i]->type = lt;
      continue;
    }
    TypeRef rt = checkExpr(*r.rhs[i], lt);
    if (lt && rt) coerce(*r.rhs[i], lt, "assignment");
  }
}

void Checker::checkTest(ast::TestDecl& t) {
  if (t.isState) {
    for (size_t i = 0; i < t.names.size(); ++i) {
      auto g = lookupGlobal(t.names[i]);
      SourceLoc loc = i < t.nameLocs.size() ? t.nameLocs[i] : t.loc;
      if (!g || g->kind != GlobalSym::Kind::Var) {
        error(loc, "'" + t.names[i] + "' is not a global variable");
        continue;
      }
      TypeRef vt = prog_.globals[g->index]->var ? prog_.globals[g->index]->var->type : nullptr;
      if (i < t.values.size()) {
        TypeRef it = checkExpr(*t.values[i], vt);
        if (vt && it) coerce(*t.values[i], vt, "test value");
        if (!isConstantValue(*t.values[i]))
          error(t.values[i]->loc, "test values must be constants");
      }
    }
    return;
  }
  auto g = lookupGlobal(t.target);
  const std::vector<ast::Param>* params = nullptr;
  if (g && g->kind == GlobalSym::Kind::Proc) {
    params = &prog_.procs[g->index]->params;
  } else if (g && g->kind == GlobalSym::Kind::Class) {
    auto& c = *prog_.classes[g->index];
    if (!c.init) {
      if (!t.args.empty())
        error(t.loc, "class '" + t.target + "' has no init and takes no arguments");
      return;
    }
    params = &c.init->params;
  } else {
    error(t.loc, "test names unknown procedure or class '" + t.target + "'");
    return;
  }
  ast::Expr call;
  call.loc = t.loc;
  call.args = std::move(t.args);
  checkArgs(call, *params, t.target);
  t.args = std::move(call.args);
  for (auto& a : t.args)
    if (!isConstantValue(*a)) error(a->loc, "test arguments must be constants");
}

// A procedure is pure when it writes no state outside its frame and calls only pure code.
void Checker::checkPurity() {
  std::vector<ast::ProcDecl*> all;
  for (auto& p : prog_.procs) all.push_back(p.get());
  for (auto* p : all) p->pure = !writesState_[p];
  for (bool changed = true; changed;) {
    changed = false;
    for (auto* p : all) {
      if (!p->pure) continue;
      for (auto* q : callsProcs_[p])
        if (!q->pure && !q->concrete) {
          p->pure = false;
          changed = true;
          break;
        }
    }
  }
  for (auto& [callee, site] : exprCalls_)
    if (!callee->preconditions.empty())
      error(site->loc, "procedure '" + callee->name +
                           "' has a precondition, which is checked where it is called as a "
                           "statement: write `x := " +
                           callee->name + "(...)`");
  for (auto& [callee, site] : exprCalls_)
    if (!callee->pure && !callee->concrete)
      error(site->loc, "procedure '" + callee->name +
                           "' has side effects and cannot be called inside an expression; "
                           "call it as a statement (`x := " +
                           callee->name + "(...)`)");
}

TypeRef Checker::resolveType(ast::TypeExpr* t) {
  if (!t) return nullptr;
  using K = ast::TypeExpr::Kind;
  switch (t->kind) {
    case K::Int:
      return types_.intType();
    case K::I32:
      return types_.i32Type();
    case K::I64:
      return types_.i64Type();
    case K::F64:
      return types_.f64Type();
    case K::Bool:
      return types_.boolType();
    case K::Named: {
      if (auto e = types_.findEnum(t->name)) return e;
      if (auto c = types_.findClass(t->name)) return c;
      error(t->loc, "unknown type '" + t->name + "'");
      return nullptr;
    }
    case K::Ref: {
      TypeRef e = resolveType(t->elem.get());
      return e ? types_.refTo(e) : nullptr;
    }
    case K::Array: {
      TypeRef e = resolveType(t->elem.get());
      if (!e) return nullptr;
      if (!t->size) return types_.arrayOf(e, -1);
      checkExpr(*t->size);
      auto n = foldConst(*t->size);
      if (!n) {
        error(t->size->loc, "array length must be a constant expression");
        return nullptr;
      }
      if (*n < 0 || *n > 1000000) {
        error(t->size->loc,
              "array length " + std::to_string(*n) + " is out of range (0 to 1000000)");
        return nullptr;
      }
      return types_.arrayOf(e, *n);
    }
  }
  return nullptr;
}

// Folds integer constant expressions (array lengths, process counts, constants).
std::optional<long long> Checker::foldConst(const ast::Expr& e) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
    case K::IntLit:
      if (e.text.size() > 17) return std::nullopt;
      return std::stoll(e.text);
    case K::Name: {
      auto g = lookupGlobal(e.name);
      if (!g || g->kind != GlobalSym::Kind::Const) return std::nullopt;
      auto& c = prog_.consts[g->index];
      if (!c.value) return std::nullopt;
      return foldConst(*c.value);
    }
    case K::Unary:
      if (e.unop == ast::UnOp::Neg)
        if (auto v = foldConst(*e.args[0])) return -*v;
      return std::nullopt;
    case K::Binary: {
      auto a = foldConst(*e.args[0]);
      auto b = foldConst(*e.args[1]);
      if (!a || !b) return std::nullopt;
      constexpr long long kLimit = 1LL << 40;  // folding is for sizes: stay far from overflow
      if (std::abs(*a) > kLimit || std::abs(*b) > kLimit) return std::nullopt;
      switch (e.binop) {
        case ast::BinOp::Add:
          return *a + *b;
        case ast::BinOp::Sub:
          return *a - *b;
        case ast::BinOp::Mul:
          return *a * *b;
        case ast::BinOp::Div:
          return *b == 0 ? std::nullopt : std::optional<long long>(*a / *b);
        case ast::BinOp::Mod:
          return *b == 0 ? std::nullopt : std::optional<long long>(*a % *b);
        default:
          return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

// Constants: literals, named constants, enum members, null, and arrays of constants.
bool Checker::isConstantValue(const ast::Expr& e) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
    case K::IntLit:
    case K::FloatLit:
    case K::BoolLit:
    case K::Null:
      return true;
    case K::Name:
      return e.ref == ast::RefKind::Const || e.ref == ast::RefKind::EnumMember;
    case K::Unary:
      return e.unop == ast::UnOp::Neg && isConstantValue(*e.args[0]);
    case K::Binary:
      return isConstantValue(*e.args[0]) && isConstantValue(*e.args[1]);
    case K::ArrayLit:
      return std::all_of(e.args.begin(), e.args.end(),
                         [this](const ast::ExprPtr& a) { return isConstantValue(*a); });
    default:
      return false;
  }
}

}  // namespace check
}  // namespace tandem
