#include "mc/dve/lower_expr.h"

namespace tandem::dve {

using EK = Expr::Kind;

ExprLowerer::ExprLowerer(ir::Program& p, const Symbols& syms, Diagnostics& d)
    : p_(p), em_(*p.exprs), syms_(syms), diags_(d) {}

ExprRef ExprLowerer::condition(const Expr& e, const ProcSym* self) {
  self_ = self;
  return asBool(lower(e));
}

ExprRef ExprLowerer::value(const Expr& e, const ProcSym* self) {
  self_ = self;
  return asInt(lower(e));
}

std::optional<int64_t> ExprLowerer::constant(const Expr& e, const ProcSym* self,
                                             const std::string& what) {
  size_t before = diags_.errors().size();
  ExprRef v = value(e, self);
  if (diags_.errors().size() != before) return std::nullopt;
  if (v->op == Op::IntConst && v->value.fitsIn(63)) return v->value.toInt64();
  diags_.error(e.loc, what + " must be a constant expression");
  return std::nullopt;
}

std::optional<ir::Assignment> ExprLowerer::assignment(const Effect& eff, const ProcSym& self) {
  auto t = target(*eff.lhs, self, "an effect");
  if (!t) return std::nullopt;
  return ir::Assignment{t->first, wrap(asInt(lower(*eff.rhs)), t->second)};
}

std::optional<std::pair<ExprRef, bool>> ExprLowerer::target(const Expr& l, const ProcSym& self,
                                                            const std::string& what) {
  self_ = &self;
  const Expr* base = l.kind == EK::Index ? l.kids[0].get() : &l;
  if (base->kind == EK::ProcMember && base->name != self.name) {
    diags_.error(l.loc,
                 what + " cannot assign a variable of another process ('" + base->name + "')");
    return std::nullopt;
  }
  const std::string& n = base->kind == EK::ProcMember ? base->member : base->name;
  if (base->kind != EK::Name && base->kind != EK::ProcMember) {
    diags_.error(l.loc, "the target of " + what + " must be a variable or an array element");
    return std::nullopt;
  }
  const VarSym* v = lookupVar(n);
  if (!v) {
    bool isConst = lookupConst(n) != nullptr;
    diags_.error(base->loc, isConst ? "cannot assign to constant '" + n + "'"
                                    : "unknown variable '" + n + "'");
    return std::nullopt;
  }
  if (v->isConst) {
    diags_.error(base->loc, "cannot assign to constant '" + n + "'");
    return std::nullopt;
  }
  bool indexed = l.kind == EK::Index;
  if (indexed != (v->length >= 0)) {
    diags_.error(l.loc, indexed ? "'" + n + "' is not an array"
                                : "array '" + n + "' needs an index: " + n + "[i] = ...");
    return std::nullopt;
  }
  TypeRef vt = p_.vars[v->id].type;
  ExprRef lhs = em_.var(v->id, vt);
  if (indexed) lhs = em_.mk(Op::Select, p_.types->intType(), {lhs, asInt(lower(*l.kids[1]))});
  return std::make_pair(lhs, v->isByte);
}

int64_t ExprLowerer::wrapConstant(const BigInt& v, bool isByte) {
  if (isByte) return *BigInt::mod(v, BigInt(256)).toInt64();
  return *(BigInt::mod(v + BigInt(32768), BigInt(65536)) - BigInt(32768)).toInt64();
}

ExprRef ExprLowerer::wrap(ExprRef e, bool isByte) {
  if (auto c = constOf(e)) return em_.intConst(BigInt(wrapConstant(*c, isByte)));
  if (isByte) return rangeOf(e).within(0, 255) ? e : mk(Op::Mod, e, em_.intConst(BigInt(256)));
  if (rangeOf(e).within(-32768, 32767)) return e;
  ExprRef shifted =
      mk(Op::Mod, mk(Op::Add, e, em_.intConst(BigInt(32768))), em_.intConst(BigInt(65536)));
  return mk(Op::Sub, shifted, em_.intConst(BigInt(32768)));
}

// ---------------------------------------------------------------------------------------------
// Names.

const VarSym* ExprLowerer::lookupVar(const std::string& n) const {
  if (self_) {
    auto it = self_->locals.vars.find(n);
    if (it != self_->locals.vars.end()) return &it->second;
    if (self_->locals.consts.count(n)) return nullptr;  // a local constant shadows a global
  }
  auto it = syms_.globals.vars.find(n);
  return it == syms_.globals.vars.end() ? nullptr : &it->second;
}

const int64_t* ExprLowerer::lookupConst(const std::string& n) const {
  if (self_) {
    auto it = self_->locals.consts.find(n);
    if (it != self_->locals.consts.end()) return &it->second;
    if (self_->locals.vars.count(n)) return nullptr;
  }
  auto it = syms_.globals.consts.find(n);
  return it == syms_.globals.consts.end() ? nullptr : &it->second;
}

ExprRef ExprLowerer::lower(const Expr& e) {
  switch (e.kind) {
    case EK::Int:
      return em_.intConst(e.value);
    case EK::Bool:
      return em_.boolConst(e.value.sign() != 0);
    case EK::Name:
      return name(e);
    case EK::ProcMember:
      return member(e, false);
    case EK::Index:
      return index(e);
    case EK::Unary:
      return unary(e);
    case EK::Binary:
      return binary(e);
  }
  return bad();
}

ExprRef ExprLowerer::name(const Expr& e) {
  if (const int64_t* c = lookupConst(e.name)) return em_.intConst(BigInt(*c));
  if (const VarSym* v = lookupVar(e.name)) {
    if (v->length >= 0) {
      diags_.error(e.loc, "array '" + e.name + "' needs an index: " + e.name + "[i]");
      return bad();
    }
    return em_.var(v->id, p_.vars[v->id].type);
  }
  if (syms_.procs.count(e.name))
    diags_.error(e.loc, "process '" + e.name + "' is not a value; use " + e.name + ".state or " +
                            e.name + "->variable");
  else if (!self_)
    diags_.error(e.loc, "unknown constant '" + e.name + "'");
  else
    diags_.error(e.loc, "unknown name '" + e.name + "'");
  return bad();
}

ExprRef ExprLowerer::member(const Expr& e, bool indexed) {
  auto pit = syms_.procs.find(e.name);
  if (pit == syms_.procs.end()) {
    diags_.error(e.loc, "unknown process '" + e.name + "'");
    return bad();
  }
  const ProcSym& ps = pit->second;
  ExprRef instance = em_.intConst(BigInt(0));
  if (!e.arrow && !indexed) {
    auto s = ps.states.find(e.member);
    if (s != ps.states.end())
      return em_.mk(Op::AtLoc, p_.types->boolType(), {instance}, ps.index,
                    BigInt(static_cast<int64_t>(s->second)));
  }
  auto c = ps.locals.consts.find(e.member);
  if (c != ps.locals.consts.end() && !indexed) return em_.intConst(BigInt(c->second));
  auto v = ps.locals.vars.find(e.member);
  if (v == ps.locals.vars.end()) {
    diags_.error(e.memberLoc, "process '" + e.name + "' has no " +
                                  (e.arrow || indexed ? "variable '" : "state or variable '") +
                                  e.member + "'");
    return bad();
  }
  if ((v->second.length >= 0) != indexed) {
    diags_.error(e.memberLoc, indexed ? "'" + e.member + "' is not an array"
                                      : "array '" + e.member + "' needs an index");
    return bad();
  }
  ir::VarId id = v->second.id;
  TypeRef t = p_.vars[id].type;
  if (self_ && self_->index == ps.index) return em_.var(id, t);  // one of our own locals
  return em_.mk(Op::ProcLocal, t, {instance}, ps.index, BigInt(static_cast<int64_t>(id)));
}

ExprRef ExprLowerer::index(const Expr& e) {
  const Expr& base = *e.kids[0];
  ExprRef arr = nullptr;
  if (base.kind == EK::ProcMember) {
    arr = member(base, true);
  } else if (base.kind == EK::Name) {
    const VarSym* v = lookupVar(base.name);
    if (!v) {
      bool known = lookupConst(base.name) != nullptr;
      diags_.error(base.loc, known ? "'" + base.name + "' is not an array"
                                   : "unknown name '" + base.name + "'");
      return bad();
    }
    if (v->length < 0) {
      diags_.error(base.loc, "'" + base.name + "' is not an array");
      return bad();
    }
    arr = em_.var(v->id, p_.vars[v->id].type);
  } else {
    diags_.error(e.loc, "only arrays can be indexed");
    return bad();
  }
  ExprRef i = asInt(lower(*e.kids[1]));
  if (!arr->type || arr->type->kind != TypeKind::Array) return bad();  // reported above
  return em_.mk(Op::Select, p_.types->intType(), {arr, i});
}

// ---------------------------------------------------------------------------------------------
// Operators.

ExprRef ExprLowerer::unary(const Expr& e) {
  ExprRef a = lower(*e.kids[0]);
  switch (e.unop) {
    case UnOp::Not:
      return em_.mkNot(asBool(a));
    case UnOp::Neg: {
      a = asInt(a);
      if (auto c = constOf(a)) return em_.intConst(-*c);
      return em_.mk(Op::Neg, p_.types->intType(), {a});
    }
    case UnOp::BitNot: {  // ~x == -x - 1 in two's complement
      a = asInt(a);
      if (auto c = constOf(a)) return em_.intConst(-*c - BigInt(1));
      return mk(Op::Sub, em_.mk(Op::Neg, p_.types->intType(), {a}), em_.intConst(BigInt(1)));
    }
  }
  return bad();
}

ExprRef ExprLowerer::binary(const Expr& e) {
  ExprRef a = lower(*e.kids[0]);
  ExprRef b = lower(*e.kids[1]);
  switch (e.binop) {
    case BinOp::Or:
      return em_.mkOr(asBool(a), asBool(b));
    case BinOp::And:
      return em_.mkAnd(asBool(a), asBool(b));
    case BinOp::Imply: {
      ExprRef x = asBool(a), y = asBool(b);
      if (x->isConst() || y->isConst()) return em_.mkOr(em_.mkNot(x), y);
      return em_.mk(Op::Implies, p_.types->boolType(), {x, y});
    }
    case BinOp::Eq:
    case BinOp::Ne: {
      Op op = e.binop == BinOp::Eq ? Op::Eq : Op::Ne;
      bool bools = a->type == p_.types->boolType() && b->type == p_.types->boolType();
      if (bools && a->isConst() && b->isConst()) return em_.boolConst((a == b) == (op == Op::Eq));
      if (bools) return em_.mk(op, p_.types->boolType(), {a, b});
      return cmp(op, asInt(a), asInt(b));
    }
    case BinOp::Lt:
      return cmp(Op::Lt, asInt(a), asInt(b));
    case BinOp::Le:
      return cmp(Op::Le, asInt(a), asInt(b));
    case BinOp::Gt:
      return cmp(Op::Gt, asInt(a), asInt(b));
    case BinOp::Ge:
      return cmp(Op::Ge, asInt(a), asInt(b));
    case BinOp::Add:
    case BinOp::Sub:
    case BinOp::Mul:
    case BinOp::Div:
    case BinOp::Mod:
      return arith(e.binop, asInt(a), asInt(b));
    case BinOp::BitOr:
    case BinOp::BitAnd:
    case BinOp::BitXor:
      return bitwise(e, asInt(a), asInt(b));
    case BinOp::Shl:
    case BinOp::Shr:
      return shift(e, asInt(a), asInt(b));
  }
  return bad();
}

ExprRef ExprLowerer::arith(BinOp op, ExprRef a, ExprRef b) {
  auto ca = constOf(a), cb = constOf(b);
  if (ca && cb)
    if (auto v = foldBinary(op, *ca, *cb)) return em_.intConst(*v);
  switch (op) {
    case BinOp::Add:
      return mk(Op::Add, a, b);
    case BinOp::Sub:
      return mk(Op::Sub, a, b);
    case BinOp::Mul:
      return mk(Op::Mul, a, b);
    default:
      return divide(op, a, b);
  }
}

// C truncates toward zero; the IR divides Euclidean. They agree when the dividend is >= 0, and
// for a < 0: a / b == -((-a) / b) and a % b == -((-a) % b).
ExprRef ExprLowerer::divide(BinOp op, ExprRef a, ExprRef b) {
  Op irOp = op == BinOp::Div ? Op::Div : Op::Mod;
  Range ra = rangeOf(a);
  if (ra.bounded && ra.lo.sign() >= 0) return mk(irOp, a, b);
  TypeRef it = p_.types->intType();
  ExprRef negA = em_.mk(Op::Neg, it, {a});
  ExprRef neg = em_.mk(Op::Neg, it, {mk(irOp, negA, b)});
  ExprRef nonNeg = cmp(Op::Ge, a, em_.intConst(BigInt(0)));
  return em_.mk(Op::Ite, it, {nonNeg, mk(irOp, a, b), neg});
}

ExprRef ExprLowerer::mk(Op op, ExprRef a, ExprRef b) {
  return em_.mk(op, p_.types->intType(), {a, b});
}

ExprRef ExprLowerer::cmp(Op op, ExprRef a, ExprRef b) {
  auto ca = constOf(a), cb = constOf(b);
  if (ca && cb) {
    bool r = false;
    switch (op) {
      case Op::Eq:
        r = *ca == *cb;
        break;
      case Op::Ne:
        r = *ca != *cb;
        break;
      case Op::Lt:
        r = *ca < *cb;
        break;
      case Op::Le:
        r = *ca <= *cb;
        break;
      case Op::Gt:
        r = *ca > *cb;
        break;
      case Op::Ge:
        r = *ca >= *cb;
        break;
      default:
        break;
    }
    return em_.boolConst(r);
  }
  return em_.mk(op, p_.types->boolType(), {a, b});
}

// ---------------------------------------------------------------------------------------------
// Conversions.

std::optional<BigInt> ExprLowerer::constOf(ExprRef e) {
  if (e->op == Op::IntConst) return e->value;
  if (e->op == Op::BoolConst) return e->value;
  return std::nullopt;
}

ExprRef ExprLowerer::asBool(ExprRef e) {
  if (e->type == p_.types->boolType()) return e;
  if (e->op == Op::IntConst) return em_.boolConst(e->value.sign() != 0);
  // (c ? 1 : 0) as a truth value is c itself.
  if (e->op == Op::Ite && e->kid(1)->op == Op::IntConst && e->kid(2)->op == Op::IntConst &&
      e->kid(1)->value == BigInt(1) && e->kid(2)->value.sign() == 0)
    return e->kid(0);
  return em_.mk(Op::Ne, p_.types->boolType(), {e, em_.intConst(BigInt(0))});
}

ExprRef ExprLowerer::asInt(ExprRef e) {
  if (e->type != p_.types->boolType()) return e;
  if (e->op == Op::BoolConst) return em_.intConst(e->value);
  return em_.mk(Op::Ite, p_.types->intType(),
                {e, em_.intConst(BigInt(1)), em_.intConst(BigInt(0))});
}

}  // namespace tandem::dve
