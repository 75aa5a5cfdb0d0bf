// Lowering driver: declarations, variables, CFAs, edges, and the cutpoint flags.
#include "mc/ir/lower.h"

#include <algorithm>
#include <cassert>
#include <functional>

#include "mc/ir/ir_printer.h"
#include "mc/ir/lower_expr.h"
#include "mc/ir/lower_impl.h"
#include "mc/lang/printer.h"

namespace tandem {
namespace lower {
namespace {

using SK = ast::Stmt::Kind;
using EK = ast::Expr::Kind;

// One body waiting for phase 2.
struct Pending {
  ir::CfaId cfa;
  RawCfa raw;
  uint32_t base;  // LocId of the body's first final location
  const std::string* cls = nullptr;
};

class Lowerer {
 public:
  Lowerer(const ast::Program& ast, ir::Program& p, Diagnostics& d)
      : ast_(ast), prog_(p), diags_(d), ex_(p), channels_(p) {
    ex_.channels = &channels_;
  }

  bool run() {
    declareVariables();
    declareChannels();
    declareCfas();
    for (auto& pb : pending_)
      if (!buildLocations(pb)) return false;
    lowerDeclInits();
    for (auto& pb : pending_) lowerEdges(pb);
    lowerRules();
    lowerTopLevel();
    finish();
    return !diags_.hasErrors();
  }

 private:
  ir::VarId addVar(const ast::VarInfo* info, ir::VarScope scope, ir::CfaId owner, uint32_t slot) {
    const ir::VarId id = prog_.addVariable(info->name, info->type, scope, owner, slot);
    prog_.vars[id].isParam = info->scope == ast::VarScope::Param;
    prog_.vars[id].loc = info->loc;
    ex_.varIds[info] = id;
    return id;
  }

  ir::VarId addHidden(const std::string& name, TypeRef type, ir::VarScope scope, ir::CfaId owner,
                      uint32_t slot) {
    const ir::VarId id = prog_.addVariable(name, type, scope, owner, slot);
    prog_.vars[id].hidden = true;
    return id;
  }

  void declareVariables() {
    for (size_t i = 0; i < ast_.globals.size(); ++i) {
      auto id = addVar(ast_.globals[i]->var.get(), ir::VarScope::Global, ir::kNone,
                       static_cast<uint32_t>(i));
      prog_.globals.push_back(id);
    }
    for (size_t i = 0; i < ast_.natives.size(); ++i) {
      auto& n = ast_.natives[i];
      ir::Native nat;
      nat.name = n.name;
      for (auto& p : n.params) {
        nat.params.push_back(p.var->type);
        nat.paramVars.push_back(addVar(p.var, ir::VarScope::Local, ir::kNone, p.var->index));
      }
      nat.returnType = n.returnType ? prog_.types->intType() : nullptr;
      nat.loc = n.loc;
      prog_.natives.push_back(std::move(nat));
      ex_.nativeIndex[n.name] = static_cast<uint32_t>(i);
    }
    for (size_t c = 0; c < ast_.classes.size(); ++c) {
      auto& cd = *ast_.classes[c];
      ir::ClassInfo ci;
      ci.name = cd.name;
      ci.type = prog_.types->findClass(cd.name);
      for (size_t f = 0; f < cd.fields.size(); ++f)
        ci.fields.push_back(addVar(cd.fields[f]->var.get(), ir::VarScope::Field,
                                   static_cast<uint32_t>(c), static_cast<uint32_t>(f)));
      prog_.classes.push_back(std::move(ci));
    }
  }

  // After the globals: channel state variables take the next global slots.
  void declareChannels() {
    for (auto& c : ast_.chans) {
      ir::Channel ch;
      ch.name = c.name;
      ch.count = static_cast<uint32_t>(c.instances);
      ch.isArray = c.count != nullptr;
      ch.capacity = static_cast<uint32_t>(c.cap);
      ch.fields = c.fieldTypes;
      ch.loc = c.loc;
      channels_.declare(std::move(ch));
    }
  }

  // The channel of a send or receive (`c` or `c[i]`) and its index expression (null for `c`).
  std::pair<uint32_t, ExprRef> channelOf(const ast::Expr& e) {
    auto ch = static_cast<uint32_t>(e.constValue);
    return {ch, e.kind == EK::Index ? ex_.lower(*e.args[1]) : nullptr};
  }

  ir::CfaId newCfa(const std::string& name, ir::CfaKind kind) {
    ir::Cfa c;
    c.name = name;
    c.kind = kind;
    prog_.cfas.push_back(std::move(c));
    return static_cast<ir::CfaId>(prog_.cfas.size() - 1);
  }

