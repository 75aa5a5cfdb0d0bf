#include "mc/expr/expr.h"

#include "mc/expr/enum_names.h"

#include "mc/expr/expr_walk.h"
#include "mc/expr/float64.h"

#include <algorithm>
#include <functional>

namespace tandem {

Op negatedComparison(Op op) {
  switch (op) {
    case Op::Eq:
      return Op::Ne;
    case Op::Ne:
      return Op::Eq;
    case Op::Lt:
      return Op::Ge;
    case Op::Le:
      return Op::Gt;
    case Op::Gt:
      return Op::Le;
    case Op::Ge:
      return Op::Lt;
    default:
      return op;
  }
}

Op mirroredComparison(Op op) {
  switch (op) {
    case Op::Lt:
      return Op::Gt;
    case Op::Le:
      return Op::Ge;
    case Op::Gt:
      return Op::Lt;
    case Op::Ge:
      return Op::Le;
    default:
      return op;
  }
}

namespace {
constexpr EnumName<Op> kOpNames[] = {{Op::IntConst, "int"},
                                     {Op::BoolConst, "bool"},
                                     {Op::EnumConst, "enum"},
                                     {Op::NullConst, "null"},
                                     {Op::FloatConst, "f64"},
                                     {Op::Var, "var"},
                                     {Op::Pid, "pid"},
                                     {Op::Star, "*"},
                                     {Op::Symbol, "symbol"},
                                     {Op::Neg, "-"},
                                     {Op::Not, "!"},
                                     {Op::Add, "+"},
                                     {Op::Sub, "-"},
                                     {Op::Mul, "*"},
                                     {Op::Div, "/"},
                                     {Op::Mod, "%"},
                                     {Op::Eq, "=="},
                                     {Op::Ne, "!="},
                                     {Op::Lt, "<"},
                                     {Op::Le, "<="},
                                     {Op::Gt, ">"},
                                     {Op::Ge, ">="},
                                     {Op::And, "&&"},
                                     {Op::Or, "||"},
                                     {Op::Implies, "==>"},
                                     {Op::Ite, "?:"},
                                     {Op::Abs, "abs"},
                                     {Op::Min, "min"},
                                     {Op::Max, "max"},
                                     {Op::NoOverflowAdd, "no_overflow_add"},
                                     {Op::NoOverflowMul, "no_overflow_mul"},
                                     {Op::Cast, "cast"},
                                     {Op::Select, "select"},
                                     {Op::Len, "len"},
                                     {Op::ArrayLit, "array"},
                                     {Op::NewArray, "new"},
                                     {Op::Store, "store"},
                                     {Op::Field, "field"},
                                     {Op::Deref, "deref"},
                                     {Op::AddrOf, "addr"},
                                     {Op::Call, "call"},
                                     {Op::Old, "old"},
                                     {Op::AtLoc, "at"},
                                     {Op::ProcLocal, "proc-local"},
                                     {Op::Received, "received"}};
}  // namespace

const char* opName(Op op) { return enumName(kOpNames, op); }

bool ExprManager::NodeEq::operator()(const std::unique_ptr<ExprNode>& a,
                                     const std::unique_ptr<ExprNode>& b) const {
  return a->op == b->op && a->type == b->type && a->payload == b->payload && a->value == b->value &&
         a->kids == b->kids;
}

ExprRef ExprManager::mk(Op op, TypeRef type, std::vector<ExprRef> kids, uint32_t payload,
                        BigInt value) {
  auto node =
      std::make_unique<ExprNode>(ExprNode{op, type, payload, std::move(value), std::move(kids), 0});
  size_t h = std::hash<int>()(static_cast<int>(op));
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(std::hash<const void*>()(type));
  mix(payload);
  mix(node->value.hash());
  for (auto k : node->kids) mix(k->hash);
  node->hash = h;
  auto [it, inserted] = nodes_.insert(std::move(node));
  return it->get();
}

ExprRef ExprManager::intConst(const BigInt& v, TypeRef type) {
  return mk(Op::IntConst, type ? type : types_.intType(), {}, 0, v);
}
ExprRef ExprManager::floatConst(double d) {
  return mk(Op::FloatConst, types_.f64Type(), {}, 0, BigInt(static_cast<int64_t>(f64::toBits(d))));
}
ExprRef ExprManager::boolConst(bool b) {
  return mk(Op::BoolConst, types_.boolType(), {}, 0, BigInt(b ? 1 : 0));
}
ExprRef ExprManager::enumConst(TypeRef enumType, uint32_t index) {
  return mk(Op::EnumConst, enumType, {}, index);
}
ExprRef ExprManager::nullConst(TypeRef type) {
  return mk(Op::NullConst, type ? type : types_.nullType(), {});
}
ExprRef ExprManager::var(uint32_t id, TypeRef type) { return mk(Op::Var, type, {}, id); }

ExprRef ExprManager::freshSymbol(const std::string& name, TypeRef type) {
  auto id = static_cast<uint32_t>(symbolNames_.size());
  symbolNames_.push_back(name + "!" + std::to_string(id));
  return mk(Op::Symbol, type, {}, id);
}

ExprRef ExprManager::mkNot(ExprRef a) {
  if (a->op == Op::BoolConst) return boolConst(a->isFalse());
  if (a->op == Op::Not) return a->kid(0);
  return mk(Op::Not, types_.boolType(), {a});
}
ExprRef ExprManager::mkAnd(ExprRef a, ExprRef b) {
  if (a->isFalse() || b->isFalse()) return falseExpr();
  if (a->isTrue()) return b;
  if (b->isTrue() || a == b) return a;
  return mk(Op::And, types_.boolType(), {a, b});
}
ExprRef ExprManager::mkOr(ExprRef a, ExprRef b) {
  if (a->isTrue() || b->isTrue()) return trueExpr();
  if (a->isFalse()) return b;
  if (b->isFalse() || a == b) return a;
  return mk(Op::Or, types_.boolType(), {a, b});
}
ExprRef ExprManager::mkAnd(std::span<const ExprRef> xs) {
  ExprRef r = trueExpr();
  for (auto x : xs) r = mkAnd(r, x);
  return r;
}
ExprRef ExprManager::mkEq(ExprRef a, ExprRef b) {
  if (a == b) return trueExpr();
  return mk(Op::Eq, types_.boolType(), {a, b});
}

std::vector<uint32_t> freeVars(ExprRef e) {
  std::vector<uint32_t> out;
  forEachNode(e, [&](ExprRef n) {
    if (n->op == Op::Var) out.push_back(n->payload);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tandem
