#include "abstraction/literals.h"

#include <map>
#include <optional>

namespace tandem::abstraction {

namespace {

using Terms = std::map<ExprRef, BigInt>;  // a linear term: coefficient of each leaf

// e * scale added to (terms, k); false when `e` is not linear over `int` leaves.
bool linear(ExprRef e, const BigInt& scale, Terms& terms, BigInt& k) {
  if (!e->type || e->type->kind != TypeKind::Int) return false;
  switch (e->op) {
    case Op::IntConst:
      k += scale * e->value;
      return true;
    case Op::Add:
      return linear(e->kid(0), scale, terms, k) && linear(e->kid(1), scale, terms, k);
    case Op::Sub:
      return linear(e->kid(0), scale, terms, k) && linear(e->kid(1), -scale, terms, k);
    case Op::Neg:
      return linear(e->kid(0), -scale, terms, k);
    case Op::Mul:
      if (e->kid(0)->op == Op::IntConst)
        return linear(e->kid(1), scale * e->kid(0)->value, terms, k);
      if (e->kid(1)->op == Op::IntConst)
        return linear(e->kid(0), scale * e->kid(1)->value, terms, k);
      break;
    default:
      break;
  }
  terms[e] += scale;  // a leaf: a variable, P[i].v, a[i], len(a), a product...
  return true;
}

// The values of a term that a literal allows: an interval [lo, hi] (either end open), minus one
// value when `except` is set.
struct Values {
  std::optional<BigInt> lo, hi, except;
};

// Normal form of a literal over a linear term: the term (its first coefficient positive) and the
// values of it the literal allows.
std::optional<std::pair<Terms, Values>> normalise(const Literal& l) {
  ExprRef a = l.atom;
  Op op = a->op;
  if (op != Op::Eq && op != Op::Ne && op != Op::Lt && op != Op::Le && op != Op::Gt && op != Op::Ge)
    return std::nullopt;
  Terms terms;
  BigInt k(0);
  if (!linear(a->kid(0), BigInt(1), terms, k) || !linear(a->kid(1), BigInt(-1), terms, k))
    return std::nullopt;
  for (auto it = terms.begin(); it != terms.end();)
    it = it->second.sign() == 0 ? terms.erase(it) : std::next(it);
  if (terms.empty()) return std::nullopt;
  if (!l.positive) op = negatedComparison(op);
  // terms + k op 0, i.e. terms op -k; with the first coefficient positive.
  BigInt c = -k;
  if (terms.begin()->second.sign() < 0) {
    for (auto& [leaf, coef] : terms) coef = -coef;
    c = -c;
    op = mirroredComparison(op);
  }
  Values v;
  switch (op) {
    case Op::Eq:
      v.lo = c;
      v.hi = c;
      break;
    case Op::Ne:
      v.except = c;
      break;
    case Op::Lt:
      v.hi = c - BigInt(1);
      break;
    case Op::Le:
      v.hi = c;
      break;
    case Op::Gt:
      v.lo = c + BigInt(1);
      break;
    default:  // Ge
      v.lo = c;
      break;
  }
  return std::make_pair(std::move(terms), v);
}

// Whether every value the literals `others` (over one term) allow is allowed by `v`.
bool impliedBy(const Values& v, const std::vector<const Values*>& others) {
  if (others.empty()) return false;
  std::optional<BigInt> lo, hi;
  std::vector<BigInt> excluded;
  for (const Values* o : others) {
    if (o->lo && (!lo || *o->lo > *lo)) lo = o->lo;
    if (o->hi && (!hi || *o->hi < *hi)) hi = o->hi;
    if (o->except) excluded.push_back(*o->except);
  }
  // Excluded values at the ends of the interval tighten it.
  for (bool moved = true; moved;) {
    moved = false;
    for (const BigInt& x : excluded) {
      if (lo && *lo == x) lo = x + BigInt(1), moved = true;
      if (hi && *hi == x) hi = x - BigInt(1), moved = true;
    }
  }
  if (lo && hi && *lo > *hi) return true;  // contradictory: implies anything
  if (v.lo && (!lo || *lo < *v.lo)) return false;
  if (v.hi && (!hi || *hi > *v.hi)) return false;
  if (v.except) {
    const BigInt& x = *v.except;
    const bool outside = (lo && x < *lo) || (hi && x > *hi);
    bool excludedToo = false;
    for (const BigInt& y : excluded) excludedToo = excludedToo || y == x;
    if (!outside && !excludedToo) return false;
  }
  return true;
}

}  // namespace

std::vector<size_t> nonImplied(const std::vector<Literal>& lits) {
  std::vector<std::optional<std::pair<Terms, Values>>> forms;
  for (const Literal& l : lits) forms.push_back(normalise(l));
  std::vector<bool> kept(lits.size(), true);
  // Greedily, in order: a literal goes when the literals still kept imply it.
  for (size_t i = 0; i < lits.size(); ++i) {
    if (!forms[i]) continue;
    std::vector<const Values*> others;
    for (size_t j = 0; j < lits.size(); ++j)
      if (j != i && kept[j] && forms[j] && forms[j]->first == forms[i]->first)
        others.push_back(&forms[j]->second);
    if (impliedBy(forms[i]->second, others)) kept[i] = false;
  }
  std::vector<size_t> out;
  for (size_t i = 0; i < lits.size(); ++i)
    if (kept[i]) out.push_back(i);
  return out;
}

}  // namespace tandem::abstraction