  void declareProc(const ast::ProcDecl& p, ir::CfaKind kind, const std::string& name,
                   const std::string* cls, uint32_t classIndex) {
    ir::CfaId id = newCfa(name, kind);
    ir::Cfa& c = prog_.cfas[id];
    c.concrete = p.concrete;
    c.pure = p.pure;
    c.usesOld = p.usesOld;
    c.classIndex = classIndex;
    for (auto& v : p.vars) {
      ir::VarId vid = addVar(v.get(), ir::VarScope::Local, id, v->index);
      c.locals.push_back(vid);
      if (v->scope == ast::VarScope::Param) c.params.push_back(vid);
    }
    if (p.returnType) {
      // The checked type is on the return statements; resolve it from the parameter list owner.
      c.returnType = returnTypes_.at(&p);
      c.resultVar = addHidden("result", c.returnType, ir::VarScope::Local, id,
                              static_cast<uint32_t>(c.locals.size()));
      c.locals.push_back(c.resultVar);
      if (p.result) {  // `result` in `ensures`: a variable users see in traces and predicates
        ex_.varIds[p.result.get()] = c.resultVar;
        prog_.vars[c.resultVar].hidden = false;
      }
    }
    if (!p.preconditions.empty() || !p.postconditions.empty()) contractDecls_[id] = &p;
    Pending pb{id, {}, 0, cls};
    bodies_.push_back(&p.body);
    pending_.push_back(std::move(pb));
    procDecls_.push_back(&p);
  }

  void declareCfas() {
    computeReturnTypes();
    for (auto& p : ast_.procs) {
      declareProc(*p, ir::CfaKind::Proc, p->name, nullptr, ir::kNone);
      ex_.procCfa[p->name] = static_cast<ir::CfaId>(prog_.cfas.size() - 1);
    }
    for (size_t c = 0; c < ast_.classes.size(); ++c) {
      auto& cd = *ast_.classes[c];
      auto ci = static_cast<uint32_t>(c);
      const ast::ProcDecl* init = cd.init.get();
      if (!init) {  // `new C()` of a class without `init` still needs an initialiser to call
        synthesized_.push_back(std::make_unique<ast::ProcDecl>());
        synthesized_.back()->name = "init";
        synthesized_.back()->loc = cd.loc;
        init = synthesized_.back().get();
      }
      {
        declareProc(*init, ir::CfaKind::ClassInit, cd.name + ".init", &cd.name, ci);
        prog_.classes[c].init = static_cast<ir::CfaId>(prog_.cfas.size() - 1);
        ex_.methodCfa[cd.name]["init"] = prog_.classes[c].init;
      }
      for (auto& m : cd.methods) {
        declareProc(*m, ir::CfaKind::Method, cd.name + "." + m->name, &cd.name, ci);
        prog_.classes[c].methods.push_back(static_cast<ir::CfaId>(prog_.cfas.size() - 1));
        ex_.methodCfa[cd.name][m->name] = prog_.classes[c].methods.back();
      }
    }
    for (size_t i = 0; i < ast_.processes.size(); ++i) {
      auto& pd = *ast_.processes[i];
      ir::CfaId id = newCfa(pd.name, ir::CfaKind::Process);
      prog_.cfas[id].instances = static_cast<uint32_t>(pd.instances);
      for (auto& v : pd.vars)
        prog_.cfas[id].processLocals.push_back(
            addVar(v.get(), ir::VarScope::ProcessLocal, id, v->index));
      prog_.processes.push_back(id);
      ex_.processIndex[pd.name] = static_cast<uint32_t>(i);
      Pending pb{id, {}, 0, nullptr};
      pb.raw.keepExit = false;
      bodies_.push_back(&pd.body);
      pending_.push_back(std::move(pb));
      procDecls_.push_back(nullptr);
    }
  }

  // A procedure's result type, from the checker's annotation on its return statements or type.
  void computeReturnTypes() {
    auto resolve = [&](const ast::ProcDecl& p) {
      if (!p.returnType) return;
      TypeRef t = typeOf(*p.returnType);
      returnTypes_[&p] = t;
    };
    for (auto& p : ast_.procs) resolve(*p);
    for (auto& c : ast_.classes) {
      if (c->init) resolve(*c->init);
      for (auto& m : c->methods) resolve(*m);
    }
  }

  TypeRef typeOf(const ast::TypeExpr& t) {
    TypeTable& tt = *prog_.types;
    switch (t.kind) {
      case ast::TypeExpr::Kind::Int:
        return tt.intType();
      case ast::TypeExpr::Kind::I32:
        return tt.i32Type();
      case ast::TypeExpr::Kind::I64:
        return tt.i64Type();
      case ast::TypeExpr::Kind::F64:
        return tt.f64Type();
      case ast::TypeExpr::Kind::Bool:
        return tt.boolType();
      case ast::TypeExpr::Kind::Named:
        if (auto e = tt.findEnum(t.name)) return e;
        return tt.findClass(t.name);
      case ast::TypeExpr::Kind::Ref:
        return tt.refTo(typeOf(*t.elem));
      case ast::TypeExpr::Kind::Array: {
        int64_t n = -1;
        if (t.size) {
          ExprRef s = ex_.lower(*t.size);
          n = s->op == Op::IntConst ? s->value.toInt64().value_or(-1) : -1;
        }
        return tt.arrayOf(typeOf(*t.elem), n);
      }
    }
    return nullptr;
  }

