#include "mc/smt/cvc5_translate.h"

#include <string>

#include "mc/smt/translator_impl.h"

namespace tandem::smt {

struct Cvc5Builder {
  using Term = cvc5::Term;
  using Fun = cvc5::Term;

  cvc5::Solver& s;

  cvc5::Sort scalar(ScalarSort k) {
    switch (k) {
      case ScalarSort::Bool:
        return s.getBooleanSort();
      case ScalarSort::Int:
        return s.getIntegerSort();
      case ScalarSort::F64:
        return s.mkFloatingPointSort(11, 53);
      default:
        return s.mkBitVectorSort(bvWidthOf(k));
    }
  }
  cvc5::Sort sort(SmtSort k) {
    return k.array ? s.mkArraySort(s.getIntegerSort(), scalar(k.elem)) : scalar(k.elem);
  }

  Term boolVal(bool b) { return s.mkBoolean(b); }
  Term intVal(const BigInt& v) { return s.mkInteger(v.toString()); }
  Term bvVal(int64_t v, unsigned width) {
    uint64_t bits = static_cast<uint64_t>(v);
    if (width < 64) bits &= (uint64_t{1} << width) - 1;
    return s.mkBitVector(width, bits);
  }
  Term fpVal(uint64_t bits) { return s.mkFloatingPoint(11, 53, s.mkBitVector(64, bits)); }
  Term rne() { return s.mkRoundingMode(cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_EVEN); }
  Term fp(cvc5::Kind k, const std::vector<Term>& a) {
    std::vector<Term> v{rne()};
    v.insert(v.end(), a.begin(), a.end());
    return s.mkTerm(k, v);
  }
  Term constant(const std::string& name, SmtSort k) { return s.mkConst(sort(k), name); }
  Term constArray(ScalarSort elem, const Term& fill) {
    return s.mkConstArray(s.mkArraySort(s.getIntegerSort(), scalar(elem)), fill);
  }
  Fun function(const std::string& name, const std::vector<ScalarSort>& domain, ScalarSort range) {
    std::vector<cvc5::Sort> d;
    for (ScalarSort k : domain) d.push_back(scalar(k));
    return s.mkConst(s.mkFunctionSort(d, scalar(range)), name);
  }
  Term apply(const Fun& f, const std::vector<Term>& args) {
    std::vector<Term> v{f};
    v.insert(v.end(), args.begin(), args.end());
    return s.mkTerm(cvc5::APPLY_UF, v);
  }
  // cvc5 binds fresh variables, not constants: substitute them into the body.
  Term forall(const std::vector<Term>& consts, const Term& body) {
    std::vector<Term> vars;
    for (const Term& c : consts)
      vars.push_back(s.mkVar(c.getSort(), c.hasSymbol() ? c.getSymbol() : std::string("x")));
    return s.mkTerm(cvc5::FORALL,
                    {s.mkTerm(cvc5::VARIABLE_LIST, vars), body.substitute(consts, vars)});
  }

