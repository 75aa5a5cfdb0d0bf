// Model::eval: Tandem's evaluator over a model, with the semantics of the SMT translation
// (encoder.h), so that a formula the back end satisfied evaluates to true here. It differs from
// the concrete evaluator (mc/exec) where SMT-LIB is total: bit-vector division by zero follows
// SMT-LIB, integer division by zero reads the model's value, out-of-range selects read the
// array's unconstrained elements. f64 values are held as their bit patterns (signed, as FloatConst)
// and computed with mc/expr/float64, the concrete evaluator's IEEE semantics.
#include <algorithm>
#include <unordered_map>

#include "mc/expr/expr_walk.h"
#include "mc/expr/float64.h"
#include "mc/expr/int_functions.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/model.h"

namespace tandem::smt {

namespace {

using Val = std::optional<ModelValue>;

ModelValue scalarValue(BigInt v) { return ModelValue{std::move(v), nullptr}; }
ModelValue boolValue(bool b) { return scalarValue(BigInt(b ? 1 : 0)); }

// A value of class `from` read in class `to` (bit-vector values are held signed).
BigInt convertValue(const BigInt& v, NumClass to) {
  return to.isBv() ? BigInt(v.wrapTo(to.width)) : v;
}

double asDouble(const BigInt& bits) {
  return f64::fromBits(static_cast<uint64_t>(bits.wrapTo(64)));
}
BigInt fromDouble(double d) { return BigInt(static_cast<int64_t>(f64::toBits(d))); }

std::shared_ptr<const ArrayValue> defaultArray(TypeRef t) {
  auto a = std::make_shared<ArrayValue>();
  if (t->isFixedArray()) a->length = BigInt(t->length);
  return a;
}

// Equality below the common length, without enumerating it (lengths may be huge).
bool sameElements(const ArrayValue& a, const ArrayValue& b) {
  if (a.length != b.length) return false;
  std::vector<BigInt> indices;
  for (const auto* m : {&a.elements, &b.elements})
    for (const auto& [i, v] : *m)
      if (i.sign() >= 0 && i < a.length) indices.push_back(i);
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  if (a.fill != b.fill && BigInt(static_cast<uint64_t>(indices.size())) < a.length) return false;
  for (const BigInt& i : indices)
    if (a.at(i) != b.at(i)) return false;
  return true;
}

class Evaluator {
 public:
  explicit Evaluator(const Model& m) : m_(m) {}

  Val eval(ExprRef root) {
    postOrder(
        root, [&](ExprRef e) { return memo_.count(e) > 0; },
        [&](ExprRef e) { memo_.emplace(e, apply(e)); });
    return memo_.at(root);
  }

 private:
  std::optional<BigInt> scalar(ExprRef k, NumClass to) const {
    const Val& v = memo_.at(k);
    if (!v || v->isArray()) return std::nullopt;
    return convertValue(v->scalar, to);
  }
  std::optional<bool> truth(ExprRef k) const {
    const Val& v = memo_.at(k);
    if (!v || v->isArray()) return std::nullopt;
    return v->scalar.sign() != 0;
  }