  bool buildLocations(Pending& pb) {
    size_t idx = static_cast<size_t>(&pb - pending_.data());
    const std::vector<ast::StmtPtr>& body = *bodies_[idx];
    CfgBuilder(pb.raw).build(body, true);
    ir::Cfa& c = prog_.cfas[pb.cfa];
    if (!contract(pb.raw, diags_, {})) return false;
    pb.base = static_cast<uint32_t>(prog_.locs.size());
    uint32_t count = 0;
    for (auto f : pb.raw.final)
      if (f != ir::kNone) count = std::max(count, f + 1);
    for (uint32_t i = 0; i < count; ++i) {
      ir::Location l;
      l.id = pb.base + i;
      l.cfa = pb.cfa;
      prog_.locs.push_back(std::move(l));
      c.locs.push_back(pb.base + i);
    }
    for (uint32_t r = 0; r < pb.raw.locs.size(); ++r) {
      if (pb.raw.final[r] == ir::kNone) continue;
      ir::Location& l = prog_.locs[pb.base + pb.raw.final[r]];
      const RawLoc& rl = pb.raw.locs[r];
      if (!l.loc.valid() && rl.loc.valid()) l.loc = rl.loc;
      for (auto& lab : rl.labels)
        if (std::find(l.labels.begin(), l.labels.end(), lab) == l.labels.end())
          l.labels.push_back(lab);
      // A representative is atomic iff its own raw location is (aliases took no step).
      if (pb.raw.final[r] != ir::kNone && rl.atomic && isRep(pb.raw, r)) l.atomic = true;
    }
    c.entry = pb.base + pb.raw.final[pb.raw.entry];
    c.exit =
        pb.raw.final[pb.raw.exit] == ir::kNone ? ir::kNone : pb.base + pb.raw.final[pb.raw.exit];
    prog_.locs[c.entry].isEntry = true;
    if (c.exit != ir::kNone) prog_.locs[c.exit].isExit = true;
    if (c.kind == ir::CfaKind::Process)
      for (auto& [label, raw] : pb.raw.labelLoc)
        ex_.processLabels[c.name][label] = pb.base + pb.raw.final[raw];
    for (auto* p : pb.raw.predicates) predicateExprs_[pb.cfa].push_back(p);
    return true;
  }

  static bool isRep(const RawCfa& raw, uint32_t r) {
    for (auto& e : raw.edges)
      if (e.role == Role::Eps && e.from == r) return false;
    return true;
  }

  ExprRef varExpr(ir::VarId v) { return prog_.exprs->var(v, prog_.vars[v].type); }

  // Initialisers of globals, fields and process locals, and entry declarations.
  void lowerDeclInits() {
    for (size_t i = 0; i < ast_.globals.size(); ++i)
      if (ast_.globals[i]->init)
        prog_.vars[prog_.globals[i]].init = ex_.lower(*ast_.globals[i]->init);
    for (size_t c = 0; c < ast_.classes.size(); ++c) {
      auto& cd = *ast_.classes[c];
      for (size_t f = 0; f < cd.fields.size(); ++f)
        if (cd.fields[f]->init)
          prog_.vars[prog_.classes[c].fields[f]].init = ex_.lower(*cd.fields[f]->init);
      for (auto& p : cd.predicates) prog_.classes[c].predicates.push_back(ex_.lower(*p.expr));
      for (auto& inv : cd.invariants) {
        ExprRef e = ex_.lower(*inv.expr);
        prog_.classes[c].invariants.push_back({inv.name, e, inv.loc});
        prog_.classes[c].invariantTexts.push_back(
            "class invariant " + (inv.name.empty() ? "" : inv.name + ": ") + printExpr(*inv.expr));
        // Its conjuncts abstract the class's states too (prove --class), each once.
        std::vector<ExprRef> todo{e};
        while (!todo.empty()) {
          ExprRef k = todo.back();
          todo.pop_back();
          if (k->op == Op::And) {
            todo.insert(todo.end(), k->kids.rbegin(), k->kids.rend());
            continue;
          }
          std::vector<ExprRef>& preds = prog_.classes[c].predicates;
          if (std::find(preds.begin(), preds.end(), k) == preds.end()) preds.push_back(k);
        }
      }
    }
    for (auto& pb : pending_) {
      ir::Cfa& c = prog_.cfas[pb.cfa];
      for (const ast::Stmt* d : pb.raw.entryDecls) {
        ir::VarId v = ex_.varIds.at(d->var);
        bool has = !d->rhs.empty() && d->rhs[0];
        bool star = has && d->rhs[0]->kind == EK::Star;
        if (c.kind == ir::CfaKind::Process) {
          if (has && !star) prog_.vars[v].init = ex_.lower(*d->rhs[0]);
          continue;
        }
        if (has) c.entryInits.push_back({varExpr(v), star ? nullptr : ex_.lower(*d->rhs[0])});
      }
      for (auto* p : predicateExprs_[pb.cfa]) c.predicates.push_back(ex_.lower(*p));
    }
    for (size_t i = 0; i < ast_.natives.size(); ++i) {
      auto& n = ast_.natives[i];
      if (n.returnType) prog_.natives[i].returnType = typeOf(*n.returnType);
      for (auto& p : n.partitions) prog_.natives[i].partitions.push_back(ex_.lower(*p));
    }
    for (size_t i = 0; i < procDecls_.size(); ++i)
      if (procDecls_[i])
        for (auto& p : procDecls_[i]->partitions)
          prog_.cfas[pending_[i].cfa].partitions.push_back(ex_.lower(*p));
  }

