#include "abstraction/linear_atom.h"

#include <algorithm>
#include <functional>

namespace tandem::abstraction {

namespace {

bool isUnboundedInt(ExprRef e) { return e->type && e->type->kind == TypeKind::Int; }

// A sum of terms with coefficients, plus a constant; terms in the order first met, so that a
// rebuilt sum reads as written.
struct Linear {
  std::vector<std::pair<ExprRef, BigInt>> terms;
  BigInt constant;

  void add(ExprRef t, const BigInt& c) {
    auto it = std::find_if(terms.begin(), terms.end(), [t](const auto& x) { return x.first == t; });
    if (it == terms.end()) {
      terms.emplace_back(t, c);
      return;
    }
    it->second += c;
    if (it->second.sign() == 0) terms.erase(it);
  }
  void add(const Linear& o, const BigInt& scale) {
    for (const auto& [t, c] : o.terms) add(t, c * scale);
    constant += o.constant * scale;
  }
};

// `e` (of type int) as a linear sum; anything but +, -, negation and products with a constant is
// a term.
Linear linear(ExprRef e) {
  Linear out;
  switch (e->op) {
    case Op::IntConst:
      out.constant = e->value;
      return out;
    case Op::Add:
    case Op::Sub:
      out.add(linear(e->kid(0)), BigInt(1));
      out.add(linear(e->kid(1)), BigInt(e->op == Op::Add ? 1 : -1));
      return out;
    case Op::Neg:
      out.add(linear(e->kid(0)), BigInt(-1));
      return out;
    case Op::Mul:
      if (e->kid(0)->op == Op::IntConst) {
        out.add(linear(e->kid(1)), e->kid(0)->value);
        return out;
      }
      if (e->kid(1)->op == Op::IntConst) {
        out.add(linear(e->kid(0)), e->kid(1)->value);
        return out;
      }
      break;
    default:
      break;
  }
  out.add(e, BigInt(1));
  return out;
}

// The sum as an expression: positive terms first, then the negative ones subtracted, then the
// constant.
ExprRef rebuild(ExprManager& em, const Linear& l, TypeRef t) {
  ExprRef sum = nullptr;
  auto term = [&](ExprRef x, const BigInt& c) {
    BigInt a = c.sign() < 0 ? -c : c;
    return a == BigInt(1) ? x : em.mk(Op::Mul, t, {em.intConst(a, t), x});
  };
  for (const auto& [x, c] : l.terms)
    if (c.sign() > 0) sum = sum ? em.mk(Op::Add, t, {sum, term(x, c)}) : term(x, c);
  if (!sum && l.constant.sign() != 0) sum = em.intConst(l.constant, t);
  for (const auto& [x, c] : l.terms) {
    if (c.sign() > 0) continue;
    sum = sum ? em.mk(Op::Sub, t, {sum, term(x, c)}) : em.mk(Op::Neg, t, {term(x, c)});
  }
  if (!sum) return em.intConst(BigInt(0), t);
  if (sum->op == Op::IntConst || l.constant.sign() == 0) return sum;
  if (l.constant.sign() > 0) return em.mk(Op::Add, t, {sum, em.intConst(l.constant, t)});
  return em.mk(Op::Sub, t, {sum, em.intConst(-l.constant, t)});
}

// a - b, for two int operands.
Linear difference(ExprRef a, ExprRef b) {
  Linear d = linear(a);
  d.add(linear(b), BigInt(-1));
  return d;
}

bool holds(Op op, const BigInt& d) {  // `d op 0`
  switch (op) {
    case Op::Eq:
      return d.sign() == 0;
    case Op::Ne:
      return d.sign() != 0;
    case Op::Lt:
      return d.sign() < 0;
    case Op::Le:
      return d.sign() <= 0;
    case Op::Gt:
      return d.sign() > 0;
    default:
      return d.sign() >= 0;
  }
}

std::vector<std::pair<ExprRef, BigInt>> sorted(std::vector<std::pair<ExprRef, BigInt>> t) {
  std::sort(t.begin(), t.end(),
            [](const auto& a, const auto& b) { return std::less<ExprRef>()(a.first, b.first); });
  return t;
}

}  // namespace

ExprRef simplify(ExprManager& em, ExprRef e) {
  std::vector<ExprRef> kids;
  bool changed = false;
  for (ExprRef k : e->kids) {
    kids.push_back(simplify(em, k));
    changed = changed || kids.back() != k;
  }
  if (changed) e = em.mk(e->op, e->type, kids, e->payload, e->value);
  if (e->op == Op::Deref && e->kid(0)->op == Op::AddrOf) return e->kid(0)->kid(0);  // *&x is x
  if (e->op == Op::Len && e->kid(0)->op == Op::NewArray && e->kid(0)->kid(0)->type == e->type)
    return e->kid(0)->kid(0);
  if (isUnboundedInt(e) &&
      (e->op == Op::Add || e->op == Op::Sub || e->op == Op::Neg || e->op == Op::Mul))
    return rebuild(em, linear(e), e->type);
  if (e->op == Op::Eq || e->op == Op::Ne) {  // &x == &y, &x == null: distinct places
    auto place = [](ExprRef x) {
      return x->op == Op::NullConst || (x->op == Op::AddrOf && x->kid(0)->op == Op::Var);
    };
    if (e->kid(0) != e->kid(1) && place(e->kid(0)) && place(e->kid(1)))
      return em.boolConst(e->op == Op::Ne);
  }
  if (isComparison(e->op)) {
    if (e->kid(0) == e->kid(1))
      return em.boolConst(e->op == Op::Eq || e->op == Op::Le || e->op == Op::Ge);
    if (isUnboundedInt(e->kid(0)) && isUnboundedInt(e->kid(1))) {
      Linear d = difference(e->kid(0), e->kid(1));
      if (d.terms.empty()) return em.boolConst(holds(e->op, d.constant));
    }
  }
  return e;
}

AtomKey atomKey(ExprRef atom) {
  AtomKey k;
  ExprRef a = atom->kid(0), b = atom->kid(1);
  if (isUnboundedInt(a) && isUnboundedInt(b)) {
    // Over the integers: a < b is a - b + 1 <= 0, a > b is b - a + 1 <= 0, and `s <= 0` is the
    // negation of `-s + 1 <= 0`: of the two, the smaller key stands for both.
    Linear d = difference(a, b);
    if (atom->op == Op::Eq || atom->op == Op::Ne) {
      k.relation = 1;
      k.terms = sorted(d.terms);
      k.constant = d.constant;
      if (!k.terms.empty() && k.terms.front().second.sign() < 0) {
        for (auto& t : k.terms) t.second = -t.second;
        k.constant = -k.constant;
      }
      return k;
    }
    if (atom->op == Op::Gt || atom->op == Op::Ge) {
      Linear n;
      n.add(d, BigInt(-1));
      d = n;
    }
    if (atom->op == Op::Lt || atom->op == Op::Gt) d.constant += BigInt(1);
    AtomKey pos{sorted(d.terms), d.constant, 0, nullptr, nullptr};
    Linear n;
    n.add(d, BigInt(-1));
    n.constant += BigInt(1);
    AtomKey neg{sorted(n.terms), n.constant, 0, nullptr, nullptr};
    return std::min(pos, neg);
  }
  // Bounded or non-integer operands: a < b, b > a, !(b <= a) and !(a >= b) are one predicate.
  switch (atom->op) {
    case Op::Eq:
    case Op::Ne:
      return AtomKey{{},
                     BigInt(0),
                     3,
                     std::min(a, b, std::less<ExprRef>()),
                     std::max(a, b, std::less<ExprRef>())};
    case Op::Lt:
    case Op::Ge:
      return AtomKey{{}, BigInt(0), 2, a, b};
    default:  // Le, Gt: b < a
      return AtomKey{{}, BigInt(0), 2, b, a};
  }
}

}  // namespace tandem::abstraction
