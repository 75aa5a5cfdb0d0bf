#include "mc/ir/resolve_expr.h"

namespace tandem {

namespace {

using EK = ast::Expr::Kind;
using B = ast::BinOp;

Op binOp(B op) {
  switch (op) {
    case B::Add:
      return Op::Add;
    case B::Sub:
      return Op::Sub;
    case B::Mul:
      return Op::Mul;
    case B::Div:
      return Op::Div;
    case B::Mod:
      return Op::Mod;
    case B::Eq:
      return Op::Eq;
    case B::Ne:
      return Op::Ne;
    case B::Lt:
      return Op::Lt;
    case B::Le:
      return Op::Le;
    case B::Gt:
      return Op::Gt;
    case B::Ge:
      return Op::Ge;
    case B::And:
      return Op::And;
    case B::Or:
      return Op::Or;
    case B::Implies:
      return Op::Implies;
  }
  return Op::Add;
}

bool isIntLiteral(const ast::Expr& e) {
  if (e.kind == EK::IntLit) return true;
  return e.kind == EK::Unary && e.unop == ast::UnOp::Neg && isIntLiteral(*e.args[0]);
}

class Resolver {
 public:
  Resolver(ir::Program& p, Diagnostics& d) : p_(p), d_(d), tt_(*p.types), em_(*p.exprs) {}

  ExprRef resolve(const ast::Expr& e) {
    switch (e.kind) {
      case EK::IntLit: {
        auto v = BigInt::parse(e.text);
        if (!v) return fail(e, "malformed integer literal '" + e.text + "'");
        return em_.intConst(*v);
      }
      case EK::FloatLit:
        return fail(e,
                    "f64 literals are not supported in expressions given on the command line yet");
      case EK::BoolLit:
        return em_.boolConst(e.boolValue);
      case EK::Null:
        return em_.nullConst();
      case EK::Star:
        return fail(e, "'*' (a nondeterministic value) is not allowed here");
      case EK::Name:
        return name(e);
      case EK::Unary:
        return unary(e);
      case EK::Binary:
        return binary(e);
      case EK::Cond:
        return conditional(e);
      case EK::Index:
        return index(e);
      case EK::Field:
        return field(e);
      case EK::AtLabel:
        return atLabel(e);
      case EK::Call:
        return call(e);
      case EK::NewArray:
      case EK::NewObject:
        return fail(e, "'new' is not allowed here");
      case EK::ArrayLit:
        return arrayLit(e);
    }
    return fail(e, "unsupported expression");
  }

  ExprRef condition(const ast::Expr& e, const std::string& what) {
    ExprRef r = resolve(e);
    if (r && r->type != boolT())
      return fail(e, what + " must be 'bool', got '" + typeToString(r->type) + "'");
    return r;
  }

  ExprRef fail(const ast::Expr& e, std::string message) {
    d_.error(e.loc, std::move(message));
    return nullptr;
  }

 private:
  TypeRef boolT() const { return tt_.boolType(); }

  // --- names ---
  std::optional<ir::VarId> globalVar(const std::string& n) const {
    for (ir::VarId v : p_.globals)
      if (p_.vars[v].name == n && !p_.vars[v].hidden) return v;
    return std::nullopt;
  }

  // The process named `n` (its index in Program::processes), unless a global shadows it.
  std::optional<uint32_t> process(const std::string& n) const {
    if (globalVar(n)) return std::nullopt;
    for (uint32_t i = 0; i < p_.processes.size(); ++i)
      if (p_.cfas[p_.processes[i]].name == n) return i;
    return std::nullopt;
  }

  static TypeRef findEnumWith(TypeRef t, const std::string& member, int depth = 0) {
    if (!t || depth > 8) return nullptr;
    if (t->kind == TypeKind::Enum) return t->memberIndex(member) >= 0 ? t : nullptr;
    if (t->kind == TypeKind::Array || t->kind == TypeKind::Ref)
      return findEnumWith(t->elem, member, depth + 1);
    if (t->kind == TypeKind::Class)
      for (auto& [fname, ft] : t->fields)
        if (TypeRef r = findEnumWith(ft, member, depth + 1)) return r;
    return nullptr;
  }

  ExprRef name(const ast::Expr& e) {
    if (auto v = globalVar(e.name)) return em_.var(*v, p_.vars[*v].type);
    for (const ir::Variable& v : p_.vars)
      if (TypeRef t = findEnumWith(v.type, e.name))
        return em_.enumConst(t, static_cast<uint32_t>(t->memberIndex(e.name)));
    if (e.name == "pid") return fail(e, "'pid' has no value outside a process");
    if (process(e.name))
      return fail(
          e, "process '" + e.name + "' is not a value; use " + e.name + "@L or " + e.name + ".v");
    return fail(e, "unknown name '" + e.name + "'");
  }