  bool isCallStep(const ast::Expr& e) const {
    return (e.kind == EK::Call && (e.ref == ast::RefKind::Proc || e.ref == ast::RefKind::Method)) ||
           e.kind == EK::NewObject;
  }

  // A procedure, method or constructor call in statement position becomes a call step, except
  // @concrete procedures, which run atomically as opaque functions.
  bool callStep(const ast::Expr& e) const {
    if (!isCallStep(e)) return false;
    if (e.kind == EK::Call && e.ref == ast::RefKind::Proc) {
      auto it = ex_.procCfa.find(e.name);
      if (prog_.cfas[it->second].concrete) return false;
    }
    return true;
  }

  ir::Edge makeCall(const ast::Expr& call, ExprRef result, const Pending& pb) {
    ir::Edge e;
    e.kind = ir::EdgeKind::Call;
    if (call.kind == EK::NewObject)
      e.callee = ex_.methodCfa.at(call.name).at("init");
    else if (call.ref == ast::RefKind::Method)
      e.callee = ex_.methodCfa.at(*pb.cls).at(call.name);
    else
      e.callee = ex_.procCfa.at(call.name);
    for (auto& a : call.args) e.args.push_back(ex_.lower(*a));
    e.result = result;
    return e;
  }

  // A contract, lowered in its procedure's context (fields of its class), with its text.
  struct Contract {
    ExprRef cond;
    std::string text;
    SourceLoc loc;
  };

  void lowerContracts(const Pending& pb) {
    auto it = contractDecls_.find(pb.cfa);
    if (it == contractDecls_.end()) return;
    for (const auto& r : it->second->preconditions)
      requires_[pb.cfa].push_back({ex_.lower(*r), printExpr(*r), r->loc});
    // A parameter in `ensures` is its value on entry, as in Boogie and Dafny (the body may
    // assign its parameters), and `old(e)` is e's value on entry: each is a copy, named `old(x)`,
    // `old(e)`, set on entry. (So ensures need no old() snapshot: prove fabricates such code.)
    std::map<ir::VarId, ExprRef> atEntry;
    ir::Cfa& c = prog_.cfas[pb.cfa];
    auto copyOnEntry = [&](ExprRef value, TypeRef type) {
      ir::VarId copy =
          addHidden("old(" + exprToString(prog_, value) + ")", type, ir::VarScope::Local, pb.cfa,
                    static_cast<uint32_t>(c.locals.size()));
      prog_.vars[copy].hidden = false;  // shown in traces, and predicates may read it
      c.locals.push_back(copy);
      c.entryInits.push_back({varExpr(copy), value});
      // On entry the copy equals its expression: the predicate a proof starts from.
      addConjuncts(c.predicates, prog_.exprs->mkEq(varExpr(copy), value));
      return varExpr(copy);
    };
    std::map<ExprRef, ExprRef> olds;
    std::function<ExprRef(ExprRef)> replaceOld = [&](ExprRef x) -> ExprRef {
      if (x->op == Op::Old) {
        auto [it, fresh] = olds.emplace(x->kid(0), nullptr);
        if (fresh) it->second = copyOnEntry(x->kid(0), x->type);
        return it->second;
      }
      if (x->kids.empty()) return x;
      std::vector<ExprRef> kids;
      for (ExprRef k : x->kids) kids.push_back(replaceOld(k));
      return prog_.exprs->mk(x->op, x->type, std::move(kids), x->payload, x->value);
    };
    for (const auto& e : it->second->postconditions) {
      ExprRef cond = ex_.lower(*e);
      for (uint32_t v : freeVars(cond))
        if (std::find(c.params.begin(), c.params.end(), v) != c.params.end() && !atEntry.count(v))
          atEntry[v] = nullptr;
      for (auto& [v, copy] : atEntry)
        if (!copy)
          copy = olds.count(varExpr(v)) ? olds[varExpr(v)]
                                        : copyOnEntry(varExpr(v), prog_.vars[v].type);
      for (auto& [v, copy] : atEntry) olds[varExpr(v)] = copy;
      cond = replaceOld(substitute(cond, atEntry));
      ensures_[pb.cfa].push_back({cond, printExpr(*e), e->loc});
      addConjuncts(c.predicates, cond);
    }
    if (auto r = requires_.find(pb.cfa); r != requires_.end())
      for (const Contract& k : r->second) addConjuncts(c.predicates, k.cond);
  }

