#include "mc/smt/z3_translate.h"

#include <string>

#include "mc/smt/translator_impl.h"

namespace tandem::smt {

// The SMT-LIB vocabulary of encoder.h over Z3's C API (explicit about signedness, unlike the
// overloaded C++ operators).
struct Z3Builder {
  using Term = z3::expr;
  using Fun = z3::func_decl;

  z3::context& ctx;

  z3::sort scalar(ScalarSort s) {
    switch (s) {
      case ScalarSort::Bool:
        return ctx.bool_sort();
      case ScalarSort::Int:
        return ctx.int_sort();
      case ScalarSort::F64:
        return f64Sort();
      default:
        return ctx.bv_sort(bvWidthOf(s));
    }
  }
  z3::sort sort(SmtSort s) {
    return s.array ? ctx.array_sort(ctx.int_sort(), scalar(s.elem)) : scalar(s.elem);
  }

  Term boolVal(bool b) { return ctx.bool_val(b); }
  Term intVal(const BigInt& v) { return ctx.int_val(v.toString().c_str()); }
  Term bvVal(int64_t v, unsigned width) {
    uint64_t bits = static_cast<uint64_t>(v);
    if (width < 64) bits &= (uint64_t{1} << width) - 1;
    return ctx.bv_val(bits, width);
  }
  // The context counts references: every intermediate AST is held by a z3::expr or z3::sort
  // until the call that takes it, or the next API call may free it.
  z3::sort f64Sort() { return z3::sort(ctx, Z3_mk_fpa_sort_double(ctx)); }
  Term rne() { return wrap(Z3_mk_fpa_rne(ctx)); }
  Term fpVal(uint64_t bits) {
    const z3::expr bv = ctx.bv_val(bits, 64);
    const z3::sort fp = f64Sort();
    return wrap(Z3_mk_fpa_to_fp_bv(ctx, bv, fp));
  }
  Term constant(const std::string& name, SmtSort s) { return ctx.constant(name.c_str(), sort(s)); }
  Term constArray(ScalarSort, const Term& fill) { return z3::const_array(ctx.int_sort(), fill); }
  Fun function(const std::string& name, const std::vector<ScalarSort>& domain, ScalarSort range) {
    z3::sort_vector d(ctx);
    for (ScalarSort s : domain) d.push_back(scalar(s));
    return ctx.function(name.c_str(), d, scalar(range));
  }
  Term apply(const Fun& f, const std::vector<Term>& args) {
    z3::expr_vector v(ctx);
    for (const Term& a : args) v.push_back(a);
    return f(v);
  }
  Term forall(const std::vector<Term>& consts, const Term& body) {
    z3::expr_vector v(ctx);
    for (const Term& c : consts) v.push_back(c);
    return z3::forall(v, body);
  }

  Term wrap(Z3_ast r) {
    ctx.check_error();
    return z3::expr(ctx, r);
  }

