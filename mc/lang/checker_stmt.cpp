// Type checker: statements, lvalues, labels.
#include "mc/lang/checker_impl.h"

namespace tandem::check {

using SK = ast::Stmt::Kind;
using EK = ast::Expr::Kind;

void Checker::collectLabels(std::vector<ast::StmtPtr>& body) {
  for (auto& s : body) {
    for (size_t i = 0; i < s->labels.size(); ++i)
      if (!body_->labels.insert(s->labels[i]).second)
        error(i < s->labelLocs.size() ? s->labelLocs[i] : s->loc,
              "duplicate label '" + s->labels[i] + "'");
    if (s->kind == SK::Assumed && !body_->assumedIds.insert(s->name).second)
      error(s->loc, "duplicate 'assumed' name '" + s->name + "'");
    collectLabels(s->body);
  }
}

void Checker::checkBlock(std::vector<ast::StmtPtr>& body) {
  scopes_.emplace_back();
  for (auto& s : body) checkStmt(*s);
  scopes_.pop_back();
}

void Checker::checkBranchCond(ast::Expr& cond, const char* what) {
  if (cond.kind != EK::Star)
    checkCond(cond, what);
  else
    cond.type = types_.boolType();
}

void Checker::checkStmt(ast::Stmt& s) {
  switch (s.kind) {
    case SK::VarDecl:
      checkVarDecl(s);
      break;
    case SK::Assign:
      checkAssign(s);
      break;
    case SK::Havoc:
      for (auto& l : s.lhs) {
        checkExpr(*l);
        checkLvalue(*l);
      }
      break;
    case SK::If:
      checkBranchCond(*s.cond, "'if' condition");
      for (auto& b : s.body) {
        scopes_.emplace_back();
        checkStmt(*b);
        scopes_.pop_back();
      }
      break;
    case SK::While:
      checkBranchCond(*s.cond, "'while' condition");
      ++body_->loopDepth;
      for (auto& b : s.body) {
        scopes_.emplace_back();
        checkStmt(*b);
        scopes_.pop_back();
      }
      --body_->loopDepth;
      break;
    case SK::Break:
      if (body_->loopDepth == 0) error(s.loc, "'break' outside a loop");
      break;
    case SK::Continue:
      if (body_->loopDepth == 0) error(s.loc, "'continue' outside a loop");
      break;
    case SK::Goto:
      for (size_t i = 0; i < s.targets.size(); ++i)
        if (!body_->labels.count(s.targets[i]))
          error(i < s.targetLocs.size() ? s.targetLocs[i] : s.loc,
                "unknown label '" + s.targets[i] + "' in 'goto'");
      break;
    case SK::Assume:
      checkCond(*s.cond, "'assume'");
      break;
    case SK::Assert:
      checkCond(*s.cond, "'assert'");
      if (s.premise) checkPremise(*s.premise);
      break;
    case SK::Assumed:
      checkCond(*s.cond, "'assumed'");
      break;
    case SK::Skip:
      break;
    case SK::Send:
    case SK::Receive:
      checkChannelOp(s);
      break;
    case SK::Await:
      if (!body_->process) error(s.loc, "'await' outside a process");
      checkCond(*s.cond, "'await'");
      break;
    case SK::Predicate:
      checkCond(*s.cond, "predicate");
      break;
    case SK::Return:
      if (body_->process) {
        if (s.cond) error(s.loc, "a process cannot return a value");
        break;
      }
      if (body_->returnType && !s.cond) {
        error(s.loc, "missing return value: '" + body_->owner + "' returns '" +
                         typeToString(body_->returnType) + "'");
      } else if (!body_->returnType && s.cond) {
        error(s.cond->loc, "'" + body_->owner + "' has no result type but returns a value");
      } else if (s.cond) {
        TypeRef t = s.cond->kind == EK::Call ? checkCallStmt(*s.cond, body_->returnType)
                                             : checkExpr(*s.cond, body_->returnType);
        if (t) coerce(*s.cond, body_->returnType, "return value");
      }
      break;
    case SK::CallStmt:
      if (s.cond->kind != EK::Call) {
        error(s.cond->loc, "'call' needs a procedure call");
        break;
      }
      checkCallStmt(*s.cond, nullptr);
      break;
    case SK::Atomic:
      if (!body_->process) error(s.loc, "'atomic' outside a process");
      ++body_->atomicDepth;
      checkBlock(s.body);
      --body_->atomicDepth;
      break;
    case SK::Block:
      checkBlock(s.body);
      break;
  }
}

void Checker::checkVarDecl(ast::Stmt& s) {
  TypeRef t = resolveType(s.declType.get());
  if (!s.rhs.empty() && s.rhs[0]) {
    ast::Expr& init = *s.rhs[0];
    if (init.kind == EK::Star) {
      init.type = t;
    } else if (init.kind == EK::Call || init.kind == EK::NewObject) {
      TypeRef it = checkCallStmt(init, t);
      if (t && it) coerce(init, t, "initialiser of '" + s.name + "'");
    } else {
      TypeRef it = checkExpr(init, t);
      if (t && it) coerce(init, t, "initialiser of '" + s.name + "'");
    }
  }
  auto v = std::make_unique<ast::VarInfo>();
  v->name = s.name;
  v->type = t;
  v->scope = body_->localScope;
  v->loc = s.loc;
  v->owner = body_->owner;
  v->index = static_cast<uint32_t>(body_->vars->size());
  auto& scope = scopes_.back();
  if (scope.count(s.name)) error(s.loc, "redeclaration of '" + s.name + "' in the same block");
  scope[s.name] = v.get();
  s.var = v.get();
  body_->vars->push_back(std::move(v));
}

void Checker::checkAssign(ast::Stmt& s) {
  if (s.lhs.size() != s.rhs.size()) {
    error(s.loc, "assignment of " + std::to_string(s.rhs.size()) + " values to " +
                     std::to_string(s.lhs.size()) + " targets");
    for (auto& l : s.lhs) checkExpr(*l);
    for (auto& r : s.rhs)
      if (r->kind != EK::Star) checkExpr(*r);
    return;
  }
  bool single = s.lhs.size() == 1;
  for (size_t i = 0; i < s.lhs.size(); ++i) {
    TypeRef lt = checkExpr(*s.lhs[i]);
    checkLvalue(*s.lhs[i]);
    ast::Expr& r = *s.rhs[i];
    if (r.kind == EK::Star) {
      r.type = lt;
      continue;
    }
    TypeRef rt = nullptr;
    if (single && (r.kind == EK::Call || r.kind == EK::NewObject))
      rt = checkCallStmt(r, lt);
    else
      rt = checkExpr(r, lt);
    if (lt && rt) coerce(r, lt, "assignment");
  }
}

// Lvalues: variables, array elements, object fields, dereferences.
bool Checker::checkLvalue(ast::Expr& e) {
  switch (e.kind) {
    case EK::Name:
      if (e.ref == ast::RefKind::Var) {
        if (e.var && body_ && body_->proc &&
            (e.var->scope == ast::VarScope::Global || e.var->scope == ast::VarScope::Field))
          writesState_[body_->proc] = true;
        return true;
      }
      if (e.ref == ast::RefKind::Const)
        error(e.loc, "cannot assign to constant '" + e.name + "'");
      else if (e.ref == ast::RefKind::EnumMember)
        error(e.loc, "cannot assign to enum member '" + e.name + "'");
      else if (e.ref == ast::RefKind::Pid)
        error(e.loc, "cannot assign to 'pid'");
      else if (e.ref != ast::RefKind::Unresolved)
        error(e.loc, "'" + e.name + "' is not assignable");
      return false;
    case EK::Index:
      if (e.args[0]->ref == ast::RefKind::Process) {
        error(e.loc, "expression is not assignable");
        return false;
      }
      return checkLvalue(*e.args[0]);
    case EK::Field:
      if (e.ref == ast::RefKind::Process || e.args[0]->ref == ast::RefKind::Process ||
          (e.args[0]->kind == EK::Index && e.args[0]->args[0]->ref == ast::RefKind::Process)) {
        error(e.loc, "cannot assign to another process's variable");
        return false;
      }
      if (body_ && body_->proc) writesState_[body_->proc] = true;
      return true;
    case EK::Unary:
      if (e.unop == ast::UnOp::Deref) {
        if (body_ && body_->proc) writesState_[body_->proc] = true;
        return true;
      }
      [[fallthrough]];
    default:
      error(e.loc, "expression is not assignable");
      return false;
  }
}

void Checker::checkPremise(ast::Expr& e) {
  e.type = types_.boolType();
  switch (e.kind) {
    case EK::BoolLit:
      return;
    case EK::Name:
      if (!body_->assumedIds.count(e.name))
        error(e.loc, "unknown 'assumed' name '" + e.name + "' in 'verified' premise");
      e.ref = ast::RefKind::Assumed;
      return;
    case EK::Unary:
      if (e.unop == ast::UnOp::Not) return checkPremise(*e.args[0]);
      break;
    case EK::Binary:
      if (e.binop == ast::BinOp::And || e.binop == ast::BinOp::Or ||
          e.binop == ast::BinOp::Implies) {
        checkPremise(*e.args[0]);
        checkPremise(*e.args[1]);
        return;
      }
      break;
    default:
      break;
  }
  error(e.loc, "a 'verified' premise is a boolean formula over 'assumed' names");
}

TypeRef Checker::checkCallStmt(ast::Expr& call, TypeRef expected) {
  if (call.kind == EK::NewObject) {
    allowNewObject_ = true;
    TypeRef t = checkExpr(call, expected);
    allowNewObject_ = false;
    return t;
  }
  // A procedure or method in statement position is a call step; anything else is an expression.
  if (!lookupLocal(call.name)) {
    if (body_ && body_->cls) {
      if (auto* m = findMethod(body_->cls, call.name)) {
        call.ref = ast::RefKind::Method;
        checkArgs(call, m->params, call.name);
        if (body_->proc) writesState_[body_->proc] = true;
        call.type = m->returnType ? resolveType(m->returnType.get()) : types_.voidType();
        return call.type;
      }
    }
    auto g = lookupGlobal(call.name);
    if (g && g->kind == GlobalSym::Kind::Proc) {
      auto& p = *prog_.procs[g->index];
      call.ref = ast::RefKind::Proc;
      checkArgs(call, p.params, call.name);
      if (body_ && body_->proc) callsProcs_[body_->proc].insert(&p);
      call.type = p.returnType ? resolveType(p.returnType.get()) : types_.voidType();
      if (expected && !p.returnType) {
        error(call.loc, "procedure '" + call.name + "' returns no value");
        return nullptr;
      }
      return call.type;
    }
  }
  return call.type = checkCall(call, expected, true);
}

}  // namespace tandem::check