  Val apply(ExprRef e) {
    switch (e->op) {
      case Op::IntConst:
        return scalarValue(convertValue(e->value, numClassOf(e->type)));
      case Op::BoolConst:
        return boolValue(e->isTrue());
      case Op::EnumConst:
        return scalarValue(BigInt(e->payload));
      case Op::FloatConst:
        return scalarValue(e->value);
      case Op::Symbol:
      case Op::Var:
        return leaf(e);
      case Op::Not: {
        auto a = truth(e->kid(0));
        if (!a) return std::nullopt;
        return boolValue(!*a);
      }
      case Op::And:
      case Op::Or: {
        // Three-valued: a decisive kid decides even when another is undetermined.
        const bool decisive = e->op == Op::Or;
        bool unknown = false;
        for (ExprRef k : e->kids) {
          auto v = truth(k);
          if (!v)
            unknown = true;
          else if (*v == decisive)
            return boolValue(decisive);
        }
        if (unknown) return std::nullopt;
        return boolValue(!decisive);
      }
      case Op::Implies: {
        auto a = truth(e->kid(0)), b = truth(e->kid(1));
        if ((a && !*a) || (b && *b)) return boolValue(true);
        if (!a || !b) return std::nullopt;
        return boolValue(false);
      }
      case Op::Ite: {
        auto c = truth(e->kid(0));
        if (!c) return std::nullopt;
        ExprRef branch = e->kid(*c ? 1 : 2);
        if (e->type->kind == TypeKind::Array) return memo_.at(branch);
        auto v = scalar(branch, numClassOf(e->type));
        if (!v) return std::nullopt;
        return scalarValue(*v);
      }
      case Op::Neg:
      case Op::Abs: {
        const NumClass c = numClassOf(e->type);
        auto x = scalar(e->kid(0), c);
        if (!x) return std::nullopt;
        if (c.isFloat) return scalarValue(fromDouble(-asDouble(*x)));  // flips the sign bit
        if (e->op == Op::Abs && x->sign() >= 0) return scalarValue(*x);
        return scalarValue(convertValue(-*x, c));  // abs(INT_MIN) wraps to INT_MIN
      }
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
        return arith(e);
      case Op::Eq:
      case Op::Ne: {
        auto eq = equal(e->kid(0), e->kid(1));
        if (!eq) return std::nullopt;
        return boolValue(*eq == (e->op == Op::Eq));
      }
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: {
        const NumClass c = operandClass(e->kid(0), e->kid(1));
        auto a = scalar(e->kid(0), c), b = scalar(e->kid(1), c);
        if (!a || !b) return std::nullopt;
        if (c.isFloat)
          return boolValue(f64::compare(*f64CompareOf(e->op), asDouble(*a), asDouble(*b)));
        const auto o = *a <=> *b;
        const bool r = e->op == Op::Lt   ? o < 0
                       : e->op == Op::Le ? o <= 0
                       : e->op == Op::Gt ? o > 0
                                         : o >= 0;
        return boolValue(r);
      }
      case Op::Min:
      case Op::Max: {
        const NumClass c = numClassOf(e->type);
        auto a = scalar(e->kid(0), c), b = scalar(e->kid(1), c);
        if (!a || !b) return std::nullopt;
        const bool pickA = e->op == Op::Min ? *a <= *b : *a >= *b;
        return scalarValue(pickA ? *a : *b);
      }
      case Op::NoOverflowAdd:
      case Op::NoOverflowMul: {
        const NumClass c = operandClass(e->kid(0), e->kid(1));
        if (!c.isBv()) return boolValue(true);
        auto a = scalar(e->kid(0), c), b = scalar(e->kid(1), c);
        if (!a || !b) return std::nullopt;
        return boolValue(e->op == Op::NoOverflowAdd ? intfn::noOverflowAdd(*a, *b, c.width)
                                                    : intfn::noOverflowMul(*a, *b, c.width));
      }
      case Op::Cast: {
        const NumClass from = numClassOf(e->kid(0)->type), to = numClassOf(e->type);
        if (from.isFloat != to.isFloat) {
          auto v = scalar(e->kid(0), from);
          if (!v) return std::nullopt;
          if (to.isFloat) return scalarValue(fromDouble(f64::fromInteger(*v)));
          auto n = f64::toInteger(asDouble(*v));  // SMT-LIB leaves NaN and infinities open
          if (!n) return std::nullopt;
          return scalarValue(convertValue(*n, to));
        }
        auto v = scalar(e->kid(0), to);
        if (!v) return std::nullopt;
        return scalarValue(*v);
      }
      case Op::Select: {
        const Val& a = memo_.at(e->kid(0));
        auto i = scalar(e->kid(1), kIntClass);
        if (!a || !a->isArray() || !i) return std::nullopt;
        return scalarValue(a->array->at(*i));
      }
      case Op::Len: {
        const Val& a = memo_.at(e->kid(0));
        if (!a || !a->isArray()) return std::nullopt;
        return scalarValue(convertValue(a->array->length, numClassOf(e->type)));
      }
      case Op::ArrayLit: {
        auto a = std::make_shared<ArrayValue>();
        a->length = BigInt(static_cast<uint64_t>(e->kids.size()));
        const NumClass c = numClassOf(e->type->elem);
        for (size_t i = 0; i < e->kids.size(); ++i) {
          auto v = scalar(e->kid(i), c);
          if (!v) return std::nullopt;
          a->elements[BigInt(static_cast<uint64_t>(i))] = *v;
        }
        return ModelValue{BigInt(0), a};
      }
      case Op::NewArray: {
        auto n = scalar(e->kid(0), kIntClass);
        if (!n) return std::nullopt;
        auto a = std::make_shared<ArrayValue>();
        a->length = *n;
        return ModelValue{BigInt(0), a};
      }
      case Op::Store: {
        const Val& a = memo_.at(e->kid(0));
        auto i = scalar(e->kid(1), kIntClass);
        auto v = scalar(e->kid(2), numClassOf(e->type->elem));
        if (!a || !a->isArray() || !i || !v) return std::nullopt;
        auto out = std::make_shared<ArrayValue>(*a->array);
        out->elements[*i] = *v;
        return ModelValue{BigInt(0), out};
      }
      case Op::Call: {
        std::vector<BigInt> args;
        for (ExprRef k : e->kids) {
          auto v = scalar(k, numClassOf(k->type));
          if (!v) return std::nullopt;
          args.push_back(*v);
        }
        const BigInt* r = m_.call(e->payload, args);
        return scalarValue(r ? *r : BigInt(0));
      }
      default:
        return std::nullopt;  // outside the translation
    }
  }

