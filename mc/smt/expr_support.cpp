#include "mc/smt/expr_support.h"

#include <algorithm>
#include <unordered_set>

#include "mc/expr/expr_walk.h"
#include "mc/smt/smt_error.h"

namespace tandem::smt {

std::optional<ScalarSort> scalarSortOf(TypeRef t) {
  if (!t) return std::nullopt;
  switch (t->kind) {
    case TypeKind::Bool:
      return ScalarSort::Bool;
    case TypeKind::Int:
    case TypeKind::Enum:
      return ScalarSort::Int;
    case TypeKind::I32:
      return ScalarSort::Bv32;
    case TypeKind::I64:
      return ScalarSort::Bv64;
    case TypeKind::F64:
      return ScalarSort::F64;
    default:
      return std::nullopt;
  }
}

std::optional<SmtSort> smtSortOf(TypeRef t) {
  if (!t) return std::nullopt;
  if (t->kind == TypeKind::Array) {
    auto elem = scalarSortOf(t->elem);
    if (!elem) return std::nullopt;
    return SmtSort{true, *elem};
  }
  auto s = scalarSortOf(t);
  if (!s) return std::nullopt;
  return SmtSort{false, *s};
}

NumClass numClassOf(TypeRef t) {
  if (t && t->kind == TypeKind::F64) return kFloatClass;
  return NumClass{t && t->kind == TypeKind::Bool, t ? t->bitWidth() : 0};
}

NumClass operandClass(ExprRef a, ExprRef b) {
  const NumClass ca = numClassOf(a->type), cb = numClassOf(b->type);
  if (ca.isFloat || cb.isFloat) return kFloatClass;
  return ca.isBv() || !cb.isBv() ? ca : cb;
}

BigInt pow2(unsigned bits) {
  BigInt r(1);
  const BigInt step(uint64_t{1} << 32);
  for (; bits >= 32; bits -= 32) r *= step;
  return r * BigInt(uint64_t{1} << bits);
}

std::optional<std::string> nodeUnsupportedReason(ExprRef e) {
  switch (e->op) {
    case Op::NullConst:
    case Op::Field:
    case Op::Deref:
    case Op::AddrOf:
      return std::string("references and objects (") + opName(e->op) + ")";
    case Op::Pid:
    case Op::AtLoc:
    case Op::ProcLocal:
      return std::string("process operators (") + opName(e->op) + ")";
    case Op::Received:
      return std::string("a rendezvous message");
    case Op::Star:
      return std::string("a nondeterministic value (*)");
    case Op::Old:
      return std::string("old(...): substitute the entry values first");
    default:
      break;
  }
  if (!smtSortOf(e->type))
    return "values of type " + (e->type ? typeToString(e->type) : std::string("<none>")) + " (" +
           opName(e->op) + ")";
  switch (e->op) {
    case Op::Call:
      for (ExprRef k : e->kids)
        if (!scalarSortOf(k->type)) return std::string("calls with array arguments");
      if (!scalarSortOf(e->type)) return std::string("calls with array results");
      break;
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      if (!e->kid(0)->type || e->kid(0)->type->kind == TypeKind::Bool)
        return std::string("ordering of bool values");
      break;
    case Op::Eq:
    case Op::Ne: {
      const bool a = e->kid(0)->type && e->kid(0)->type->kind == TypeKind::Array;
      const bool b = e->kid(1)->type && e->kid(1)->type->kind == TypeKind::Array;
      if (a != b) return std::string("comparison of an array with a non-array");
      break;
    }
    default:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> unsupportedReason(ExprRef root) {
  std::optional<std::string> why;
  forEachNode(root, [&](ExprRef e) {
    why = nodeUnsupportedReason(e);
    return why ? Walk::Stop : Walk::Into;
  });
  return why;
}

void requireSupported(ExprRef root) {
  if (auto why = unsupportedReason(root)) throw SmtUnsupported(*why);
}

bool isLeaf(ExprRef e) { return e->op == Op::Symbol || e->op == Op::Var; }

std::vector<uint64_t> dependencyKeys(ExprRef root) {
  std::vector<uint64_t> keys;
  forEachNode(root, [&](ExprRef e) {
    // Three id spaces: symbols, variables, callees.
    if (e->op == Op::Symbol) keys.push_back(e->payload);
    if (e->op == Op::Var) keys.push_back((uint64_t{1} << 32) | e->payload);
    if (e->op == Op::Call) keys.push_back((uint64_t{2} << 32) | e->payload);
  });
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace tandem::smt