  // `P` or `P[i]` in P@L / P.v: the process index and the instance expression, or nullopt when
  // `base` is no process reference. Sets `failed` after reporting an error.
  std::optional<std::pair<uint32_t, ExprRef>> processRef(const ast::Expr& base,
                                                         const ast::Expr& whole,
                                                         const std::string& suffix, bool& failed) {
    const ast::Expr* nameExpr = base.kind == EK::Index ? base.args[0].get() : &base;
    if (nameExpr->kind != EK::Name) return std::nullopt;
    auto proc = process(nameExpr->name);
    if (!proc) return std::nullopt;
    const ir::Cfa& c = p_.cfas[p_.processes[*proc]];
    if (base.kind != EK::Index) {
      if (c.instances > 1) {
        failed = true;
        fail(whole, "process array '" + c.name + "' needs an index: " + c.name + "[i]" + suffix);
        return std::nullopt;
      }
      return std::make_pair(*proc, em_.intConst(BigInt(0)));
    }
    ExprRef idx = resolve(*base.args[1]);
    if (!idx) {
      failed = true;
      return std::nullopt;
    }
    if (!idx->type || !idx->type->isIntegral()) {
      failed = true;
      fail(*base.args[1],
           "process index must be an integer, got '" + typeToString(idx->type) + "'");
      return std::nullopt;
    }
    if (idx->op == Op::IntConst &&
        (idx->value.sign() < 0 || idx->value >= BigInt(static_cast<int64_t>(c.instances)))) {
      failed = true;
      fail(*base.args[1], "process index " + idx->value.toString() + " is out of range for '" +
                              c.name + "' (" + std::to_string(c.instances) + " instance" +
                              (c.instances == 1 ? ")" : "s)"));
      return std::nullopt;
    }
    return std::make_pair(*proc, idx);
  }

  std::optional<ir::LocId> label(uint32_t proc, const std::string& l) const {
    for (ir::LocId id : p_.cfas[p_.processes[proc]].locs)
      for (const std::string& s : p_.locs[id].labels)
        if (s == l) return id;
    return std::nullopt;
  }

  ExprRef atLabel(const ast::Expr& e) {
    bool failed = false;
    auto ref = processRef(*e.args[0], e, "@" + e.name, failed);
    if (failed) return nullptr;
    if (!ref) {
      const ast::Expr& b = *e.args[0];
      const ast::Expr* n = b.kind == EK::Index ? b.args[0].get() : &b;
      if (n->kind == EK::Name && !globalVar(n->name))
        return fail(*n, "unknown process '" + n->name + "'");
      return fail(b, "'@' needs a process name (P@L or P[i]@L)");
    }
    auto loc = label(ref->first, e.name);
    const std::string& pname = p_.cfas[p_.processes[ref->first]].name;
    if (!loc) return fail(e, "process '" + pname + "' has no label '" + e.name + "'");
    return em_.mk(Op::AtLoc, boolT(), {ref->second}, ref->first,
                  BigInt(static_cast<int64_t>(*loc)));
  }

  ExprRef field(const ast::Expr& e) {
    bool failed = false;
    auto ref = processRef(*e.args[0], e, "." + e.name, failed);
    if (failed) return nullptr;
    if (ref) {
      const ir::Cfa& c = p_.cfas[p_.processes[ref->first]];
      for (ir::VarId v : c.processLocals)
        if (p_.vars[v].name == e.name)
          return em_.mk(Op::ProcLocal, p_.vars[v].type, {ref->second}, ref->first,
                        BigInt(static_cast<int64_t>(v)));
      if (auto loc = label(ref->first, e.name))  // DVE's `P.s`: P is in state s
        return em_.mk(Op::AtLoc, boolT(), {ref->second}, ref->first,
                      BigInt(static_cast<int64_t>(*loc)));
      return fail(e, "process '" + c.name + "' has no variable '" + e.name + "'");
    }
    ExprRef obj = resolve(*e.args[0]);
    if (!obj) return nullptr;
    TypeRef t = obj->type;
    if (!t || t->kind != TypeKind::Class)
      return fail(e, "'.' needs an object or a process, got '" + typeToString(t) + "'");
    int idx = t->fieldIndex(e.name);
    if (idx < 0) return fail(e, "class '" + t->name + "' has no field '" + e.name + "'");
    return em_.mk(Op::Field, t->fields[static_cast<size_t>(idx)].second, {obj},
                  static_cast<uint32_t>(idx));
  }