  Term op(SmtOp op, const std::vector<Term>& a, unsigned param = 0) {
    std::vector<Z3_ast> xs(a.begin(), a.end());
    const auto n = static_cast<unsigned>(xs.size());
    switch (op) {
      case SmtOp::Not:
        return wrap(Z3_mk_not(ctx, xs[0]));
      case SmtOp::And:
        return wrap(Z3_mk_and(ctx, n, xs.data()));
      case SmtOp::Or:
        return wrap(Z3_mk_or(ctx, n, xs.data()));
      case SmtOp::Implies:
        return wrap(Z3_mk_implies(ctx, xs[0], xs[1]));
      case SmtOp::Ite:
        return wrap(Z3_mk_ite(ctx, xs[0], xs[1], xs[2]));
      case SmtOp::Eq:
        return wrap(Z3_mk_eq(ctx, xs[0], xs[1]));
      case SmtOp::Neg:
        return wrap(Z3_mk_unary_minus(ctx, xs[0]));
      case SmtOp::Add:
        return wrap(Z3_mk_add(ctx, n, xs.data()));
      case SmtOp::Sub:
        return wrap(Z3_mk_sub(ctx, n, xs.data()));
      case SmtOp::Mul:
        return wrap(Z3_mk_mul(ctx, n, xs.data()));
      case SmtOp::IntDiv:
        return wrap(Z3_mk_div(ctx, xs[0], xs[1]));  // on Int: SMT-LIB div
      case SmtOp::IntMod:
        return wrap(Z3_mk_mod(ctx, xs[0], xs[1]));
      case SmtOp::Lt:
        return wrap(Z3_mk_lt(ctx, xs[0], xs[1]));
      case SmtOp::Le:
        return wrap(Z3_mk_le(ctx, xs[0], xs[1]));
      case SmtOp::Gt:
        return wrap(Z3_mk_gt(ctx, xs[0], xs[1]));
      case SmtOp::Ge:
        return wrap(Z3_mk_ge(ctx, xs[0], xs[1]));
      case SmtOp::BvNeg:
        return wrap(Z3_mk_bvneg(ctx, xs[0]));
      case SmtOp::BvAdd:
        return wrap(Z3_mk_bvadd(ctx, xs[0], xs[1]));
      case SmtOp::BvSub:
        return wrap(Z3_mk_bvsub(ctx, xs[0], xs[1]));
      case SmtOp::BvMul:
        return wrap(Z3_mk_bvmul(ctx, xs[0], xs[1]));
      case SmtOp::BvSdiv:
        return wrap(Z3_mk_bvsdiv(ctx, xs[0], xs[1]));
      case SmtOp::BvSrem:
        return wrap(Z3_mk_bvsrem(ctx, xs[0], xs[1]));
      case SmtOp::BvSlt:
        return wrap(Z3_mk_bvslt(ctx, xs[0], xs[1]));
      case SmtOp::BvSle:
        return wrap(Z3_mk_bvsle(ctx, xs[0], xs[1]));
      case SmtOp::BvSgt:
        return wrap(Z3_mk_bvsgt(ctx, xs[0], xs[1]));
      case SmtOp::BvSge:
        return wrap(Z3_mk_bvsge(ctx, xs[0], xs[1]));
      case SmtOp::Select:
        return wrap(Z3_mk_select(ctx, xs[0], xs[1]));
      case SmtOp::Store:
        return wrap(Z3_mk_store(ctx, xs[0], xs[1], xs[2]));
      case SmtOp::IntToBv:
        return wrap(Z3_mk_int2bv(ctx, param, xs[0]));
      case SmtOp::BvToNat:
        return wrap(Z3_mk_bv2int(ctx, xs[0], false));
      case SmtOp::SignExtend:
        return wrap(Z3_mk_sign_ext(ctx, param, xs[0]));
      case SmtOp::Extract:
        return wrap(Z3_mk_extract(ctx, param, 0, xs[0]));
      case SmtOp::FpNeg:
        return wrap(Z3_mk_fpa_neg(ctx, xs[0]));
      case SmtOp::FpAdd:
        return wrap(Z3_mk_fpa_add(ctx, rne(), xs[0], xs[1]));
      case SmtOp::FpSub:
        return wrap(Z3_mk_fpa_sub(ctx, rne(), xs[0], xs[1]));
      case SmtOp::FpMul:
        return wrap(Z3_mk_fpa_mul(ctx, rne(), xs[0], xs[1]));
      case SmtOp::FpDiv:
        return wrap(Z3_mk_fpa_div(ctx, rne(), xs[0], xs[1]));
      case SmtOp::FpEq:
        return wrap(Z3_mk_fpa_eq(ctx, xs[0], xs[1]));
      case SmtOp::FpLt:
        return wrap(Z3_mk_fpa_lt(ctx, xs[0], xs[1]));
      case SmtOp::FpLe:
        return wrap(Z3_mk_fpa_leq(ctx, xs[0], xs[1]));
      case SmtOp::FpGt:
        return wrap(Z3_mk_fpa_gt(ctx, xs[0], xs[1]));
      case SmtOp::FpGe:
        return wrap(Z3_mk_fpa_geq(ctx, xs[0], xs[1]));
      case SmtOp::IntToFp: {
        const Term rm = rne(), real = wrap(Z3_mk_int2real(ctx, xs[0]));
        const z3::sort fp = f64Sort();
        return wrap(Z3_mk_fpa_to_fp_real(ctx, rm, real, fp));
      }
      case SmtOp::BvToFp: {
        const Term rm = rne();
        const z3::sort fp = f64Sort();
        return wrap(Z3_mk_fpa_to_fp_signed(ctx, rm, xs[0], fp));
      }
      case SmtOp::FpToInt: {  // the signed value of fp.to_sbv 64 (Z3: unknown via fp.to_real)
        const Term rtz = wrap(Z3_mk_fpa_rtz(ctx));
        const Term bv = wrap(Z3_mk_fpa_to_sbv(ctx, rtz, xs[0], 64));
        const Term nat = wrap(Z3_mk_bv2int(ctx, bv, false));
        const Term zero = ctx.bv_val(0, 64);
        const Term negative = wrap(Z3_mk_bvslt(ctx, bv, zero));
        const Term shifted = nat - ctx.int_val("18446744073709551616");
        return wrap(Z3_mk_ite(ctx, negative, shifted, nat));
      }
      case SmtOp::FpToSbv: {
        const Term rtz = wrap(Z3_mk_fpa_rtz(ctx));
        return wrap(Z3_mk_fpa_to_sbv(ctx, rtz, xs[0], param));
      }
    }
    throw SmtError("z3: unknown SMT operator");
  }
};

template class Translator<z3::expr, z3::context, Z3Builder>;

}  // namespace tandem::smt