  // What a contract says is what a proof of it needs: its conjuncts join the scope's predicates
  // (as a class invariant's join the class's).
  static void addConjuncts(std::vector<ExprRef>& preds, ExprRef e) {
    if (e->op == Op::And) {
      for (ExprRef k : e->kids) addConjuncts(preds, k);
    } else if (std::find(preds.begin(), preds.end(), e) == preds.end()) {
      preds.push_back(e);
    }
  }

  void lowerEdges(Pending& pb) {
    ex_.currentClass = pb.cls;
    lowerContracts(pb);
    ir::Cfa& cfa = prog_.cfas[pb.cfa];
    for (const RawEdge& re : pb.raw.edges) {
      if (re.role == Role::Eps) continue;
      ir::Edge e;
      const ast::Stmt* s = re.stmt;
      switch (re.role) {
        case Role::IfTrue:
          e.guard = ex_.lower(*s->cond);
          e.text = "[" + printExpr(*s->cond) + "]";
          break;
        case Role::IfFalse:
          e.guard = prog_.exprs->mk(Op::Not, prog_.types->boolType(), {ex_.lower(*s->cond)});
          e.text = "[!(" + printExpr(*s->cond) + ")]";
          break;
        case Role::Choice:
          e.text = s->kind == SK::Goto ? "goto (choice)" : "[*]";
          break;
        case Role::ReturnValue: {
          ExprRef res = varExpr(cfa.resultVar);
          if (callStep(*s->cond))
            e = makeCall(*s->cond, res, pb);
          else
            e.assigns.push_back({res, ex_.lower(*s->cond)});
          e.text = "return " + printExpr(*s->cond);
          break;
        }
        case Role::Stmt:
          lowerStmt(*s, e, pb);
          break;
        case Role::Eps:
          break;
      }
      if (pb.raw.final[re.from] == ir::kNone) continue;  // unreachable code
      e.from = pb.base + pb.raw.final[re.from];
      e.to = pb.base + pb.raw.final[re.to];
      if (s) e.loc = s->loc;
      prog_.edges.push_back(std::move(e));
    }
  }

  void lowerStmt(const ast::Stmt& s, ir::Edge& e, const Pending& pb) {
    std::string text = printStmt(s);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (const auto& l : s.labels)  // traces show labels separately
      if (text.rfind(l + ": ", 0) == 0) text.erase(0, l.size() + 2);
    e.text = text;
    switch (s.kind) {
      case SK::VarDecl: {
        ExprRef lhs = varExpr(ex_.varIds.at(s.var));
        if (s.rhs.empty() || !s.rhs[0]) break;  // keeps the slot's value: no re-initialisation
        const ast::Expr& r = *s.rhs[0];
        if (callStep(r)) {
          std::string t = e.text;
          e = makeCall(r, lhs, pb);
          e.text = t;
        } else {
          e.assigns.push_back({lhs, r.kind == EK::Star ? nullptr : ex_.lower(r)});
        }
        break;
      }
      case SK::Assign:
        if (s.rhs.size() == 1 && callStep(*s.rhs[0])) {
          std::string t = e.text;
          e = makeCall(*s.rhs[0], ex_.lower(*s.lhs[0]), pb);
          e.text = t;
          break;
        }
        for (size_t i = 0; i < s.lhs.size(); ++i)
          e.assigns.push_back(
              {ex_.lower(*s.lhs[i]), s.rhs[i]->kind == EK::Star ? nullptr : ex_.lower(*s.rhs[i])});
        break;
      case SK::Havoc:
        for (auto& l : s.lhs) e.assigns.push_back({ex_.lower(*l), nullptr});
        break;
      case SK::Assume:
      case SK::Await:
        e.guard = ex_.lower(*s.cond);
        break;
      case SK::Assert:
        e.kind = ir::EdgeKind::Assert;
        e.cond = ex_.lower(*s.cond);
        e.errorKind = ir::ErrorKind::Assert;
        if (s.premise) e.premise = lowerPremise(*s.premise, pb);
        break;
      case SK::Assumed: {
        e.kind = ir::EdgeKind::Assumed;
        e.cond = ex_.lower(*s.cond);
        e.assumedId = assumedVar(s.name, pb);
        // a := a && e (ICSE'16 §2.1): the id records whether every assumption it names held.
        e.assigns.push_back(
            {varExpr(e.assumedId),
             prog_.exprs->mk(Op::And, prog_.types->boolType(), {varExpr(e.assumedId), e.cond})});
        break;
      }
      case SK::CallStmt:
        if (callStep(*s.cond)) {
          std::string t = e.text;
          e = makeCall(*s.cond, nullptr, pb);
          e.text = t;
        } else if (s.cond->type && s.cond->type->kind != TypeKind::Void) {
          // A native or @concrete call for its effect on errors: its value goes to a hidden local.
          ir::Cfa& c = prog_.cfas[pb.cfa];
          ir::VarId v = addHidden("discard", s.cond->type, ir::VarScope::Local, pb.cfa,
                                  static_cast<uint32_t>(c.locals.size()));
          c.locals.push_back(v);
          e.assigns.push_back({varExpr(v), ex_.lower(*s.cond)});
        } else if (s.cond->ref == ast::RefKind::Proc) {  // a void @concrete procedure: run it
          std::string t = e.text;
          e = makeCall(*s.cond, nullptr, pb);
          e.text = t;
        }
        break;
      case SK::Skip:
        break;
      case SK::Send:
      case SK::Receive: {
        auto [ch, index] = channelOf(*s.cond);
        std::vector<ExprRef> items;
        for (auto& x : s.kind == SK::Send ? s.rhs : s.lhs) items.push_back(ex_.lower(*x));
        if (s.kind == SK::Send)
          channels_.send(ch, index, items, e);
        else
          channels_.receive(ch, index, items, s.matches, e);
        break;
      }
      default:
        assert(false && "statement kind has no step");
        break;
    }
  }

