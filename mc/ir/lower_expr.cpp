// Lowering, phase 2: checked AST expressions to hash-consed IR expressions.
#include "mc/ir/lower_expr.h"

#include <cassert>

#include "mc/expr/float64.h"

namespace tandem::lower {

using EK = ast::Expr::Kind;
using RK = ast::RefKind;

namespace {
Op binOp(ast::BinOp op) {
  switch (op) {
    case ast::BinOp::Add:
      return Op::Add;
    case ast::BinOp::Sub:
      return Op::Sub;
    case ast::BinOp::Mul:
      return Op::Mul;
    case ast::BinOp::Div:
      return Op::Div;
    case ast::BinOp::Mod:
      return Op::Mod;
    case ast::BinOp::Eq:
      return Op::Eq;
    case ast::BinOp::Ne:
      return Op::Ne;
    case ast::BinOp::Lt:
      return Op::Lt;
    case ast::BinOp::Le:
      return Op::Le;
    case ast::BinOp::Gt:
      return Op::Gt;
    case ast::BinOp::Ge:
      return Op::Ge;
    case ast::BinOp::And:
      return Op::And;
    case ast::BinOp::Or:
      return Op::Or;
    case ast::BinOp::Implies:
      return Op::Implies;
  }
  return Op::Add;
}
}  // namespace

uint32_t ExprLowerer::calleeFor(bool native, uint32_t index) {
  auto key = std::make_pair(native, index);
  auto it = callees_.find(key);
  if (it != callees_.end()) return it->second;
  prog_.callees.push_back({native, index});
  return callees_[key] = static_cast<uint32_t>(prog_.callees.size() - 1);
}

// Built-in natives used without a declaration get a Native entry on first use.
uint32_t ExprLowerer::nativeFor(const std::string& name, const std::vector<TypeRef>& params,
                                TypeRef ret) {
  auto it = nativeIndex.find(name);
  if (it != nativeIndex.end()) return it->second;
  ir::Native n;
  n.name = name;
  n.params = params;
  n.returnType = ret;
  prog_.natives.push_back(std::move(n));
  return nativeIndex[name] = static_cast<uint32_t>(prog_.natives.size() - 1);
}

ExprRef ExprLowerer::lowerProcessRef(const ast::Expr& base, uint32_t& process) {
  const ast::Expr* name = base.kind == EK::Index ? base.args[0].get() : &base;
  process = processIndex.at(name->name);
  if (base.kind == EK::Index) return lower(*base.args[1]);
  return em_.intConst(BigInt(0));
}

ExprRef ExprLowerer::lower(const ast::Expr& e) {
  TypeRef t = e.type;
  switch (e.kind) {
    case EK::IntLit: {
      auto v = BigInt::parse(e.text);
      assert(v && "checked integer literal");
      return em_.intConst(*v, t);
    }
    case EK::FloatLit: {
      auto d = f64::parse(e.text);
      assert(d && "checked f64 literal");
      return em_.floatConst(*d);
    }
    case EK::BoolLit:
      return em_.boolConst(e.boolValue);
    case EK::Null:
      return em_.nullConst(t);
    case EK::Star:
      return em_.mk(Op::Star, t, {});
    case EK::Name:
      switch (e.ref) {
        case RK::Var:
          return em_.var(varIds.at(e.var), t);
        case RK::Const:
          if (t == prog_.types->boolType()) return em_.boolConst(e.constText == "true");
          if (t == prog_.types->f64Type()) return em_.floatConst(*f64::parse(e.constText));
          return em_.intConst(*BigInt::parse(e.constText), t);
        case RK::EnumMember:
          return em_.enumConst(t, static_cast<uint32_t>(e.constValue));
        case RK::Pid:
          return em_.mk(Op::Pid, t, {});
        default:
          assert(false && "unresolved name after checking");
          return em_.falseExpr();
      }
    case EK::Unary: {
      switch (e.unop) {
        case ast::UnOp::Neg:
          if (e.args[0]->kind == EK::IntLit)
            return em_.intConst(-*BigInt::parse(e.args[0]->text), t);
          if (e.args[0]->kind == EK::FloatLit)  // `-0.0` is a constant (IEEE negation)
            return em_.floatConst(-*f64::parse(e.args[0]->text));
          return em_.mk(Op::Neg, t, {lower(*e.args[0])});
        case ast::UnOp::Not:
          return em_.mk(Op::Not, t, {lower(*e.args[0])});
        case ast::UnOp::Deref:
          return em_.mk(Op::Deref, t, {lower(*e.args[0])});
        case ast::UnOp::AddrOf:
          return em_.mk(Op::AddrOf, t, {lower(*e.args[0])});
      }
      break;
    }
    case EK::Binary:
      return em_.mk(binOp(e.binop), t, {lower(*e.args[0]), lower(*e.args[1])});
    case EK::Cond:
      return em_.mk(Op::Ite, t, {lower(*e.args[0]), lower(*e.args[1]), lower(*e.args[2])});
    case EK::Index:
      return em_.mk(Op::Select, t, {lower(*e.args[0]), lower(*e.args[1])});
    case EK::Field: {
      if (e.ref == RK::Process) {
        uint32_t p = 0;
        ExprRef idx = lowerProcessRef(*e.args[0], p);
        return em_.mk(Op::ProcLocal, t, {idx}, p, BigInt(static_cast<int64_t>(varIds.at(e.var))));
      }
      return em_.mk(Op::Field, t, {lower(*e.args[0])}, static_cast<uint32_t>(e.constValue));
    }
    case EK::AtLabel: {
      uint32_t p = 0;
      ExprRef idx = lowerProcessRef(*e.args[0], p);
      const std::string& pname =
          e.args[0]->kind == EK::Index ? e.args[0]->args[0]->name : e.args[0]->name;
      ir::LocId loc = processLabels.at(pname).at(e.name);
      return em_.mk(Op::AtLoc, t, {idx}, p, BigInt(static_cast<int64_t>(loc)));
    }
    case EK::Call:
      return lowerCall(e);
    case EK::NewArray:
      return em_.mk(Op::NewArray, t, {lower(*e.args[0])});
    case EK::ArrayLit: {
      std::vector<ExprRef> kids;
      for (auto& a : e.args) kids.push_back(lower(*a));
      return em_.mk(Op::ArrayLit, t, std::move(kids));
    }
    case EK::NewObject:
      break;  // only as a whole right-hand side: a call step
  }
  assert(false && "expression kind not lowered here");
  return em_.falseExpr();
}

ExprRef ExprLowerer::lowerCall(const ast::Expr& e) {
  if (e.ref == RK::Builtin && e.args.size() == 1 && e.args[0]->ref == RK::Channel) {
    const ast::Expr& c = *e.args[0];
    auto ch = static_cast<uint32_t>(c.constValue);
    ExprRef index = c.kind == EK::Index ? lower(*c.args[1]) : nullptr;
    if (e.name == "len") return channels->length(ch, index);
    return e.name == "empty" ? channels->empty(ch, index) : channels->full(ch, index);
  }
  std::vector<ExprRef> args;
  for (auto& a : e.args) args.push_back(lower(*a));
  TypeRef t = e.type;
  if (e.ref == RK::Builtin) {
    const std::string& n = e.name;
    if (n == "abs") return em_.mk(Op::Abs, t, args);
    if (n == "min") return em_.mk(Op::Min, t, args);
    if (n == "max") return em_.mk(Op::Max, t, args);
    if (n == "len") return em_.mk(Op::Len, t, args);
    if (n == "old") return em_.mk(Op::Old, t, args);
    if (n == "no_overflow_add") return em_.mk(Op::NoOverflowAdd, t, args);
    if (n == "no_overflow_mul") return em_.mk(Op::NoOverflowMul, t, args);
    return em_.mk(Op::Cast, t, args);  // int(), i32(), i64(), f64()
  }
  if (e.ref == RK::Native) {
    std::vector<TypeRef> params;
    for (auto a : args) params.push_back(a->type);
    uint32_t n = nativeFor(e.name, params, t);
    return em_.mk(Op::Call, t, args, calleeFor(true, n));
  }
  assert(e.ref == RK::Proc && "a call inside an expression is a native, builtin or procedure");
  return em_.mk(Op::Call, t, args, calleeFor(false, procCfa.at(e.name)));
}

}  // namespace tandem::lower
