// Shared helpers of the smt_*_test.cpp files: a private expression context, formula builders,
// and the loop over every back end.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/solver.h"
#include "mc/smt/solver_factory.h"
#include "mc/smt/term_naming.h"

namespace smt_test {

using namespace tandem;
using namespace tandem::smt;

inline bool isPredicate(Op op) {
  switch (op) {
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::And:
    case Op::Or:
    case Op::Implies:
    case Op::NoOverflowAdd:
    case Op::NoOverflowMul:
      return true;
    default:
      return false;
  }
}

struct Ctx {
  TypeTable types;
  ExprManager em{types};
  TermNaming naming = exprNaming(em);

  TypeRef intT() const { return types.intType(); }
  TypeRef i32T() const { return types.i32Type(); }
  TypeRef i64T() const { return types.i64Type(); }
  TypeRef boolT() const { return types.boolType(); }

  ExprRef sym(const std::string& name, TypeRef t) { return em.freshSymbol(name, t); }
  ExprRef num(int64_t v, TypeRef t = nullptr) { return em.intConst(BigInt(v), t); }
  ExprRef big(const BigInt& v, TypeRef t = nullptr) { return em.intConst(v, t); }

  // The result type follows the language: predicates are bool, arithmetic takes the bit-vector
  // operand's type if there is one.
  ExprRef bin(Op op, ExprRef a, ExprRef b) {
    TypeRef t = isPredicate(op) ? boolT() : (b->type->isBitVector() ? b->type : a->type);
    return em.mk(op, t, {a, b});
  }
  ExprRef eq(ExprRef a, ExprRef b) { return bin(Op::Eq, a, b); }
  ExprRef ne(ExprRef a, ExprRef b) { return bin(Op::Ne, a, b); }
  ExprRef lt(ExprRef a, ExprRef b) { return bin(Op::Lt, a, b); }
  ExprRef le(ExprRef a, ExprRef b) { return bin(Op::Le, a, b); }
  ExprRef gt(ExprRef a, ExprRef b) { return bin(Op::Gt, a, b); }
  ExprRef ge(ExprRef a, ExprRef b) { return bin(Op::Ge, a, b); }
  ExprRef add(ExprRef a, ExprRef b) { return bin(Op::Add, a, b); }
  ExprRef sub(ExprRef a, ExprRef b) { return bin(Op::Sub, a, b); }
  ExprRef mul(ExprRef a, ExprRef b) { return bin(Op::Mul, a, b); }
  ExprRef div(ExprRef a, ExprRef b) { return bin(Op::Div, a, b); }
  ExprRef mod(ExprRef a, ExprRef b) { return bin(Op::Mod, a, b); }
  ExprRef land(ExprRef a, ExprRef b) { return em.mk(Op::And, boolT(), {a, b}); }
  ExprRef lor(ExprRef a, ExprRef b) { return em.mk(Op::Or, boolT(), {a, b}); }
  ExprRef lnot(ExprRef a) { return em.mk(Op::Not, boolT(), {a}); }
  ExprRef unary(Op op, ExprRef a) { return em.mk(op, a->type, {a}); }
  ExprRef cast(ExprRef a, TypeRef t) { return em.mk(Op::Cast, t, {a}); }
  ExprRef ite(ExprRef c, ExprRef a, ExprRef b) { return em.mk(Op::Ite, a->type, {c, a, b}); }
  ExprRef select(ExprRef a, ExprRef i) { return em.mk(Op::Select, a->type->elem, {a, i}); }
  ExprRef len(ExprRef a) { return em.mk(Op::Len, intT(), {a}); }
  ExprRef arrayLit(TypeRef elem, std::vector<ExprRef> kids) {
    TypeRef t = types.arrayOf(elem, static_cast<int64_t>(kids.size()));
    return em.mk(Op::ArrayLit, t, std::move(kids));
  }
  ExprRef newArray(TypeRef elem, ExprRef n) {
    return em.mk(Op::NewArray, types.arrayOf(elem, -1), {n});
  }
  ExprRef call(uint32_t callee, TypeRef result, std::vector<ExprRef> args) {
    return em.mk(Op::Call, result, std::move(args), callee);
  }

  std::unique_ptr<Solver> backend(Backend b) { return makeBackend(b, naming); }
};

// Every formula is true under the solver's current model (evaluated by Tandem's evaluator).
inline void checkModelSatisfies(const Solver& s, const std::vector<ExprRef>& formulas) {
  const Model& m = s.model();
  for (size_t i = 0; i < formulas.size(); ++i) {
    INFO("formula " << i << " under the model of " << s.name());
    CHECK(m.evalBool(formulas[i]) == true);
  }
}

// Asserts every formula and checks.
inline CheckResult checkAll(Solver& s, const std::vector<ExprRef>& formulas) {
  for (ExprRef f : formulas) s.add(f);
  return s.check();
}

}  // namespace smt_test