  ExprRef index(const ast::Expr& e) {
    const ast::Expr& base = *e.args[0];
    if (base.kind == EK::Name && process(base.name))
      return fail(e, "process '" + base.name + "' is not a value; use " + base.name + "[i]@L or " +
                         base.name + "[i].v");
    ExprRef a = resolve(base);
    ExprRef i = resolve(*e.args[1]);
    if (!a || !i) return nullptr;
    if (!i->type || !i->type->isIntegral())
      return fail(*e.args[1],
                  "array index must be an integer, got '" + typeToString(i->type) + "'");
    if (!a->type || a->type->kind != TypeKind::Array)
      return fail(e, "cannot index a value of type '" + typeToString(a->type) + "'");
    return em_.mk(Op::Select, a->type->elem, {a, i});
  }

  // --- operators ---

  // Gives an integer literal the bit-vector type `target` (as the checker does). Coerced, not
  // applicable, or an error (reported: the literal does not fit).
  enum class Coerce { Done, No, Error };
  Coerce coerceLiteral(const ast::Expr& src, ExprRef& r, TypeRef target) {
    if (!target || !target->isBitVector() || r->op != Op::IntConst || !isIntLiteral(src) ||
        r->type == target)
      return Coerce::No;
    if (!r->value.fitsIn(target->bitWidth())) {
      fail(src, "integer literal out of range for '" + typeToString(target) + "'");
      return Coerce::Error;
    }
    r = em_.intConst(r->value, target);
    return Coerce::Done;
  }

  // Two operands of one type: a literal takes the bit-vector type of the other. False after an
  // error.
  bool unify(const ast::Expr& ea, ExprRef& a, const ast::Expr& eb, ExprRef& b) {
    if (a->type == b->type) return true;
    Coerce c = coerceLiteral(ea, a, b->type);
    if (c == Coerce::No) c = coerceLiteral(eb, b, a->type);
    return c != Coerce::Error;
  }

  ExprRef unary(const ast::Expr& e) {
    const ast::Expr& k = *e.args[0];
    switch (e.unop) {
      case ast::UnOp::Not: {
        ExprRef a = condition(k, "operand of '!'");
        return a ? em_.mk(Op::Not, boolT(), {a}) : nullptr;
      }
      case ast::UnOp::Neg: {
        ExprRef a = resolve(k);
        if (!a) return nullptr;
        if (!a->type || !a->type->isIntegral())
          return fail(
              e, "operator '-' expects an integer operand, got '" + typeToString(a->type) + "'");
        if (a->op == Op::IntConst && isIntLiteral(k)) return em_.intConst(-a->value, a->type);
        return em_.mk(Op::Neg, a->type, {a});
      }
      case ast::UnOp::Deref: {
        ExprRef a = resolve(k);
        if (!a) return nullptr;
        if (!a->type || a->type->kind != TypeKind::Ref)
          return fail(e, "cannot dereference a value of type '" + typeToString(a->type) + "'");
        return em_.mk(Op::Deref, a->type->elem, {a});
      }
      case ast::UnOp::AddrOf: {
        ExprRef a = resolve(k);
        if (!a) return nullptr;
        bool lvalue =
            a->op == Op::Var || a->op == Op::Select || a->op == Op::Field || a->op == Op::Deref;
        if (!lvalue) return fail(e, "'&' needs a variable, array element or field");
        return em_.mk(Op::AddrOf, tt_.refTo(a->type), {a});
      }
    }
    return nullptr;
  }

  ExprRef binary(const ast::Expr& e) {
    std::string op = opName(binOp(e.binop));
    if (e.binop == B::Implies) op = "==>";
    if (e.binop == B::And || e.binop == B::Or || e.binop == B::Implies) {
      ExprRef a = condition(*e.args[0], "operand of '" + op + "'");
      ExprRef b = condition(*e.args[1], "operand of '" + op + "'");
      return a && b ? em_.mk(binOp(e.binop), boolT(), {a, b}) : nullptr;
    }
    ExprRef a = resolve(*e.args[0]);
    ExprRef b = resolve(*e.args[1]);
    if (!a || !b) return nullptr;
    if (!unify(*e.args[0], a, *e.args[1], b)) return nullptr;
    bool arith = e.binop == B::Add || e.binop == B::Sub || e.binop == B::Mul || e.binop == B::Div ||
                 e.binop == B::Mod;
    bool eq = e.binop == B::Eq || e.binop == B::Ne;
    TypeRef ta = a->type, tb = b->type;
    if (!eq && (!ta || !tb || !ta->isIntegral() || !tb->isIntegral()))
      return fail(e, "operator '" + op + "' expects integer operands, got '" + typeToString(ta) +
                         "' and '" + typeToString(tb) + "'");
    if (ta != tb && !(eq && ta && tb && (assignable(ta, tb) || assignable(tb, ta))))
      return fail(e, "operator '" + op + "' has mismatched operand types '" + typeToString(ta) +
                         "' and '" + typeToString(tb) + "'");
    return em_.mk(binOp(e.binop), arith ? ta : boolT(), {a, b});
  }