  // Each `assumed e as a` records in a hidden boolean local `a`, true on entry, whether e held
  // every time the statement ran (Christakis, Mueller, Wuestholz, ICSE'16 §2.1: `a := a && e`),
  // so `verified` premises are ordinary boolean expressions over the procedure's state.
  ir::VarId assumedVar(const std::string& name, const Pending& pb) {
    auto key = std::make_pair(pb.cfa, name);
    auto it = assumed_.find(key);
    if (it != assumed_.end()) return it->second;
    ir::Cfa& c = prog_.cfas[pb.cfa];
    ir::VarId v = addHidden(name, prog_.types->boolType(), ir::VarScope::Local, pb.cfa,
                            static_cast<uint32_t>(c.locals.size()));
    c.locals.push_back(v);
    c.entryInits.push_back({varExpr(v), prog_.exprs->trueExpr()});
    prog_.assumedNames.push_back(name);
    return assumed_[key] = v;
  }

  ExprRef lowerPremise(const ast::Expr& p, const Pending& pb) {
    auto& em = *prog_.exprs;
    switch (p.kind) {
      case EK::BoolLit:
        return em.boolConst(p.boolValue);
      case EK::Name:
        return varExpr(assumedVar(p.name, pb));
      case EK::Unary:
        return em.mk(Op::Not, prog_.types->boolType(), {lowerPremise(*p.args[0], pb)});
      case EK::Binary: {
        Op op = p.binop == ast::BinOp::And  ? Op::And
                : p.binop == ast::BinOp::Or ? Op::Or
                                            : Op::Implies;
        return em.mk(op, prog_.types->boolType(),
                     {lowerPremise(*p.args[0], pb), lowerPremise(*p.args[1], pb)});
      }
      default:
        return em.falseExpr();
    }
  }

  void lowerRules() {
    if (ast_.rules.empty()) return;
    ir::CfaId id = newCfa("rules", ir::CfaKind::Rules);
    ir::Location l;
    l.id = static_cast<ir::LocId>(prog_.locs.size());
    l.cfa = id;
    l.isEntry = true;
    prog_.locs.push_back(l);
    prog_.cfas[id].locs.push_back(l.id);
    prog_.cfas[id].entry = l.id;
    prog_.rules = id;
    for (auto& r : ast_.rules) {
      ir::Edge e;
      e.from = e.to = l.id;
      e.guard = r.guard ? ex_.lower(*r.guard) : nullptr;
      for (size_t i = 0; i < r.lhs.size(); ++i)
        e.assigns.push_back(
            {ex_.lower(*r.lhs[i]), r.rhs[i]->kind == EK::Star ? nullptr : ex_.lower(*r.rhs[i])});
      e.loc = r.loc;
      e.text = "rule " + r.name;
      prog_.edges.push_back(std::move(e));
    }
  }

  void lowerTopLevel() {
    for (auto& i : ast_.inits) prog_.inits.push_back(ex_.lower(*i.expr));
    for (auto& p : ast_.predicates) prog_.predicates.push_back(ex_.lower(*p.expr));
    prog_.declaredPredicates = !ast_.predicates.empty();
    for (const auto& [cfa, preds] : predicateExprs_)
      prog_.declaredPredicates = prog_.declaredPredicates || !preds.empty();
    for (const auto& cd : ast_.classes)
      prog_.declaredPredicates = prog_.declaredPredicates || !cd->predicates.empty();
    for (auto& inv : ast_.invariants)
      prog_.invariants.push_back({inv.name, ex_.lower(*inv.expr), inv.loc});
    for (auto& t : ast_.tests) {
      ir::Test test;
      test.isState = t.isState;
      test.target = t.target;
      test.loc = t.loc;
      if (t.isState) {
        for (size_t i = 0; i < t.names.size(); ++i) {
          const auto& g = std::find_if(ast_.globals.begin(), ast_.globals.end(),
                                       [&](auto& d) { return d->name == t.names[i]; });
          test.state.push_back({varExpr(ex_.varIds.at((*g)->var.get())), ex_.lower(*t.values[i])});
        }
      } else {
        auto p = ex_.procCfa.find(t.target);
        if (p != ex_.procCfa.end())
          test.cfa = p->second;
        else if (ex_.methodCfa.count(t.target) && ex_.methodCfa[t.target].count("init"))
          test.cfa = ex_.methodCfa[t.target]["init"];
        for (auto& a : t.args) test.args.push_back(ex_.lower(*a));
      }
      prog_.tests.push_back(std::move(test));
    }
  }

