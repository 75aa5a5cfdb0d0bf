// The encoding of Tandem expressions into SMT-LIB terms, written once over a back end's builder
// (z3_translate.cpp, cvc5_translate.cpp, smtlib_translate.cpp), with a cache keyed by ExprRef.
//
// Encodings:
//   int -> Int; bool -> Bool; enum -> Int with 0 <= x < members for every enum-typed leaf,
//   application and array element read; i32/i64 -> (_ BitVec 32/64) with wrapping bvadd/bvsub/
//   bvmul, signed comparisons and truncating bvsdiv/bvsrem (SMT-LIB's values for a zero divisor).
//   int / and % -> SMT-LIB div and mod (Euclidean, the language's semantics).
//   f64 -> Float64 (FloatingPoint 11 53), never reals: + - * / round to nearest even, == < <= > >=
//   are IEEE's (fp.eq, fp.lt, ...: false with a NaN; != is their negation), f64(n) rounds to
//   nearest even (i32/i64 by to_fp of the bit-vector, int through the reals), int(x), i32(x),
//   i64(x) truncate toward zero (FpToInt, fp.to_sbv; the evaluator's float-conversion obligation
//   limits x to [-2^63, 2^63), where both are specified). Literals are their bit patterns.
//   Conversions: int -> bv with int2bv (the value modulo 2^w); bv -> int exactly as the signed
//   value, ite(x <s 0, bv2nat(x) - 2^w, bv2nat(x)); i32 <-> i64 by sign_extend / extract.
//   no_overflow_add/mul(a, b) on w bits: the sum (product) computed exactly in w+1 (2w) bits
//   equals the sign extension of its low w bits (a product with a literal k: a range check on the
//   other factor, cheaper than a 2w-bit multiplier); on `int` they are true.
//   Arrays: a pair (Array Int T, Int length); a leaf of type T[] gets an array constant and a
//   length constant with length >= 0, a leaf of type T[N] the length N. Array literals and `new`
//   are stores over a zero-filled constant array; Store(a, i, v) is an SMT store with a's length.
//   Array equality is equality of lengths and of
//   the elements below the length: expanded element by element when either side has a fixed
//   length (up to kMaxExpandedArrayEquality), else a quantifier over the index.
//   Calls -> uninterpreted functions over the argument sorts, one per callee and signature.
//   abs/min/max -> ite. Leaves -> free constants named by TermNaming (made unique).
// Side constraints (enum ranges, lengths >= 0) are kept per node; sideConstraints() collects the
// ones below a formula so the session asserts them with it, in the same scope.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/expr/expr_walk.h"
#include "mc/expr/float64.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

// Array equalities where one side has a fixed length up to this are expanded element by element.
inline constexpr int64_t kMaxExpandedArrayEquality = 64;

// B provides: Term, Fun; boolVal(bool), intVal(const BigInt&), bvVal(int64_t, unsigned width),
// fpVal(uint64_t bits),
// constant(name, SmtSort), constArray(ScalarSort elem, fill), function(name, domain, range),
// apply(fun, args), op(SmtOp, args, param), forall(constants, body).
template <class B>
class Encoder {
 public:
  using Term = typename B::Term;
  using Fun = typename B::Fun;
  struct Value {
    Term term;
    std::optional<Term> length;  // arrays: the Int length
  };

  Encoder(B& builder, const TermNaming& naming) : b_(builder), naming_(naming) {}
  Encoder(const Encoder&) = delete;
  Encoder& operator=(const Encoder&) = delete;

  // Throws SmtUnsupported for expressions outside the translation.
  const Value& encode(ExprRef root) {
    // An unsupported node is refused on the way down, before its kids are encoded.
    postOrder(
        root, [&](ExprRef e) { return cache_.count(e) > 0; },
        [&](ExprRef e) { cache_.emplace(e, build(e)); },
        [](ExprRef e) {
          if (auto why = nodeUnsupportedReason(e)) throw SmtUnsupported(*why);
        });
    return cache_.at(root);
  }

