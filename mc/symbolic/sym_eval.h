// Symbolic evaluation of IR expressions over a SymState. Constant subterms are folded by the
// concrete evaluator, so code on concrete values never reaches the solver. Implicit checks
// (div-by-zero, index-out-of-bounds, null-deref, negative-size) become obligations: formulas that
// must hold for the evaluation to succeed, already guarded by the short-circuit context they are
// reached in, in evaluation order (the order the concrete evaluator reports errors in).
//
// Definitions: sym_eval.cpp (expressions, lvalues, loads and stores), sym_array.cpp (arrays in
// both forms of SymValue).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/symbolic/sym_state.h"

namespace tandem::symbolic {

struct Obligation {
  ExprRef ok;  // holds iff the evaluation does not fail here
  ir::ErrorKind kind;
  std::string message;
  // A limit of the reference evaluator (the longest array it allocates), not an error of the
  // program: recorded in SymState::limits for the replay, never reported nor assumed.
  bool limit = false;
};

using SymLvalue = SymAddress;

// int, i32, i64, f64, bool or an enum: what a symbol or an SMT array element can be.
inline bool isScalarType(TypeRef t) {
  return t && (t->isIntegral() || t->kind == TypeKind::F64 || t->kind == TypeKind::Bool ||
               t->kind == TypeKind::Enum);
}

// What happens to a complex term (complex_terms.h) when evaluation is about to build one: a call
// with non-constant arguments, or a product or quotient of two non-constant operands. Without a
// policy it stays symbolic (classic and mixed solving); EXE- and DART-style concretization
// (concretizer.h) replace its operands by concrete values.
class ComplexTermPolicy {
 public:
  virtual ~ComplexTermPolicy() = default;
  // Constants to use for `operands` (the call's arguments, or the two operands), or nullopt to
  // keep the term symbolic. `guard` is the short-circuit context the term is evaluated under.
  virtual std::optional<std::vector<ExprRef>> concretize(std::span<const ExprRef> operands,
                                                         ExprRef guard, const SymState& s) = 0;
};

class SymEvaluator {
 public:
  SymEvaluator(const ir::Program& program, const exec::Evaluator& concrete);

  // The policy for complex terms (null: they stay symbolic). Not owned.
  void setPolicy(ComplexTermPolicy* policy) { policy_ = policy; }
  // How many times a procedure (not a native) called inside an expression had symbolic
  // arguments or globals and so became an uninterpreted function: the errors inside it were not
  // checked, so a search that met one cannot say verified.
  uint64_t uncheckedCalls() const { return uncheckedCalls_; }