  ExprRef conditional(const ast::Expr& e) {
    ExprRef c = condition(*e.args[0], "condition of '?:'");
    ExprRef a = resolve(*e.args[1]);
    ExprRef b = resolve(*e.args[2]);
    if (!c || !a || !b) return nullptr;
    if (!unify(*e.args[1], a, *e.args[2], b)) return nullptr;
    if (a->type != b->type)
      return fail(e, "the branches of '?:' have mismatched types '" + typeToString(a->type) +
                         "' and '" + typeToString(b->type) + "'");
    return em_.mk(Op::Ite, a->type, {c, a, b});
  }

  ExprRef arrayLit(const ast::Expr& e) {
    if (e.args.empty()) return fail(e, "cannot infer the element type of an empty array literal");
    std::vector<ExprRef> kids;
    for (auto& a : e.args) {
      ExprRef k = resolve(*a);
      if (!k) return nullptr;
      if (!kids.empty() && k->type != kids[0]->type) {
        Coerce c = coerceLiteral(*a, k, kids[0]->type);
        if (c == Coerce::Error) return nullptr;
        if (c == Coerce::No)
          return fail(*a, "array literal elements have mismatched types '" +
                              typeToString(kids[0]->type) + "' and '" + typeToString(k->type) +
                              "'");
      }
      kids.push_back(k);
    }
    TypeRef t = tt_.arrayOf(kids[0]->type, static_cast<int64_t>(kids.size()));
    return em_.mk(Op::ArrayLit, t, std::move(kids));
  }

  // --- builtins ---
  ExprRef call(const ast::Expr& e) {
    const std::string& n = e.name;
    bool known = n == "abs" || n == "min" || n == "max" || n == "len" || n == "int" || n == "i32" ||
                 n == "i64";
    if (!known) {
      if (n == "old") return fail(e, "'old' is not allowed here");
      return fail(e, "unknown function '" + n +
                         "' (only len, abs, min, max, int, i32 and i64 "
                         "can be called here)");
    }
    size_t arity = n == "min" || n == "max" ? 2 : 1;
    if (e.args.size() != arity)
      return fail(e, "wrong number of arguments to '" + n + "': expected " + std::to_string(arity) +
                         ", got " + std::to_string(e.args.size()));
    std::vector<ExprRef> args;
    for (auto& a : e.args) {
      ExprRef r = resolve(*a);
      if (!r) return nullptr;
      args.push_back(r);
    }
    if (n == "len") {
      if (!args[0]->type || args[0]->type->kind != TypeKind::Array)
        return fail(*e.args[0], "'len' needs an array, got '" + typeToString(args[0]->type) + "'");
      return em_.mk(Op::Len, tt_.intType(), args);
    }
    if (arity == 2 && !unify(*e.args[0], args[0], *e.args[1], args[1])) return nullptr;
    for (size_t i = 0; i < args.size(); ++i)
      if (!args[i]->type || !args[i]->type->isIntegral())
        return fail(*e.args[i], "'" + n + "' expects integer arguments, got '" +
                                    typeToString(args[i]->type) + "'");
    if (n == "int" || n == "i32" || n == "i64") {
      TypeRef t = n == "int" ? tt_.intType() : n == "i32" ? tt_.i32Type() : tt_.i64Type();
      return em_.mk(Op::Cast, t, args);
    }
    if (arity == 2 && args[0]->type != args[1]->type)
      return fail(e, "'" + n + "' has mismatched argument types '" + typeToString(args[0]->type) +
                         "' and '" + typeToString(args[1]->type) + "'");
    Op op = n == "abs" ? Op::Abs : n == "min" ? Op::Min : Op::Max;
    return em_.mk(op, args[0]->type, args);
  }

  ir::Program& p_;
  Diagnostics& d_;
  TypeTable& tt_;
  ExprManager& em_;
};

}  // namespace

ExprRef resolveGlobalExpr(const ast::Expr& e, ir::Program& p, Diagnostics& d) {
  return Resolver(p, d).resolve(e);
}

ExprRef resolveGlobalCondition(const ast::Expr& e, ir::Program& p, Diagnostics& d,
                               const std::string& what) {
  return Resolver(p, d).condition(e, what);
}

}  // namespace tandem
