// Type checker: expressions, calls, builtins, process references.
#include <array>

#include "mc/expr/bigint.h"
#include "mc/expr/float64.h"
#include "mc/lang/checker_impl.h"

namespace tandem::check {

using EK = ast::Expr::Kind;
using RK = ast::RefKind;

namespace {

// Built-in natives callable without a declaration (int -> int); a user declaration shadows them.
constexpr std::array<std::pair<const char*, unsigned>, 7> kBuiltinNatives = {
    {{"isqrt", 1}, {"ipow", 2}, {"gcd", 2}, {"hash1", 1}, {"hash2", 1}, {"hash", 1}, {"ihash", 1}}};

bool isBuiltinFunction(const std::string& n) {
  return n == "abs" || n == "min" || n == "max" || n == "len" || n == "old" ||
         n == "no_overflow_add" || n == "no_overflow_mul" || n == "int" || n == "i32" ||
         n == "i64" || n == "f64";
}

}  // namespace

std::string binOpText(ast::BinOp op) {
  switch (op) {
    case ast::BinOp::Add:
      return "+";
    case ast::BinOp::Sub:
      return "-";
    case ast::BinOp::Mul:
      return "*";
    case ast::BinOp::Div:
      return "/";
    case ast::BinOp::Mod:
      return "%";
    case ast::BinOp::Eq:
      return "==";
    case ast::BinOp::Ne:
      return "!=";
    case ast::BinOp::Lt:
      return "<";
    case ast::BinOp::Le:
      return "<=";
    case ast::BinOp::Gt:
      return ">";
    case ast::BinOp::Ge:
      return ">=";
    case ast::BinOp::And:
      return "&&";
    case ast::BinOp::Or:
      return "||";
    case ast::BinOp::Implies:
      return "==>";
  }
  return "?";
}

ast::VarInfo* Checker::lookupLocal(const std::string& name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  if (body_ && body_->cls)
    for (auto& f : body_->cls->fields)
      if (f->name == name && f->var) return f->var.get();
  return nullptr;
}

const GlobalSym* Checker::lookupGlobal(const std::string& name) const {
  auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : &it->second;
}

ast::ProcDecl* Checker::findMethod(ast::ClassDecl* cls, const std::string& name) {
  for (auto& m : cls->methods)
    if (m->name == name) return m.get();
  return nullptr;
}

TypeRef Checker::checkCond(ast::Expr& e, const char* what) {
  TypeRef t = checkExpr(e, types_.boolType());
  if (t && t != types_.boolType()) {
    error(e.loc, std::string(what) + " must be 'bool', got '" + typeToString(t) + "'");
    return nullptr;
  }
  return t;
}

bool Checker::isIntLiteral(const ast::Expr& e) const {
  if (e.kind == EK::IntLit) return true;
  if (e.kind == EK::Unary && e.unop == ast::UnOp::Neg) return isIntLiteral(*e.args[0]);
  if (e.kind == EK::Name && e.ref == RK::Const && e.type && e.type->kind == TypeKind::Int)
    return true;
  return false;
}

namespace {
// The exact value of an integer literal expression (digits, negation, integer constants).
std::optional<BigInt> literalValue(const ast::Expr& e) {
  if (e.kind == EK::IntLit) return BigInt::parse(e.text);
  if (e.kind == EK::Unary && e.unop == ast::UnOp::Neg)
    if (auto v = literalValue(*e.args[0])) return -*v;
  if (e.kind == EK::Name && e.ref == RK::Const) return BigInt::parse(e.constText);
  return std::nullopt;
}
void retype(ast::Expr& e, TypeRef t) {
  e.type = t;
  if (e.kind == EK::Unary) retype(*e.args[0], t);
}
}  // namespace

bool Checker::coerce(ast::Expr& e, TypeRef target, const std::string& what) {
  if (!target || !e.type) return false;
  if (e.type == target || assignable(target, e.type)) return true;
  if (target->isBitVector() && e.type->kind == TypeKind::Int && isIntLiteral(e)) {
    auto v = literalValue(e);
    if (v && v->fitsIn(target->bitWidth())) {
      retype(e, target);
      return true;
    }
    error(e.loc, "integer literal out of range for '" + typeToString(target) + "'");
    return false;
  }
  if (target->kind == TypeKind::Array && e.kind == EK::ArrayLit && target->elem) {
    bool ok = true;
    for (auto& a : e.args) ok = coerce(*a, target->elem, what) && ok;
    if (ok && (target->length < 0 || target->length == static_cast<int64_t>(e.args.size()))) {
      e.type = types_.arrayOf(target->elem, static_cast<int64_t>(e.args.size()));
      return true;
    }
  }
  error(e.loc, "type mismatch in " + what + ": expected '" + typeToString(target) + "', got '" +
                   typeToString(e.type) + "'");
  return false;
}

TypeRef Checker::checkExpr(ast::Expr& e, TypeRef expected) {
  switch (e.kind) {
    case EK::IntLit:
      e.type = types_.intType();
      if (expected && expected->isBitVector()) coerce(e, expected, "literal");
      return e.type;
    case EK::FloatLit:
      if (!f64::parse(e.text)) error(e.loc, "malformed f64 literal '" + e.text + "'");
      return e.type = types_.f64Type();
    case EK::BoolLit:
      return e.type = types_.boolType();
    case EK::Null:
      return e.type = types_.nullType();
    case EK::Star:
      error(e.loc,
            "'*' (a nondeterministic value) is only allowed as a whole right-hand side "
            "or as an 'if'/'while' condition");
      return e.type = nullptr;
    case EK::Name:
      return e.type = checkName(e);
    case EK::Unary:
      return e.type = checkUnary(e, expected);
    case EK::Binary:
      return e.type = checkBinary(e, expected);
    case EK::Cond: {
      checkCond(*e.args[0], "condition of '?:'");
      TypeRef a = checkExpr(*e.args[1], expected);
      TypeRef b = checkExpr(*e.args[2], expected ? expected : a);
      if (!a || !b) return e.type = nullptr;
      if (a != b) {
        if (isIntLiteral(*e.args[1]) && coerce(*e.args[1], b, "'?:'")) return e.type = b;
        if (coerce(*e.args[2], a, "'?:'")) return e.type = a;
        return e.type = nullptr;
      }
      return e.type = a;
    }
    case EK::Index: {
      if (processOf(*e.args[0], nullptr)) {
        error(e.loc, "process '" + e.args[0]->name + "' is not a value; use P[i]@L or P[i].v");
        return e.type = nullptr;
      }
      TypeRef a = checkExpr(*e.args[0]);
      TypeRef i = checkExpr(*e.args[1]);
      if (i && !i->isIntegral())
        error(e.args[1]->loc, "array index must be an integer, got '" + typeToString(i) + "'");
      if (!a) return e.type = nullptr;
      if (a->kind != TypeKind::Array) {
        error(e.loc, "cannot index a value of type '" + typeToString(a) + "'");
        return e.type = nullptr;
      }
      return e.type = a->elem;
    }
    case EK::Field:
      return e.type = checkField(e);
    case EK::AtLabel:
      return e.type = checkAtLabel(e);
    case EK::Call:
      return e.type = checkCall(e, expected, false);
    case EK::NewArray: {
      TypeRef elem = resolveType(e.elemType.get());
      TypeRef n = checkExpr(*e.args[0]);
      if (n && !n->isIntegral())
        error(e.args[0]->loc, "array length must be an integer, got '" + typeToString(n) + "'");
      return e.type = elem ? types_.arrayOf(elem, -1) : nullptr;
    }
    case EK::NewObject: {
      if (!allowNewObject_) {
        error(e.loc,
              "'new " + e.name + "(...)' must be the whole right-hand side of an assignment");
        return e.type = nullptr;
      }
      allowNewObject_ = false;  // not inside its own arguments
      auto g = lookupGlobal(e.name);
      if (!g || g->kind != GlobalSym::Kind::Class) {
        error(e.loc, "unknown class '" + e.name + "'");
        return e.type = nullptr;
      }
      auto& c = *prog_.classes[g->index];
      if (c.init)
        checkArgs(e, c.init->params, e.name);
      else if (!e.args.empty())
        error(e.loc, "class '" + e.name + "' has no init and takes no arguments");
      return e.type = types_.findClass(e.name);
    }
    case EK::ArrayLit: {
      TypeRef elemExp = expected && expected->kind == TypeKind::Array ? expected->elem : nullptr;
      TypeRef elem = elemExp;
      for (auto& a : e.args) {
        TypeRef t = checkExpr(*a, elem);
        if (!elem)
          elem = t;
        else if (t)
          coerce(*a, elem, "array literal");
      }
      if (!elem) {
        if (e.args.empty()) error(e.loc, "cannot infer the element type of an empty array literal");
        return e.type = nullptr;
      }
      return e.type = types_.arrayOf(elem, static_cast<int64_t>(e.args.size()));
    }
  }
  return nullptr;
}

TypeRef Checker::checkName(ast::Expr& e) {
  if (auto* v = lookupLocal(e.name)) {
    e.ref = RK::Var;
    e.var = v;
    return v->type;
  }
  if (e.name == "pid") {
    if (!body_ || !body_->process) {
      error(e.loc, "'pid' outside a process");
      return nullptr;
    }
    e.ref = RK::Pid;
    return types_.intType();
  }
  const GlobalSym* g = lookupGlobal(e.name);
  if (!g) {
    error(e.loc, "unknown name '" + e.name + "'");
    return nullptr;
  }
  switch (g->kind) {
    case GlobalSym::Kind::Var: {
      auto& decl = *prog_.globals[g->index];
      e.ref = RK::Var;
      e.var = decl.var.get();
      return decl.var ? decl.var->type : nullptr;
    }
    case GlobalSym::Kind::Const: {
      auto& c = prog_.consts[g->index];
      e.ref = RK::Const;
      if (c.value) {
        if (auto v = literalValue(*c.value))
          e.constText = v->toString();
        else if (c.value->kind == EK::BoolLit)
          e.constText = c.value->boolValue ? "true" : "false";
        else if (c.value->kind == EK::FloatLit)
          e.constText = c.value->text;
        else if (c.value->kind == EK::Unary && c.value->args[0]->kind == EK::FloatLit)
          e.constText = "-" + c.value->args[0]->text;  // checkConst allows only this negation
        if (auto v = foldConst(*c.value)) {
          e.constValue = *v;
          e.constText = std::to_string(*v);
        }
      }
      return g->type;
    }
    case GlobalSym::Kind::EnumMember:
      e.ref = RK::EnumMember;
      e.constValue = static_cast<long long>(g->index);
      return g->type;
    case GlobalSym::Kind::Process:
      e.ref = RK::Process;
      break;
    case GlobalSym::Kind::Chan:
      error(e.loc,
            "channel '" + e.name + "' can only be used in a send, a receive, len, empty or full");
      return nullptr;
    default:
      break;
  }
  error(e.loc, "'" + e.name + "' is not a value");
  return nullptr;
}

TypeRef Checker::checkUnary(ast::Expr& e, TypeRef expected) {
  ast::Expr& a = *e.args[0];
  switch (e.unop) {
    case ast::UnOp::Neg: {
      if (isIntLiteral(a) && expected && expected->isBitVector()) {
        // `-2147483648` fits i32 though `2147483648` does not: coerce the negation as a whole.
        checkExpr(a, nullptr);
        e.type = a.type;
        coerce(e, expected, "literal");
        return e.type;
      }
      TypeRef t = checkExpr(a, expected);
      if (t && !t->isIntegral() && t->kind != TypeKind::F64) {
        error(e.loc, "operator '-' expects a number, got '" + typeToString(t) + "'");
        return nullptr;
      }
      return t;
    }
    case ast::UnOp::Not:
      return checkCond(a, "operand of '!'");
    case ast::UnOp::Deref: {
      TypeRef t = checkExpr(a);
      if (t && t->kind != TypeKind::Ref) {
        error(e.loc, "cannot dereference a value of type '" + typeToString(t) + "'");
        return nullptr;
      }
      return t ? t->elem : nullptr;
    }
    case ast::UnOp::AddrOf: {
      TypeRef t = checkExpr(a);
      bool lv = (a.kind == EK::Name && a.ref == RK::Var) || a.kind == EK::Index ||
                (a.kind == EK::Field && a.ref != RK::Process) ||
                (a.kind == EK::Unary && a.unop == ast::UnOp::Deref);
      if (!lv) {
        error(e.loc, "'&' needs a variable, array element or field");
        return nullptr;
      }
      return t ? types_.refTo(t) : nullptr;
    }
  }
  return nullptr;
}

TypeRef Checker::checkBinary(ast::Expr& e, TypeRef expected) {
  using B = ast::BinOp;
  std::string op = binOpText(e.binop);
  if (e.binop == B::And || e.binop == B::Or || e.binop == B::Implies) {
    TypeRef a = checkCond(*e.args[0], ("operand of '" + op + "'").c_str());
    TypeRef b = checkCond(*e.args[1], ("operand of '" + op + "'").c_str());
    return a && b ? types_.boolType() : nullptr;
  }
  bool arith = e.binop == B::Add || e.binop == B::Sub || e.binop == B::Mul || e.binop == B::Div ||
               e.binop == B::Mod;
  TypeRef hint = arith ? expected : nullptr;
  TypeRef a = checkExpr(*e.args[0], hint);
  TypeRef b = checkExpr(*e.args[1], hint ? hint : a);
  if (!a || !b) return nullptr;
  // Integer literals take the type of the other operand (so `x + 1` works for i32 x).
  if (a != b) {
    if (b->isBitVector() && isIntLiteral(*e.args[0]))
      a = coerce(*e.args[0], b, "operand") ? b : a;
    else if (a->isBitVector() && isIntLiteral(*e.args[1]))
      b = coerce(*e.args[1], a, "operand") ? a : b;
  }
  bool eq = e.binop == B::Eq || e.binop == B::Ne;
  // f64 never mixes with another type implicitly: the conversions f64(e) and int(e) say which
  // rounding the model means.
  const bool fa = a->kind == TypeKind::F64, fb = b->kind == TypeKind::F64;
  if (fa != fb) {
    error(e.loc, "operator '" + op + "' mixes '" + typeToString(a) + "' and '" + typeToString(b) +
                     "': convert with f64(e) or int(e)");
    return nullptr;
  }
  if (fa) {
    if (e.binop == B::Mod) {
      error(e.loc, "operator '%' is not defined on f64");
      return nullptr;
    }
    return arith ? a : types_.boolType();
  }
  // Array equality compares values as the state store does (f64 by bits); on f64 elements that
  // would differ from IEEE `==` (-0.0, NaN), so the model compares the elements itself.
  if (eq && a->kind == TypeKind::Array) {
    TypeRef elem = a->elem;
    while (elem && elem->kind == TypeKind::Array) elem = elem->elem;
    if (elem && elem->kind == TypeKind::F64) {
      error(e.loc, "operator '" + op + "' on arrays of f64 is not defined: compare the elements");
      return nullptr;
    }
  }
  if (arith || !eq) {
    if (!a->isIntegral() || !b->isIntegral()) {
      error(e.loc, "operator '" + op + "' expects integer operands, got '" + typeToString(a) +
                       "' and '" + typeToString(b) + "'");
      return nullptr;
    }
  }
  if (a != b && !(eq && (assignable(a, b) || assignable(b, a)))) {
    error(e.loc, "operator '" + op + "' has mismatched operand types '" + typeToString(a) +
                     "' and '" + typeToString(b) + "'");
    return nullptr;
  }
  return arith ? a : types_.boolType();
}

void Checker::checkArgs(ast::Expr& call, const std::vector<ast::Param>& params,
                        const std::string& name) {
  if (call.args.size() != params.size()) {
    error(call.loc, "wrong number of arguments to '" + name + "': expected " +
                        std::to_string(params.size()) + ", got " +
                        std::to_string(call.args.size()));
    for (auto& a : call.args) checkExpr(*a);
    return;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    TypeRef pt = params[i].var ? params[i].var->type : resolveType(params[i].type.get());
    TypeRef at = checkExpr(*call.args[i], pt);
    if (pt && at)
      coerce(*call.args[i], pt, "argument " + std::to_string(i + 1) + " of '" + name + "'");
  }
}

TypeRef Checker::checkCall(ast::Expr& e, TypeRef expected, bool statementPosition) {
  if (lookupLocal(e.name)) {
    error(e.loc, "'" + e.name + "' is a variable, not a function");
    return nullptr;
  }
  if (body_ && body_->cls && findMethod(body_->cls, e.name)) {
    error(e.loc, "method '" + e.name + "' can only be called as a statement");
    return nullptr;
  }
  if (const GlobalSym* g = lookupGlobal(e.name)) {
    if (g->kind == GlobalSym::Kind::Proc) {
      auto& p = *prog_.procs[g->index];
      e.ref = RK::Proc;
      checkArgs(e, p.params, e.name);
      if (!statementPosition) {
        if (body_ && body_->proc) callsProcs_[body_->proc].insert(&p);
        exprCalls_.emplace_back(&p, &e);
      }
      if (!p.returnType) {
        error(e.loc, "procedure '" + e.name + "' returns no value");
        return nullptr;
      }
      return resolveType(p.returnType.get());
    }
    if (g->kind == GlobalSym::Kind::Native) {
      auto& n = prog_.natives[g->index];
      e.ref = RK::Native;
      checkArgs(e, n.params, e.name);
      return n.returnType ? resolveType(n.returnType.get()) : nullptr;
    }
    error(e.loc, "'" + e.name + "' is not a function");
    return nullptr;
  }
  if ((e.name == "empty" || e.name == "full" || e.name == "len") && e.args.size() == 1 &&
      (e.name != "len" || namesChannel(*e.args[0])))
    return checkChannelBuiltin(e);
  if (isBuiltinFunction(e.name)) return checkBuiltin(e, expected);
  for (auto& [name, arity] : kBuiltinNatives) {
    if (e.name != name) continue;
    e.ref = RK::Native;
    if (e.args.size() != arity) {
      error(e.loc, "wrong number of arguments to '" + e.name + "': expected " +
                       std::to_string(arity) + ", got " + std::to_string(e.args.size()));
      return nullptr;
    }
    for (auto& a : e.args) {
      TypeRef t = checkExpr(*a, types_.intType());
      if (t) coerce(*a, types_.intType(), "argument of '" + e.name + "'");
    }
    return types_.intType();
  }
  if (const f64::MathFunction* f = f64::findMathFunction(e.name)) {
    e.ref = RK::Native;  // f64 -> f64, run with the host's libm (NativeRegistry)
    if (e.args.size() != f->arity) {
      error(e.loc, "wrong number of arguments to '" + e.name + "': expected " +
                       std::to_string(f->arity) + ", got " + std::to_string(e.args.size()));
      return nullptr;
    }
    for (auto& a : e.args)
      if (checkExpr(*a, types_.f64Type()))
        coerce(*a, types_.f64Type(), "argument of '" + e.name + "'");
    return types_.f64Type();
  }
  error(e.loc, "unknown function '" + e.name + "'");
  for (auto& a : e.args) checkExpr(*a);
  return nullptr;
}

TypeRef Checker::checkBuiltin(ast::Expr& e, TypeRef expected) {
  e.ref = RK::Builtin;
  const std::string& n = e.name;
  unsigned arity =
      (n == "min" || n == "max" || n == "no_overflow_add" || n == "no_overflow_mul") ? 2 : 1;
  if (e.args.size() != arity) {
    error(e.loc, "wrong number of arguments to '" + n + "': expected " + std::to_string(arity) +
                     ", got " + std::to_string(e.args.size()));
    return nullptr;
  }
  if (n == "len") {
    TypeRef t = checkExpr(*e.args[0]);
    if (t && t->kind != TypeKind::Array) {
      error(e.args[0]->loc, "'len' needs an array, got '" + typeToString(t) + "'");
      return nullptr;
    }
    return types_.intType();
  }
  if (n == "old") {
    if (!body_ || !body_->proc) {
      error(e.loc, "'old' outside a procedure or method");
      return nullptr;
    }
    body_->proc->usesOld = true;
    return checkExpr(*e.args[0], expected);
  }
  if (n == "int" || n == "i32" || n == "i64" || n == "f64") {
    TypeRef t = checkExpr(*e.args[0]);
    if (t && !t->isIntegral() && t->kind != TypeKind::F64) {
      error(e.args[0]->loc, "'" + n + "' converts numbers, got '" + typeToString(t) + "'");
      return nullptr;
    }
    if (n == "f64") return types_.f64Type();
    return n == "int" ? types_.intType() : n == "i32" ? types_.i32Type() : types_.i64Type();
  }
  // abs, min, max, no_overflow_add, no_overflow_mul: integer operands of one type.
  bool pred = n.rfind("no_overflow", 0) == 0;
  TypeRef hint = pred ? nullptr : expected;
  TypeRef a = checkExpr(*e.args[0], hint);
  TypeRef t = a;
  if (arity == 2) {
    TypeRef b = checkExpr(*e.args[1], hint ? hint : a);
    if (a && b && a != b) {
      if (b->isBitVector() && isIntLiteral(*e.args[0]))
        t = coerce(*e.args[0], b, "argument") ? b : nullptr;
      else if (coerce(*e.args[1], a, "argument of '" + n + "'"))
        t = a;
      else
        t = nullptr;
    }
    if (!b) t = nullptr;
  }
  if (!t) return nullptr;
  if (!t->isIntegral()) {
    error(e.loc, "'" + n + "' expects integer arguments, got '" + typeToString(t) + "'");
    return nullptr;
  }
  return pred ? types_.boolType() : t;
}

ast::ProcessDecl* Checker::processOf(ast::Expr& e, ast::Expr** indexOut) {
  ast::Expr* base = &e;
  ast::Expr* index = nullptr;
  if (e.kind == EK::Index) {
    base = e.args[0].get();
    index = e.args[1].get();
  }
  if (base->kind != EK::Name || lookupLocal(base->name)) return nullptr;
  const GlobalSym* g = lookupGlobal(base->name);
  if (!g || g->kind != GlobalSym::Kind::Process) return nullptr;
  base->ref = RK::Process;
  if (indexOut) *indexOut = index;
  return prog_.processes[g->index].get();
}

TypeRef Checker::checkField(ast::Expr& e) {
  ast::Expr* index = nullptr;
  if (auto* p = processOf(*e.args[0], &index)) {
    if (index) {
      TypeRef it = checkExpr(*index);
      if (it && !it->isIntegral()) error(index->loc, "process index must be an integer");
    } else if (p->count) {
      error(e.loc, "process array '" + p->name + "' needs an index: " + p->name + "[i]." + e.name);
    }
    for (auto& v : p->vars)
      if (v->name == e.name) {
        e.ref = RK::Process;
        e.var = v.get();
        return v->type;
      }
    error(e.loc, "process '" + p->name + "' has no variable '" + e.name + "'");
    return nullptr;
  }
  TypeRef t = checkExpr(*e.args[0]);
  if (!t) return nullptr;
  if (t->kind != TypeKind::Class) {
    error(e.loc, "'.' needs an object or a process, got '" + typeToString(t) + "'");
    return nullptr;
  }
  int idx = t->fieldIndex(e.name);
  if (idx < 0) {
    error(e.loc, "class '" + t->name + "' has no field '" + e.name + "'");
    return nullptr;
  }
  e.constValue = idx;
  return t->fields[static_cast<size_t>(idx)].second;
}

TypeRef Checker::checkAtLabel(ast::Expr& e) {
  ast::Expr* index = nullptr;
  auto* p = processOf(*e.args[0], &index);
  if (!p) {
    error(e.args[0]->loc, "'@' needs a process name (P@L or P[i]@L)");
    return nullptr;
  }
  if (index) {
    TypeRef it = checkExpr(*index);
    if (it && !it->isIntegral()) error(index->loc, "process index must be an integer");
  } else if (p->count) {
    error(e.loc, "process array '" + p->name + "' needs an index: " + p->name + "[i]@" + e.name);
  }
  auto it = processLabels_.find(p->name);
  bool found = false;
  if (it != processLabels_.end())
    for (auto& l : it->second) found = found || l == e.name;
  if (!found) error(e.loc, "process '" + p->name + "' has no label '" + e.name + "'");
  e.ref = RK::Process;
  return types_.boolType();
}

}  // namespace tandem::check