  // Out-edge lists, loop heads (targets of DFS back edges) and the cutpoint flags.
  // A class invariant holds where init and each method end: an Assert edge of kind Invariant per
  // invariant between the body's last location and a new exit. In the IR, so that every engine
  // (concrete, symbolic, prove, cover, export-chc) checks it as it checks assertions.
  void assertClassInvariants() {
    for (ir::CfaId id = 0; id < prog_.cfas.size(); ++id) {
      ir::Cfa& c = prog_.cfas[id];
      if ((c.kind != ir::CfaKind::ClassInit && c.kind != ir::CfaKind::Method) ||
          c.exit == ir::kNone)
        continue;
      const ir::ClassInfo& cls = prog_.classes[c.classIndex];
      for (size_t i = 0; i < cls.invariants.size(); ++i) {
        const ir::Property& inv = cls.invariants[i];
        ir::Location l;
        l.id = static_cast<ir::LocId>(prog_.locs.size());
        l.cfa = id;
        l.loc = prog_.locs[c.exit].loc;
        ir::Edge e;
        e.kind = ir::EdgeKind::Assert;
        e.from = c.exit;
        e.to = l.id;
        e.cond = inv.expr;
        e.errorKind = ir::ErrorKind::Invariant;
        e.loc = inv.loc;
        e.text = cls.invariantTexts[i];
        prog_.locs[c.exit].isExit = false;
        l.isExit = true;
        prog_.locs.push_back(std::move(l));
        c.locs.push_back(prog_.locs.back().id);
        c.exit = prog_.locs.back().id;
        prog_.edges.push_back(std::move(e));
      }
    }
  }

  // `e` with each variable of `with` replaced (a callee's parameters by the call's arguments).
  ExprRef substitute(ExprRef e, const std::map<ir::VarId, ExprRef>& with) {
    if (e->op == Op::Var) {
      auto it = with.find(e->payload);
      return it == with.end() ? e : it->second;
    }
    // old(x) of a parameter copied on entry is the copy (the copy never changes).
    if (e->op == Op::Old && e->kid(0)->op == Op::Var && with.count(e->kid(0)->payload))
      return with.at(e->kid(0)->payload);
    if (e->kids.empty()) return e;
    std::vector<ExprRef> kids;
    for (ExprRef k : e->kids) kids.push_back(substitute(k, with));
    return prog_.exprs->mk(e->op, e->type, std::move(kids), e->payload, e->value);
  }

  ir::LocId newLocation(ir::CfaId cfa, SourceLoc loc) {
    ir::Location l;
    l.id = static_cast<ir::LocId>(prog_.locs.size());
    l.cfa = cfa;
    l.loc = loc;
    prog_.locs.push_back(std::move(l));
    prog_.cfas[cfa].locs.push_back(prog_.locs.back().id);
    return prog_.locs.back().id;
  }

  // Contracts (requires/ensures) in the IR, so every engine checks them as assertions:
  // - `ensures e`: an Assert edge where the body ends (after `result` is set);
  // - `requires e`: assumed on entry (the analysis of the procedure itself starts from the
  //   states that satisfy it), and asserted before every call of it, with the arguments for the
  //   parameters (a method's fields are those of the same object: methods call methods of
  //   `this` only).
  void lowerContractEdges() {
    for (auto& [cfa, list] : ensures_) {
      ir::Cfa& c = prog_.cfas[cfa];
      if (c.exit == ir::kNone) continue;
      for (const Contract& k : list) {
        ir::LocId next = newLocation(cfa, prog_.locs[c.exit].loc);
        ir::Edge e;
        e.kind = ir::EdgeKind::Assert;
        e.from = prog_.cfas[cfa].exit;
        e.to = next;
        e.cond = k.cond;
        e.loc = k.loc;
        e.text = "ensures " + k.text;
        prog_.locs[e.from].isExit = false;
        prog_.locs[next].isExit = true;
        prog_.cfas[cfa].exit = next;
        prog_.edges.push_back(std::move(e));
      }
    }
    for (auto& [cfa, list] : requires_) {
      if (list.empty()) continue;
      // A new entry location, whose step assumes the preconditions: the labels stay where the
      // body starts.
      const ir::LocId body = prog_.cfas[cfa].entry;
      ir::LocId entry = newLocation(cfa, prog_.locs[body].loc);
      std::vector<ExprRef> conds;
      std::string text;
      for (const Contract& k : list) {
        conds.push_back(k.cond);
        text += (text.empty() ? "requires " : " && ") + k.text;
      }
      ir::Edge e;
      e.from = entry;
      e.to = body;
      e.guard = prog_.exprs->mkAnd(conds);
      e.loc = list.front().loc;
      e.text = text;
      prog_.locs[body].isEntry = false;
      prog_.locs[entry].isEntry = true;
      prog_.cfas[cfa].entry = entry;
      prog_.edges.push_back(std::move(e));
    }
    const size_t edges = prog_.edges.size();
    for (ir::EdgeId i = 0; i < edges; ++i) {
      if (prog_.edges[i].kind != ir::EdgeKind::Call) continue;
      auto it = requires_.find(prog_.edges[i].callee);
      if (it == requires_.end()) continue;
      const ir::CfaId callee = prog_.edges[i].callee;
      const ir::CfaId caller = prog_.locs[prog_.edges[i].from].cfa;
      std::map<ir::VarId, ExprRef> args;
      for (size_t a = 0; a < prog_.cfas[callee].params.size() && a < prog_.edges[i].args.size();
           ++a)
        args[prog_.cfas[callee].params[a]] = prog_.edges[i].args[a];
      const std::string name = prog_.cfas[callee].kind == ir::CfaKind::ClassInit
                                   ? prog_.classes[prog_.cfas[callee].classIndex].name
                                   : prog_.cfas[callee].name;
      for (const Contract& k : it->second) {
        ir::LocId next = newLocation(caller, prog_.edges[i].loc);
        ir::Edge a;
        a.kind = ir::EdgeKind::Assert;
        a.from = prog_.edges[i].from;
        a.to = next;
        a.cond = substitute(k.cond, args);
        a.loc = prog_.edges[i].loc;
        a.text = "requires of " + name + ": " + k.text;
        prog_.edges[i].from = next;
        prog_.edges.push_back(std::move(a));
      }
    }
  }

