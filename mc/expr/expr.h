// Hash-consed expressions: the one term language shared by the IR (guards, effects), the
// concrete evaluator, symbolic execution and the SMT layer. Structurally equal expressions are
// the same node, so equality is pointer equality and caches can key on ExprRef.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/expr/float64.h"
#include "mc/expr/types.h"

namespace tandem {

enum class Op : uint8_t {
  // Leaves.
  IntConst,   // value (type int, i32 or i64)
  BoolConst,  // value 0/1
  EnumConst,  // payload = member index
  NullConst,
  FloatConst,  // an f64: `value` holds its bit pattern (so 0.0 and -0.0 are different nodes)
  Var,         // payload = variable id (meaning given by the IR's variable table)
  Pid,         // index of the executing process instance
  Star,    // a fresh nondeterministic value (only as a whole right-hand side or branch condition)
  Symbol,  // a symbolic value of symbolic execution: payload = symbol id (ExprManager::symbolName)
  // Arithmetic and logic. Integer ops are mathematical on `int` and wrapping on i32/i64.
  Neg,
  Not,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Implies,
  Ite,
  // Builtins.
  Abs,
  Min,
  Max,
  NoOverflowAdd,
  NoOverflowMul,
  Cast,  // to `type` (int, i32, i64)
  // Arrays, references, objects.
  Select,    // kids[0][kids[1]]
  Len,       // len(kids[0])
  ArrayLit,  // [kids...]
  NewArray,  // new elem[kids[0]]: zero-filled
  Store,     // kids[0] with element kids[1] replaced by kids[2] (same length; symbolic execution)
  Field,     // kids[0].field  (payload = field index)
  Deref,     // *kids[0]
  AddrOf,    // &lvalue (kids[0] is an lvalue expression)
  // Calls of natives and pure or @concrete procedures: payload = callee id (IR numbering).
  Call,
  // `old(e)`: value of kids[0] at entry of the current procedure.
  Old,
  // Processes: payload = process id; kids[0] = instance index.
  AtLoc,      // process instance is at location `value` (a location id)
  ProcLocal,  // local variable `value` (a variable id) of a process instance
  // Rendezvous: field `payload` of the message being received (only in the guard and the
  // assignments of a Sync receive edge, mc/ir/channels.h).
  Received,
};

const char* opName(Op op);
inline bool isComparison(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt ||
         op == Op::Ge;
}
// The Boolean connectives: of Boolean operands, a Boolean.
inline bool isConnective(Op op) {
  return op == Op::Not || op == Op::And || op == Op::Or || op == Op::Implies;
}
// Comparisons: `!(a op b)` is `a negated(op) b`; `a op b` is `b mirrored(op) a`. Other ops: as is.
Op negatedComparison(Op op);
Op mirroredComparison(Op op);
// The IEEE operation (float64.h) of an operator on f64 operands: + - * / and the comparisons;
// nullopt for the others (% has none). Tables, as enum_names.h, so each pair is written once.
inline constexpr std::pair<Op, f64::Arith> kF64Arith[] = {{Op::Add, f64::Arith::Add},
                                                          {Op::Sub, f64::Arith::Sub},
                                                          {Op::Mul, f64::Arith::Mul},
                                                          {Op::Div, f64::Arith::Div}};
inline constexpr std::pair<Op, f64::Compare> kF64Compare[] = {
    {Op::Eq, f64::Compare::Eq}, {Op::Ne, f64::Compare::Ne}, {Op::Lt, f64::Compare::Lt},
    {Op::Le, f64::Compare::Le}, {Op::Gt, f64::Compare::Gt}, {Op::Ge, f64::Compare::Ge}};
template <class T, size_t N>
constexpr std::optional<T> operationOf(const std::pair<Op, T> (&table)[N], Op op) {
  for (const auto& [o, t] : table)
    if (o == op) return t;
  return std::nullopt;
}
constexpr std::optional<f64::Arith> f64ArithOf(Op op) { return operationOf(kF64Arith, op); }
constexpr std::optional<f64::Compare> f64CompareOf(Op op) { return operationOf(kF64Compare, op); }

struct ExprNode {
  Op op;
  TypeRef type;
  uint32_t payload = 0;
  BigInt
      value;  // IntConst/BoolConst value; FloatConst bits; AtLoc location id; ProcLocal variable id
  std::vector<const ExprNode*> kids;
  size_t hash = 0;

  const ExprNode* kid(size_t i) const { return kids[i]; }
  bool isConst() const {
    return op == Op::IntConst || op == Op::BoolConst || op == Op::EnumConst ||
           op == Op::NullConst || op == Op::FloatConst;
  }
  bool isTrue() const { return op == Op::BoolConst && value == BigInt(1); }
  bool isFalse() const { return op == Op::BoolConst && value == BigInt(0); }
};
using ExprRef = const ExprNode*;

// Owns and uniques every expression node of one analysis context. Not thread-safe: one
// manager per analysis (two analyses in one process each get their own).
class ExprManager {
 public:
  explicit ExprManager(TypeTable& types) : types_(types) {}
  ExprManager(const ExprManager&) = delete;
  ExprManager& operator=(const ExprManager&) = delete;

  TypeTable& types() { return types_; }

  ExprRef mk(Op op, TypeRef type, std::vector<ExprRef> kids, uint32_t payload = 0,
             BigInt value = BigInt(0));
  ExprRef intConst(const BigInt& v, TypeRef type = nullptr);  // default type: int
  ExprRef boolConst(bool b);
  ExprRef trueExpr() { return boolConst(true); }
  ExprRef falseExpr() { return boolConst(false); }
  ExprRef enumConst(TypeRef enumType, uint32_t index);
  ExprRef nullConst(TypeRef type = nullptr);
  ExprRef floatConst(double d);
  ExprRef var(uint32_t id, TypeRef type);
  // Boolean connectives with light simplification (constants, duplicates).
  ExprRef mkNot(ExprRef a);
  ExprRef mkAnd(ExprRef a, ExprRef b);
  ExprRef mkOr(ExprRef a, ExprRef b);
  ExprRef mkAnd(std::span<const ExprRef> xs);
  ExprRef mkEq(ExprRef a, ExprRef b);

  size_t size() const { return nodes_.size(); }

  // A fresh symbol (a free SMT constant) of `type`; `name` is for printing and SMT logs (made
  // unique by the manager).
  ExprRef freshSymbol(const std::string& name, TypeRef type);
  const std::string& symbolName(uint32_t id) const { return symbolNames_[id]; }
  size_t symbolCount() const { return symbolNames_.size(); }

 private:
  struct NodeHash {
    size_t operator()(const std::unique_ptr<ExprNode>& n) const { return n->hash; }
  };
  struct NodeEq {
    bool operator()(const std::unique_ptr<ExprNode>& a, const std::unique_ptr<ExprNode>& b) const;
  };
  TypeTable& types_;
  std::unordered_set<std::unique_ptr<ExprNode>, NodeHash, NodeEq> nodes_;
  std::vector<std::string> symbolNames_;
};

// Free variables (Op::Var payloads) of an expression, sorted and unique.
std::vector<uint32_t> freeVars(ExprRef e);

}  // namespace tandem