  Term term(ExprRef e) { return encode(e).term; }

  // The side constraints of every node below the (already encoded) roots, each node once.
  void sideConstraints(std::span<const ExprRef> roots, std::vector<Term>& out) const {
    forEachNode(roots, [&](ExprRef e) {
      if (auto it = sides_.find(e); it != sides_.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
    });
  }

  // forall vars. body, for scalar leaves `vars`. Side constraints of nodes that mention a bound
  // leaf become the quantifier's antecedent; the others are returned to be asserted outside.
  Quantified<Term> forall(std::span<const ExprRef> vars, ExprRef body) {
    if (!body->type || body->type->kind != TypeKind::Bool)
      throw SmtError("forall: the body must be a formula");
    std::vector<Term> consts;
    for (ExprRef v : vars) {
      if (!isLeaf(v) || !scalarSortOf(v->type))
        throw SmtUnsupported("quantification over something other than a scalar leaf");
      consts.push_back(encode(v).term);
    }
    Term matrix = encode(body).term;
    const std::unordered_set<ExprRef> bound(vars.begin(), vars.end());
    std::vector<Term> inside, outside;
    forEachNode(body, [&](ExprRef e) {
      if (auto it = sides_.find(e); it != sides_.end()) {
        auto& dst = mentionsAny(e, bound) ? inside : outside;
        dst.insert(dst.end(), it->second.begin(), it->second.end());
      }
    });
    if (!inside.empty()) matrix = b_.op(SmtOp::Implies, {conjunction(inside), matrix});
    return {b_.forall(consts, matrix), std::move(outside)};
  }

  // (select array index) for an encoded array expression: model extraction reads elements.
  Term selectAt(ExprRef array, const BigInt& index) {
    return b_.op(SmtOp::Select, {encode(array).term, b_.intVal(index)});
  }
  Term lengthOf(ExprRef array) { return *encode(array).length; }

 private:
  Value build(ExprRef e) {
    switch (e->op) {
      case Op::IntConst:
        return {constant(e->value, numClassOf(e->type)), {}};
      case Op::BoolConst:
        return {b_.boolVal(e->isTrue()), {}};
      case Op::EnumConst:
        return {b_.intVal(BigInt(e->payload)), {}};
      case Op::FloatConst:
        return {b_.fpVal(floatBits(e->value)), {}};
      case Op::Symbol:
      case Op::Var:
        return leaf(e);
      case Op::Not:
        return {b_.op(SmtOp::Not, {kid(e, 0)}), {}};
      case Op::And:
      case Op::Or: {
        std::vector<Term> ts;
        for (ExprRef k : e->kids) ts.push_back(cache_.at(k).term);
        if (ts.empty()) return {b_.boolVal(e->op == Op::And), {}};
        if (ts.size() == 1) return {ts[0], {}};
        return {b_.op(e->op == Op::And ? SmtOp::And : SmtOp::Or, ts), {}};
      }
      case Op::Implies:
        return {b_.op(SmtOp::Implies, {kid(e, 0), kid(e, 1)}), {}};
      case Op::Ite:
        return ite(e);
      case Op::Neg: {
        const NumClass c = numClassOf(e->type);
        return {negate(as(e->kid(0), c), c), {}};
      }
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
        return {arith(e), {}};
      case Op::Eq:
      case Op::Ne: {
        Term eq = equality(e->kid(0), e->kid(1));
        return {e->op == Op::Eq ? eq : b_.op(SmtOp::Not, {eq}), {}};
      }
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: {
        const NumClass c = operandClass(e->kid(0), e->kid(1));
        return {compare(e->op, as(e->kid(0), c), as(e->kid(1), c), c), {}};
      }
      case Op::Abs: {
        const NumClass c = numClassOf(e->type);
        Term x = as(e->kid(0), c);
        Term negative = compare(Op::Lt, x, constant(BigInt(0), c), c);
        return {b_.op(SmtOp::Ite, {negative, negate(x, c), x}), {}};
      }
      case Op::Min:
      case Op::Max: {
        const NumClass c = numClassOf(e->type);
        Term a = as(e->kid(0), c), b = as(e->kid(1), c);
        Term pickA = compare(e->op == Op::Min ? Op::Le : Op::Ge, a, b, c);
        return {b_.op(SmtOp::Ite, {pickA, a, b}), {}};
      }
      case Op::NoOverflowAdd:
      case Op::NoOverflowMul:
        return {noOverflow(e), {}};
      case Op::Cast:
        return {as(e->kid(0), numClassOf(e->type)), {}};
      case Op::Select:
        return select(e);
      case Op::Len:
        return {convert(*cache_.at(e->kid(0)).length, kIntClass, numClassOf(e->type)), {}};
      case Op::ArrayLit:
        return arrayLiteral(e);
      case Op::NewArray: {
        TypeRef elem = e->type->elem;
        Term fill = constant(BigInt(0), numClassOf(elem));
        return {b_.constArray(*scalarSortOf(elem), fill), as(e->kid(0), kIntClass)};
      }
      case Op::Store: {
        const Value& arr = cache_.at(e->kid(0));
        Term t = b_.op(SmtOp::Store, {arr.term, as(e->kid(1), kIntClass),
                                      as(e->kid(2), numClassOf(e->type->elem))});
        return {t, arr.length};
      }
      case Op::Call:
        return call(e);
      default:
        throw SmtUnsupported(opName(e->op));
    }
  }

  Term kid(ExprRef e, size_t i) { return cache_.at(e->kid(i)).term; }

  // FloatConst values (and f64 model values) hold the bit pattern as a signed 64-bit number.
  static uint64_t floatBits(const BigInt& v) { return static_cast<uint64_t>(v.wrapTo(64)); }

  Term negate(const Term& x, NumClass c) {
    return b_.op(c.isFloat ? SmtOp::FpNeg : c.isBv() ? SmtOp::BvNeg : SmtOp::Neg, {x});
  }

  Term constant(const BigInt& v, NumClass c) {
    if (c.isBool) return b_.boolVal(v.sign() != 0);
    if (c.isFloat) return b_.fpVal(f64::toBits(f64::fromInteger(v)));
    if (c.isBv()) return b_.bvVal(v.wrapTo(c.width), c.width);
    return b_.intVal(v);
  }

  // The kid's term in class `to`; literals are converted here rather than in the solver.
  Term as(ExprRef k, NumClass to) {
    const NumClass from = numClassOf(k->type);
    if (from == to) return cache_.at(k).term;
    if (k->op == Op::IntConst)
      return constant(from.isBv() ? BigInt(k->value.wrapTo(from.width)) : k->value, to);
    return convert(cache_.at(k).term, from, to);
  }

  Term convert(const Term& t, NumClass from, NumClass to) {
    if (from == to) return t;
    if (from.isBool || to.isBool) throw SmtUnsupported("conversion between bool and integers");
    if (to.isFloat)
      return from.isBv() ? b_.op(SmtOp::BvToFp, {t}, from.width) : b_.op(SmtOp::IntToFp, {t});
    if (from.isFloat) {
      if (!to.isBv()) return b_.op(SmtOp::FpToInt, {t});
      const NumClass bv64{false, 64, false};
      return convert(b_.op(SmtOp::FpToSbv, {t}, 64), bv64, to);
    }
    if (!from.isBv()) return b_.op(SmtOp::IntToBv, {t}, to.width);
    if (!to.isBv()) {
      Term nat = b_.op(SmtOp::BvToNat, {t});
      Term negative = b_.op(SmtOp::BvSlt, {t, b_.bvVal(0, from.width)});
      return b_.op(SmtOp::Ite,
                   {negative, b_.op(SmtOp::Sub, {nat, b_.intVal(pow2(from.width))}), nat});
    }
    if (to.width > from.width) return b_.op(SmtOp::SignExtend, {t}, to.width - from.width);
    return b_.op(SmtOp::Extract, {t}, to.width - 1);
  }

  Term compare(Op op, const Term& a, const Term& b, NumClass c) {
    if (c.isFloat) {
      const SmtOp fp = op == Op::Lt   ? SmtOp::FpLt
                       : op == Op::Le ? SmtOp::FpLe
                       : op == Op::Gt ? SmtOp::FpGt
                                      : SmtOp::FpGe;
      return b_.op(fp, {a, b});
    }
    const bool bv = c.isBv();
    switch (op) {
      case Op::Lt:
        return b_.op(bv ? SmtOp::BvSlt : SmtOp::Lt, {a, b});
      case Op::Le:
        return b_.op(bv ? SmtOp::BvSle : SmtOp::Le, {a, b});
      case Op::Gt:
        return b_.op(bv ? SmtOp::BvSgt : SmtOp::Gt, {a, b});
      default:
        return b_.op(bv ? SmtOp::BvSge : SmtOp::Ge, {a, b});
    }
  }

  Term arith(ExprRef e) {
    const NumClass c = numClassOf(e->type);
    Term a = as(e->kid(0), c), b = as(e->kid(1), c);
    if (c.isFloat) {
      const SmtOp fp = e->op == Op::Add   ? SmtOp::FpAdd
                       : e->op == Op::Sub ? SmtOp::FpSub
                       : e->op == Op::Mul ? SmtOp::FpMul
                       : e->op == Op::Div ? SmtOp::FpDiv
                                          : throw SmtUnsupported("% on f64");
      return b_.op(fp, {a, b});
    }
    const bool bv = c.isBv();
    switch (e->op) {
      case Op::Add:
        return b_.op(bv ? SmtOp::BvAdd : SmtOp::Add, {a, b});
      case Op::Sub:
        return b_.op(bv ? SmtOp::BvSub : SmtOp::Sub, {a, b});
      case Op::Mul:
        return b_.op(bv ? SmtOp::BvMul : SmtOp::Mul, {a, b});
      case Op::Div:
        return b_.op(bv ? SmtOp::BvSdiv : SmtOp::IntDiv, {a, b});
      default:
        return b_.op(bv ? SmtOp::BvSrem : SmtOp::IntMod, {a, b});
    }
  }

  Term noOverflow(ExprRef e) {
    const NumClass c = operandClass(e->kid(0), e->kid(1));
    if (!c.isBv()) return b_.boolVal(true);  // mathematical integers never overflow
    const unsigned w = c.width;
    const bool add = e->op == Op::NoOverflowAdd;
    if (!add) {  // a product with a literal: a range check on the other factor, no multiplier
      if (e->kid(1)->op == Op::IntConst) return productFits(e->kid(0), e->kid(1), c);
      if (e->kid(0)->op == Op::IntConst) return productFits(e->kid(1), e->kid(0), c);
    }
    const unsigned extra = add ? 1 : w;  // enough bits for the exact sum (product)
    Term a = b_.op(SmtOp::SignExtend, {as(e->kid(0), c)}, extra);
    Term b = b_.op(SmtOp::SignExtend, {as(e->kid(1), c)}, extra);
    Term exact = b_.op(add ? SmtOp::BvAdd : SmtOp::BvMul, {a, b});
    Term low = b_.op(SmtOp::Extract, {exact}, w - 1);
    return b_.op(SmtOp::Eq, {b_.op(SmtOp::SignExtend, {low}, extra), exact});
  }

  // a * k fits in w bits iff a lies in [ceil(MIN / k), floor(MAX / k)] (bounds swapped for k < 0).
  Term productFits(ExprRef a, ExprRef literal, NumClass c) {
    const BigInt k(literal->value.wrapTo(c.width));
    if (k.sign() == 0) return b_.boolVal(true);
    const BigInt max = pow2(c.width - 1) - BigInt(1), min = -pow2(c.width - 1);
    // Floor and ceiling of n / d from Euclidean division.
    auto floorDiv = [](const BigInt& n, const BigInt& d) {
      return d.sign() > 0 ? BigInt::div(n, d) : BigInt::div(-n, -d);
    };
    auto ceilDiv = [&](const BigInt& n, const BigInt& d) { return -floorDiv(-n, d); };
    // Clamped to the type: for k = -1 the bound MIN / -1 lies beyond MAX.
    BigInt lo = k.sign() > 0 ? ceilDiv(min, k) : ceilDiv(max, k);
    BigInt hi = k.sign() > 0 ? floorDiv(max, k) : floorDiv(min, k);
    if (lo < min) lo = min;
    if (hi > max) hi = max;
    Term x = as(a, c);
    return b_.op(SmtOp::And, {b_.op(SmtOp::BvSle, {constant(lo, c), x}),
                              b_.op(SmtOp::BvSle, {x, constant(hi, c)})});
  }

  Value ite(ExprRef e) {
    Term c = kid(e, 0);
    if (e->type->kind == TypeKind::Array) {
      const Value& t = cache_.at(e->kid(1));
      const Value& f = cache_.at(e->kid(2));
      return {b_.op(SmtOp::Ite, {c, t.term, f.term}), b_.op(SmtOp::Ite, {c, *t.length, *f.length})};
    }
    const NumClass n = numClassOf(e->type);
    return {b_.op(SmtOp::Ite, {c, as(e->kid(1), n), as(e->kid(2), n)}), {}};
  }

  Term equality(ExprRef a, ExprRef b) {
    if (a->type->kind == TypeKind::Array) return arrayEquality(a, b);
    const NumClass c = operandClass(a, b);
    return b_.op(c.isFloat ? SmtOp::FpEq : SmtOp::Eq, {as(a, c), as(b, c)});
  }

  // Language equality of arrays: same length, same elements below it (not SMT extensionality,
  // which would also compare the unused elements beyond the length).
  Term arrayEquality(ExprRef a, ExprRef b) {
    const Value& x = cache_.at(a);
    const Value& y = cache_.at(b);
    if (a->type->isFixedArray() && b->type->isFixedArray() && a->type->length != b->type->length)
      return b_.boolVal(false);
    // One known length fixes both: compare element by element, without a quantifier.
    const int64_t known = a->type->isFixedArray() ? a->type->length : b->type->length;
    if (known >= 0 && known <= kMaxExpandedArrayEquality) {
      std::vector<Term> eqs;
      if (!a->type->isFixedArray() || !b->type->isFixedArray())
        eqs.push_back(b_.op(SmtOp::Eq, {*x.length, *y.length}));
      for (int64_t i = 0; i < known; ++i) {
        Term idx = b_.intVal(BigInt(i));
        eqs.push_back(b_.op(
            SmtOp::Eq, {b_.op(SmtOp::Select, {x.term, idx}), b_.op(SmtOp::Select, {y.term, idx})}));
      }
      return conjunction(eqs);
    }
    Term i = b_.constant(uniqueName("idx"), SmtSort{false, ScalarSort::Int});
    Term inRange = b_.op(SmtOp::And, {b_.op(SmtOp::Le, {b_.intVal(BigInt(0)), i}),
                                      b_.op(SmtOp::Lt, {i, *x.length})});
    Term same =
        b_.op(SmtOp::Eq, {b_.op(SmtOp::Select, {x.term, i}), b_.op(SmtOp::Select, {y.term, i})});
    Term elements = b_.forall({i}, b_.op(SmtOp::Implies, {inRange, same}));
    return b_.op(SmtOp::And, {b_.op(SmtOp::Eq, {*x.length, *y.length}), elements});
  }

  Value select(ExprRef e) {
    const Value& arr = cache_.at(e->kid(0));
    Term s = b_.op(SmtOp::Select, {arr.term, as(e->kid(1), kIntClass)});
    addEnumRange(e, s);
    return {s, {}};
  }

  Value arrayLiteral(ExprRef e) {
    TypeRef elem = e->type->elem;
    const NumClass c = numClassOf(elem);
    Term arr = b_.constArray(*scalarSortOf(elem), constant(BigInt(0), c));
    for (size_t i = 0; i < e->kids.size(); ++i)
      arr =
          b_.op(SmtOp::Store, {arr, b_.intVal(BigInt(static_cast<uint64_t>(i))), as(e->kid(i), c)});
    return {arr, b_.intVal(BigInt(static_cast<uint64_t>(e->kids.size())))};
  }

  Value leaf(ExprRef e) {
    const std::string name = uniqueName(naming_.leafName(e));
    const SmtSort sort = *smtSortOf(e->type);
    Term c = b_.constant(name, sort);
    if (!sort.array) {
      addEnumRange(e, c);
      return {c, {}};
    }
    if (e->type->isFixedArray()) return {c, b_.intVal(BigInt(e->type->length))};
    Term len = b_.constant(uniqueName(name + "_len"), SmtSort{false, ScalarSort::Int});
    sides_[e].push_back(b_.op(SmtOp::Ge, {len, b_.intVal(BigInt(0))}));
    return {c, len};
  }

  Value call(ExprRef e) {
    std::vector<ScalarSort> domain;
    std::vector<Term> args;
    std::string key = std::to_string(e->payload) + ":";
    for (ExprRef k : e->kids) {
      domain.push_back(*scalarSortOf(k->type));
      args.push_back(cache_.at(k).term);
      key += static_cast<char>('0' + static_cast<int>(domain.back()));
    }
    const ScalarSort range = *scalarSortOf(e->type);
    key += "->" + std::to_string(static_cast<int>(range));
    std::optional<Term> result;
    if (args.empty()) {  // hash-consing makes the node, hence the constant, unique
      result = b_.constant(uniqueName(naming_.calleeName(e->payload)), SmtSort{false, range});
    } else {
      auto it = funs_.find(key);
      if (it == funs_.end())
        it = funs_
                 .emplace(key,
                          b_.function(uniqueName(naming_.calleeName(e->payload)), domain, range))
                 .first;
      result = b_.apply(it->second, args);
    }
    addEnumRange(e, *result);
    return {*result, {}};
  }

  void addEnumRange(ExprRef e, const Term& t) {
    if (e->type->kind != TypeKind::Enum) return;
    const auto n = static_cast<uint64_t>(e->type->members.size());
    sides_[e].push_back(b_.op(SmtOp::And, {b_.op(SmtOp::Le, {b_.intVal(BigInt(0)), t}),
                                           b_.op(SmtOp::Lt, {t, b_.intVal(BigInt(n))})}));
  }

  Term conjunction(const std::vector<Term>& ts) {
    if (ts.empty()) return b_.boolVal(true);
    if (ts.size() == 1) return ts[0];
    return b_.op(SmtOp::And, ts);
  }

  static bool mentionsAny(ExprRef root, const std::unordered_set<ExprRef>& leaves) {
    return anyNode(root, [&](ExprRef e) { return leaves.count(e) > 0; });
  }

  // Distinct leaves must never share a constant: back ends identify constants by name.
  std::string uniqueName(const std::string& wanted) {
    std::string base = wanted.empty() ? std::string("_") : wanted;
    for (char& ch : base)
      if (ch == '|' || ch == '\\') ch = '_';
    std::string name = base;
    for (unsigned n = 1; names_.count(name); ++n) name = base + "_" + std::to_string(n);
    names_.insert(name);
    return name;
  }

  B& b_;
  const TermNaming& naming_;
  std::unordered_map<ExprRef, Value> cache_;
  std::unordered_map<ExprRef, std::vector<Term>> sides_;
  std::unordered_set<std::string> names_;
  std::map<std::string, Fun> funs_;  // by callee and signature
};

}  // namespace tandem::smt