  ExprManager& exprs() const { return *program_.exprs; }
  const ir::Program& program() const { return program_; }
  const exec::Evaluator& concrete() const { return concrete_; }
  // Throws NotImplemented for constructs outside the symbolic executor.
  SymValue eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const;
  // Closed systems: as seen by thread `thread` (its `pid` and process locals) rather than by the
  // state's own SymState::thread.
  SymValue eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls,
                exec::ThreadId thread) const;
  SymLvalue lvalue(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const;
  void store(SymState& s, const SymLvalue& lv, SymValue v) const;
  // A constant or term for a concrete value of type `t` (and back, for constants).
  SymValue fromValue(const exec::Value& v, TypeRef t) const;
  SymValue defaultOf(TypeRef t) const { return fromValue(exec::defaultValue(t), t); }
  // `v` converted to the integral type `t` (as exec::coerceIntegral does).
  SymValue coerce(SymValue v, TypeRef t) const;
  // Builds op(kids) and folds it when every kid is a constant.
  ExprRef mk(Op op, TypeRef type, std::vector<ExprRef> kids, uint32_t payload = 0,
             BigInt value = BigInt(0)) const;
  // A fresh input of type `t` named `name`: a symbol for a scalar; for an array of scalars a
  // symbolic array over an array symbol (T[]: any length >= 0; T[N]: length N). `symbol`
  // receives the symbol whose model value is the input. Throws NotImplemented for other types
  // (references, objects, arrays of arrays).
  SymValue freshInput(TypeRef t, const std::string& name, ExprRef& symbol) const;

  // --- Arrays (sym_array.cpp); `array` has Kind::Array. ---
  ExprRef lengthOf(const SymValue& array) const;  // an int term
  // The element at `index`, without a bounds check; out of range (or empty): the default of
  // `elemType` (the path fails at the bounds check before it uses the value).
  SymValue element(const SymValue& array, ExprRef index, TypeRef elemType) const;
  // `array` with the value at `path` (indices, outermost first) replaced by `v`.
  SymValue withElement(const SymValue& array, std::span<const ExprRef> path,
                       const SymValue& v) const;
  // The array as one term of array type `t` (scalar elements): the symbolic form's term, or an
  // array literal of the elements.
  ExprRef arrayTerm(const SymValue& array, TypeRef t) const;
  // `new T[length]` (arrayType = T[]): the element form for a small constant length, else the
  // symbolic form. No checks: the caller obliges length >= 0 and the evaluator's limit.
  SymValue newArray(TypeRef arrayType, ExprRef length) const;

 private:
  struct Ctx;
  SymValue evalIn(const Ctx& c, ExprRef e) const;
  SymValue evalCall(const Ctx& c, ExprRef e) const;
  SymValue evalSelect(const Ctx& c, ExprRef e) const;
  SymValue evalNewArray(const Ctx& c, ExprRef e) const;
  SymValue evalEquality(const Ctx& c, ExprRef e) const;
  SymValue evalIte(const Ctx& c, ExprRef e) const;
  SymLvalue lvalueIn(const Ctx& c, ExprRef e) const;
  // The value at `lv`; `type` is the type of that value.
  SymValue load(const Ctx& c, const SymLvalue& lv, TypeRef type) const;
  const SymValue& rootOf(const Ctx& c, const SymLvalue& lv) const;
  const std::vector<SymObject>& heapOf(const Ctx& c) const;  // the snapshot's inside old()
  ExprRef scalarOf(const SymValue& v, ExprRef where) const;
  void oblige(const Ctx& c, ExprRef cond, ir::ErrorKind kind, std::string message,
              bool limit = false) const;
  // Bounds check of `index` in an array of length `len` (an int term).
  void checkIndex(const Ctx& c, ExprRef index, ExprRef len) const;
  // Program::checkOverflow: the obligation that `e` (an i32/i64 operator applied to `kids`) does
  // not wrap.
  void checkOverflow(const Ctx& c, ExprRef e, const std::vector<ExprRef>& kids) const;
  // The float-conversion obligation of a cast of the f64 `x` to an integral type.
  void checkFloatConversion(const Ctx& c, ExprRef cast, ExprRef x) const;
  // Bounds checks of a reference's indices against the arrays as they are now.
  void checkPath(const Ctx& c, const SymLvalue& lv) const;
  // `a == b` for references and objects (null included).
  ExprRef sameReference(const SymValue& a, const SymValue& b) const;
  ExprRef asInt(ExprRef index) const;  // an index or length as an int term

  // --- Closed systems (sym_process.cpp) ---
  // The instance of `P[i].v` or `P[i]@L` (kid 0, if any) of `process`, its range check obliged:
  // known when constant, failed when it cannot be in range.
  struct Instance {
    ExprRef term;
    std::optional<uint32_t> known;
    bool failed = false;
  };
  const SymThread* currentThread(const Ctx& c) const;  // null outside a process
  Instance instanceOf(const Ctx& c, ExprRef e, ir::CfaId process) const;
  SymLvalue processLocalAt(ir::VarId var, uint32_t instance) const;
  SymLvalue processLocalLvalue(const Ctx& c, ExprRef e) const;  // Op::ProcLocal
  SymValue evalProcessLocal(const Ctx& c, ExprRef e) const;
  SymValue atLocationResidue(const Ctx& c, ExprRef e) const;  // Op::AtLoc left by foldLocations

  // The operands of a complex term, concretized by the policy when there is one.
  void concretizeOperands(const Ctx& c, std::vector<ExprRef>& kids) const;

  // A procedure (not a native) called inside an expression that stayed an uninterpreted function.
  ExprRef opaque(ExprRef call) const;

  const ir::Program& program_;
  const exec::Evaluator& concrete_;
  ComplexTermPolicy* policy_ = nullptr;
  mutable uint64_t uncheckedCalls_ = 0;  // see uncheckedCalls()
};

}  // namespace tandem::symbolic