  Term op(SmtOp op, const std::vector<Term>& a, unsigned param = 0) {
    switch (op) {
      case SmtOp::Not:
        return s.mkTerm(cvc5::NOT, a);
      case SmtOp::And:
        return s.mkTerm(cvc5::AND, a);
      case SmtOp::Or:
        return s.mkTerm(cvc5::OR, a);
      case SmtOp::Implies:
        return s.mkTerm(cvc5::IMPLIES, a);
      case SmtOp::Ite:
        return s.mkTerm(cvc5::ITE, a);
      case SmtOp::Eq:
        return s.mkTerm(cvc5::EQUAL, a);
      case SmtOp::Neg:
        return s.mkTerm(cvc5::NEG, a);
      case SmtOp::Add:
        return s.mkTerm(cvc5::ADD, a);
      case SmtOp::Sub:
        return s.mkTerm(cvc5::SUB, a);
      case SmtOp::Mul:
        return s.mkTerm(cvc5::MULT, a);
      case SmtOp::IntDiv:
        return s.mkTerm(cvc5::INTS_DIVISION, a);
      case SmtOp::IntMod:
        return s.mkTerm(cvc5::INTS_MODULUS, a);
      case SmtOp::Lt:
        return s.mkTerm(cvc5::LT, a);
      case SmtOp::Le:
        return s.mkTerm(cvc5::LEQ, a);
      case SmtOp::Gt:
        return s.mkTerm(cvc5::GT, a);
      case SmtOp::Ge:
        return s.mkTerm(cvc5::GEQ, a);
      case SmtOp::BvNeg:
        return s.mkTerm(cvc5::BITVECTOR_NEG, a);
      case SmtOp::BvAdd:
        return s.mkTerm(cvc5::BITVECTOR_ADD, a);
      case SmtOp::BvSub:
        return s.mkTerm(cvc5::BITVECTOR_SUB, a);
      case SmtOp::BvMul:
        return s.mkTerm(cvc5::BITVECTOR_MULT, a);
      case SmtOp::BvSdiv:
        return s.mkTerm(cvc5::BITVECTOR_SDIV, a);
      case SmtOp::BvSrem:
        return s.mkTerm(cvc5::BITVECTOR_SREM, a);
      case SmtOp::BvSlt:
        return s.mkTerm(cvc5::BITVECTOR_SLT, a);
      case SmtOp::BvSle:
        return s.mkTerm(cvc5::BITVECTOR_SLE, a);
      case SmtOp::BvSgt:
        return s.mkTerm(cvc5::BITVECTOR_SGT, a);
      case SmtOp::BvSge:
        return s.mkTerm(cvc5::BITVECTOR_SGE, a);
      case SmtOp::Select:
        return s.mkTerm(cvc5::SELECT, a);
      case SmtOp::Store:
        return s.mkTerm(cvc5::STORE, a);
      case SmtOp::IntToBv:
        return s.mkTerm(s.mkOp(cvc5::INT_TO_BITVECTOR, {param}), a);
      case SmtOp::BvToNat:
        return s.mkTerm(cvc5::BITVECTOR_TO_NAT, a);
      case SmtOp::SignExtend:
        return s.mkTerm(s.mkOp(cvc5::BITVECTOR_SIGN_EXTEND, {param}), a);
      case SmtOp::Extract:
        return s.mkTerm(s.mkOp(cvc5::BITVECTOR_EXTRACT, {param, 0}), a);
      case SmtOp::FpNeg:
        return s.mkTerm(cvc5::FLOATINGPOINT_NEG, a);
      case SmtOp::FpAdd:
        return fp(cvc5::FLOATINGPOINT_ADD, a);
      case SmtOp::FpSub:
        return fp(cvc5::FLOATINGPOINT_SUB, a);
      case SmtOp::FpMul:
        return fp(cvc5::FLOATINGPOINT_MULT, a);
      case SmtOp::FpDiv:
        return fp(cvc5::FLOATINGPOINT_DIV, a);
      case SmtOp::FpEq:
        return s.mkTerm(cvc5::FLOATINGPOINT_EQ, a);
      case SmtOp::FpLt:
        return s.mkTerm(cvc5::FLOATINGPOINT_LT, a);
      case SmtOp::FpLe:
        return s.mkTerm(cvc5::FLOATINGPOINT_LEQ, a);
      case SmtOp::FpGt:
        return s.mkTerm(cvc5::FLOATINGPOINT_GT, a);
      case SmtOp::FpGe:
        return s.mkTerm(cvc5::FLOATINGPOINT_GEQ, a);
      case SmtOp::IntToFp:
        return s.mkTerm(s.mkOp(cvc5::FLOATINGPOINT_TO_FP_FROM_REAL, {11, 53}),
                        {rne(), s.mkTerm(cvc5::TO_REAL, a)});
      case SmtOp::BvToFp:
        return s.mkTerm(s.mkOp(cvc5::FLOATINGPOINT_TO_FP_FROM_SBV, {11, 53}), {rne(), a[0]});
      case SmtOp::FpToInt: {  // through the reals (cvc5 does not finish via bv2nat)
        Term rtz = s.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_ZERO);
        Term whole = s.mkTerm(cvc5::FLOATINGPOINT_RTI, {rtz, a[0]});
        return s.mkTerm(cvc5::TO_INTEGER, {s.mkTerm(cvc5::FLOATINGPOINT_TO_REAL, {whole})});
      }
      case SmtOp::FpToSbv: {
        Term rtz = s.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_ZERO);
        return s.mkTerm(s.mkOp(cvc5::FLOATINGPOINT_TO_SBV, {param}), {rtz, a[0]});
      }
    }
    throw SmtError("cvc5: unknown SMT operator");
  }
};

template class Translator<cvc5::Term, cvc5::Solver, Cvc5Builder>;

}  // namespace tandem::smt