  Val leaf(ExprRef e) const {
    const LeafKey key = LeafKey::of(e);
    if (e->type->kind == TypeKind::Array) {
      const ArrayValue* a = m_.array(key);
      if (!a) return ModelValue{BigInt(0), defaultArray(e->type)};
      return ModelValue{BigInt(0), std::make_shared<ArrayValue>(*a)};
    }
    const BigInt* v = m_.scalar(key);
    return scalarValue(v ? *v : BigInt(0));
  }

  Val arith(ExprRef e) const {
    const NumClass c = numClassOf(e->type);
    auto a = scalar(e->kid(0), c), b = scalar(e->kid(1), c);
    if (!a || !b) return std::nullopt;
    const BigInt& x = *a;
    const BigInt& y = *b;
    if (c.isFloat) {
      auto k = f64ArithOf(e->op);
      if (!k) return std::nullopt;  // %
      return scalarValue(fromDouble(f64::arith(*k, asDouble(x), asDouble(y))));
    }
    switch (e->op) {
      case Op::Add:
        return scalarValue(convertValue(x + y, c));
      case Op::Sub:
        return scalarValue(convertValue(x - y, c));
      case Op::Mul:
        return scalarValue(convertValue(x * y, c));
      default:
        break;
    }
    const bool div = e->op == Op::Div;
    if (y.sign() == 0) {
      if (c.isBv())  // SMT-LIB: bvsdiv by 0 is -1 for x >= 0 and 1 otherwise; bvsrem by 0 is x
        return scalarValue(div ? BigInt(x.sign() >= 0 ? -1 : 1) : x);
      const BigInt* r = m_.divByZero(e->op, x);
      if (!r) return std::nullopt;
      return scalarValue(*r);
    }
    if (c.isBv()) {
      const int64_t xs = x.small(), ys = y.small();
      return scalarValue(convertValue(BigInt(div ? truncDiv(xs, ys) : truncRem(xs, ys)), c));
    }
    return scalarValue(div ? BigInt::div(x, y) : BigInt::mod(x, y));
  }

  std::optional<bool> equal(ExprRef a, ExprRef b) const {
    if (a->type->kind == TypeKind::Array) {
      const Val& x = memo_.at(a);
      const Val& y = memo_.at(b);
      if (!x || !y || !x->isArray() || !y->isArray()) return std::nullopt;
      return sameElements(*x->array, *y->array);
    }
    const NumClass c = operandClass(a, b);
    auto x = scalar(a, c), y = scalar(b, c);
    if (!x || !y) return std::nullopt;
    if (c.isFloat) return f64::compare(f64::Compare::Eq, asDouble(*x), asDouble(*y));
    return *x == *y;
  }

  const Model& m_;
  std::unordered_map<ExprRef, Val> memo_;
};

}  // namespace

std::optional<ModelValue> Model::eval(ExprRef e) const { return Evaluator(*this).eval(e); }

std::optional<BigInt> Model::evalInt(ExprRef e) const {
  auto v = eval(e);
  if (!v || v->isArray()) return std::nullopt;
  return v->scalar;
}

std::optional<bool> Model::evalBool(ExprRef e) const {
  auto v = evalInt(e);
  if (!v) return std::nullopt;
  return v->sign() != 0;
}

std::optional<ArrayValue> Model::evalArray(ExprRef e) const {
  auto v = eval(e);
  if (!v || !v->isArray()) return std::nullopt;
  return *v->array;
}

}  // namespace tandem::smt