  void finish() {
    lowerContractEdges();
    assertClassInvariants();
    for (ir::EdgeId i = 0; i < prog_.edges.size(); ++i) {
      const ir::Edge& e = prog_.edges[i];
      prog_.locs[e.from].out.push_back(i);
      if (e.kind == ir::EdgeKind::Call) {
        prog_.locs[e.from].callSite = true;
        prog_.locs[e.to].afterCall = true;
      }
      if (e.kind == ir::EdgeKind::Assert) prog_.locs[e.from].property = true;
    }
    for (auto& c : prog_.cfas) {
      if (c.kind != ir::CfaKind::Process && c.kind != ir::CfaKind::Rules && c.exit != ir::kNone) {
        ir::Edge ret;  // back to the caller, when there is one
        ret.kind = ir::EdgeKind::Return;
        ret.from = c.exit;
        ret.loc = prog_.locs[c.exit].loc;
        ret.text = "return to caller";
        prog_.edges.push_back(ret);
        prog_.locs[c.exit].out.push_back(static_cast<ir::EdgeId>(prog_.edges.size() - 1));
      }
    }
    markLoopHeads();
  }

  // A back edge's target is a loop head. The depth-first search keeps its own stack: a
  // straight-line procedure of N statements is a path of N locations, and a recursive walk
  // overflowed the call stack at about 150,000 of them.
  void markLoopHeads() {
    std::vector<uint8_t> state(prog_.locs.size(), 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::pair<ir::LocId, size_t>> stack;   // a location and its next out edge
    for (const auto& c : prog_.cfas) {
      if (c.entry == ir::kNone || state[c.entry] != 0) continue;
      state[c.entry] = 1;
      stack.emplace_back(c.entry, 0);
      while (!stack.empty()) {
        auto& [l, next] = stack.back();
        const auto& out = prog_.locs[l].out;
        if (next == out.size()) {
          state[l] = 2;
          stack.pop_back();
          continue;
        }
        const ir::Edge& e = prog_.edges[out[next++]];
        if (e.kind == ir::EdgeKind::Return) continue;
        if (state[e.to] == 1) {
          prog_.locs[e.to].loopHead = true;
        } else if (state[e.to] == 0) {
          state[e.to] = 1;
          stack.emplace_back(e.to, 0);
        }
      }
    }
  }

  const ast::Program& ast_;
  ir::Program& prog_;
  Diagnostics& diags_;
  ExprLowerer ex_;
  ir::ChannelLowering channels_;
  std::vector<Pending> pending_;
  std::vector<const std::vector<ast::StmtPtr>*> bodies_;
  std::vector<const ast::ProcDecl*> procDecls_;
  std::map<ir::CfaId, const ast::ProcDecl*> contractDecls_;  // procedures with contracts
  std::map<ir::CfaId, std::vector<Contract>> requires_, ensures_;
  std::map<const ast::ProcDecl*, TypeRef> returnTypes_;
  std::map<ir::CfaId, std::vector<const ast::Expr*>> predicateExprs_;
  std::map<std::pair<ir::CfaId, std::string>, ir::VarId> assumed_;
  std::vector<std::unique_ptr<ast::ProcDecl>> synthesized_;
};

}  // namespace
}  // namespace lower

std::unique_ptr<ir::Program> lowerProgram(const ast::Program& ast, std::unique_ptr<TypeTable> types,
                                          Diagnostics& diags) {
  auto prog = std::make_unique<ir::Program>();
  prog->types = std::move(types);
  prog->exprs = std::make_unique<ExprManager>(*prog->types);
  lower::Lowerer l(ast, *prog, diags);
  if (!l.run()) return nullptr;
  return prog;
}

}  // namespace tandem
