// Symbolic evaluation of IR expressions over a SymState. Constant subterms are folded by the
// concrete evaluator, so code on concrete values never reaches the solver. Implicit checks
// (div-by-zero, index-out-of-bounds, null-deref, negative-size) become obligations: formulas that
// must hold for the evaluation to succeed, already guarded by the short-circuit context they are
// reached in, in evaluation order (the order the concrete evaluator reports errors in).
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
};

// Where an lvalue lives: a variable and a path of (possibly symbolic) array indices.
struct SymLvalue {
  exec::AddressBase base = exec::AddressBase::Global;
  uint32_t frame = 0;  // Local: depth in the call stack
  uint32_t slot = 0;
  std::vector<ExprRef> path;
};

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

  ExprManager& exprs() const { return *program_.exprs; }
  // Throws NotImplemented for constructs outside the symbolic executor.
  SymValue eval(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const;
  SymLvalue lvalue(ExprRef e, const SymState& s, std::vector<Obligation>& obls) const;
  void store(SymState& s, const SymLvalue& lv, SymValue v) const;
  // A constant or term for a concrete value of type `t` (and back, for constants).
  SymValue fromValue(const exec::Value& v, TypeRef t) const;
  // `v` converted to the integral type `t` (as exec::coerceIntegral does).
  SymValue coerce(SymValue v, TypeRef t) const;
  // Builds op(kids) and folds it when every kid is a constant.
  ExprRef mk(Op op, TypeRef type, std::vector<ExprRef> kids, uint32_t payload = 0,
             BigInt value = BigInt(0)) const;

 private:
  struct Ctx;
  SymValue evalIn(const Ctx& c, ExprRef e) const;
  SymValue evalCall(const Ctx& c, ExprRef e) const;
  SymValue evalSelect(const Ctx& c, ExprRef e) const;
  SymLvalue lvalueIn(const Ctx& c, ExprRef e) const;
  SymValue load(const Ctx& c, const SymLvalue& lv) const;
  ExprRef scalarOf(const SymValue& v, ExprRef where) const;
  void oblige(const Ctx& c, ExprRef cond, ir::ErrorKind kind, std::string message) const;
  // Bounds check of `index` in an array of length `len`.
  void checkIndex(const Ctx& c, ExprRef index, size_t len) const;

  // The operands of a complex term, concretized by the policy when there is one.
  void concretizeOperands(const Ctx& c, std::vector<ExprRef>& kids) const;

  const ir::Program& program_;
  const exec::Evaluator& concrete_;
  ComplexTermPolicy* policy_ = nullptr;
};

// Reads an element at a symbolic path: an ite chain over the elements.
SymValue selectElement(const SymEvaluator& ev, const SymValue& array, ExprRef index);

}  // namespace tandem::symbolic
