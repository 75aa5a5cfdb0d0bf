#include "mc/smt/minimize_formulas.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "mc/smt/expr_support.h"
#include "mc/smt/slice_keys.h"
#include "mc/smt/union_find.h"

namespace tandem::smt {

namespace {

// One value to pin, in the order minimizeModel pins them.
struct Unit {
  enum class Kind : uint8_t {
    Scalar,    // `term`: a scalar term
    Length,    // len(term), term an array leaf of unfixed length sliced whole
    Elements,  // term[0], term[1], ... below its length, term an array leaf sliced whole
    Array,     // `term`: an array term that is not a leaf (pinned as minimizeModel does)
  };
  Kind kind = Kind::Scalar;
  ExprRef term = nullptr;
};

bool settable(ExprRef t) { return isLeaf(t) || isConstantSelect(t); }

// `t`'s value written into `m` (t a leaf or a constant select of a leaf array).
void setValue(Model& m, ExprRef t, const BigInt& v) {
  if (isLeaf(t)) {
    m.setScalar(LeafKey::of(t), v);
    return;
  }
  const LeafKey array = LeafKey::of(t->kid(0));
  if (!m.array(array)) {
    ArrayValue a;
    TypeRef at = t->kid(0)->type;
    a.length = at->isFixedArray() ? BigInt(at->length) : t->kid(1)->value + BigInt(1);
    m.setArray(array, std::move(a));
  }
  m.setElement(array, t->kid(1)->value, v);
}

bool holdsIn(const Model& m, std::span<const ExprRef> formulas) {
  return std::all_of(formulas.begin(), formulas.end(),
                     [&](ExprRef f) { return m.evalBool(f) == true; });
}

// `f` is a Boolean combination of comparisons whose sides are `t` or constants: its truth, as a
// function of t's value, changes only at the constants.
bool comparesWithConstants(ExprRef f, ExprRef t, std::vector<BigInt>& constants) {
  if (f->op == Op::BoolConst) return true;
  if (isConnective(f->op))
    return std::all_of(f->kids.begin(), f->kids.end(),
                       [&](ExprRef k) { return comparesWithConstants(k, t, constants); });
  if (!isComparison(f->op)) return f == t;  // a bool term as a conjunct
  for (ExprRef side : f->kids) {
    if (side == t) continue;
    // A constant of another class would convert t (an int read as a bit-vector wraps).
    if (side->op != Op::IntConst || !(numClassOf(side->type) == numClassOf(t->type))) return false;
    constants.push_back(side->value);
  }
  return true;
}

// Candidates in the minimiser's order: least |v| first, the non-negative one of a tie first.
bool minimiserOrder(const BigInt& a, const BigInt& b) {
  const BigInt x = a.abs(), y = b.abs();
  if (x != y) return x < y;
  return a.sign() >= 0 && b.sign() < 0;
}

// The conjuncts `t op c` (or `c op t`, or their negation) of an unbounded integer `t`, as an
// interval with excluded points: a path condition is mostly such comparisons, and testing a
// candidate against them is then a lookup instead of an evaluation of every conjunct.
struct IntBounds {
  std::optional<BigInt> lo, hi;  // inclusive
  std::vector<BigInt> excluded;  // sorted at the end
  bool admits(const BigInt& v) const {
    return (!lo || *lo <= v) && (!hi || v <= *hi) &&
           !std::binary_search(excluded.begin(), excluded.end(), v);
  }
};

// Adds `f` to `b` when it is one comparison of `t` with a constant (negated or not); false when
// it is something else (then it is evaluated).
bool addComparison(ExprRef f, ExprRef t, IntBounds& b) {
  bool negated = false;
  while (f->op == Op::Not) {
    negated = !negated;
    f = f->kid(0);
  }
  if (f->kids.size() != 2) return false;
  Op op = f->op;
  ExprRef a = f->kid(0), c = f->kid(1);
  if (a != t) {  // c op t: mirror it
    std::swap(a, c);
    op = mirroredComparison(op);
  }
  if (a != t || c->op != Op::IntConst) return false;
  if (negated) {
    if (negatedComparison(op) == op) return false;  // not a comparison
    op = negatedComparison(op);
  }
  const BigInt& v = c->value;
  auto atLeast = [&](BigInt x) { b.lo = b.lo && *b.lo > x ? *b.lo : x; };
  auto atMost = [&](BigInt x) { b.hi = b.hi && *b.hi < x ? *b.hi : x; };
  switch (op) {
    case Op::Eq:
      atLeast(v);
      atMost(v);
      return true;
    case Op::Ne:
      b.excluded.push_back(v);
      return true;
    case Op::Lt:
      atMost(v - BigInt(1));
      return true;
    case Op::Le:
      atMost(v);
      return true;
    case Op::Gt:
      atLeast(v + BigInt(1));
      return true;
    case Op::Ge:
      atLeast(v);
      return true;
    default:
      return false;
  }
}

// The least value of `t` satisfying `formulas` when they mention nothing else, found without a
// solver, or nullopt when it cannot be found so.
std::optional<BigInt> leastByEvaluation(ExprRef t, std::span<const ExprRef> formulas) {
  std::vector<BigInt> candidates;
  TypeRef type = t->type;
  IntBounds bounds;
  std::vector<ExprRef> rest;  // the formulas the candidates are evaluated on
  if (type->kind == TypeKind::Bool) {
    candidates = {BigInt(0), BigInt(1)};
  } else if (type->kind == TypeKind::Enum) {
    for (size_t i = 0; i < std::max<size_t>(type->members.size(), 1); ++i)
      candidates.push_back(BigInt(static_cast<uint64_t>(i)));
  } else if (type->isIntegral()) {
    // The satisfying values are a union of intervals with ends at c - 1, c, c + 1 for the
    // constants c, so the least |v| among them is 0 or one of those (or their negations).
    std::vector<BigInt> constants;
    for (ExprRef f : formulas)
      if (!comparesWithConstants(f, t, constants)) return std::nullopt;
    candidates.push_back(BigInt(0));
    for (BigInt c : constants) {
      if (type->isBitVector()) c = BigInt(c.wrapTo(type->bitWidth()));
      for (const BigInt& v : {c - BigInt(1), c, c + BigInt(1)}) {
        if (type->isBitVector() && !v.fitsIn(type->bitWidth())) continue;
        candidates.push_back(v);
      }
    }
    std::sort(candidates.begin(), candidates.end(), minimiserOrder);
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  } else {
    return std::nullopt;
  }
  for (ExprRef f : formulas)  // bit-vector comparisons keep their wrapping semantics: evaluated
    if (type->kind != TypeKind::Int || !addComparison(f, t, bounds)) rest.push_back(f);
  std::sort(bounds.excluded.begin(), bounds.excluded.end());
  for (const BigInt& v : candidates) {
    if (!bounds.admits(v)) continue;
    Model m;
    setValue(m, t, v);
    bool all = true;
    for (ExprRef f : rest) {
      std::optional<bool> b = m.evalBool(f);
      if (!b) return std::nullopt;  // e.g. a division by zero the model leaves open
      if (!*b) {
        all = false;
        break;
      }
    }
    if (all) return v;
  }
  return std::nullopt;
}

// `formulas` fix `t` by a conjunct t == c (or t, !t for bools).
bool fixedBy(ExprRef t, std::span<const ExprRef> formulas) {
  return std::any_of(formulas.begin(), formulas.end(), [&](ExprRef f) {
    if (f == t) return true;
    if (f->op == Op::Not && f->kid(0) == t) return true;
    if (f->op != Op::Eq) return false;
    ExprRef other = f->kid(0) == t ? f->kid(1) : f->kid(1) == t ? f->kid(0) : nullptr;
    return other &&
           (other->op == Op::IntConst || other->op == Op::EnumConst || other->op == Op::BoolConst);
  });
}

class SlicedMinimizer {
 public:
  SlicedMinimizer(Solver& s, ExprManager& em, std::span<const ExprRef> formulas,
                  std::span<const ExprRef> terms, const Model* known)
      : s_(s), em_(em), known_(known) {
    for (ExprRef f : formulas)
      if (!f->isTrue()) formulas_.push_back(f);
    std::vector<ExprRef> all = formulas_;
    for (ExprRef t : terms)
      if (!isLeaf(t)) all.push_back(t);  // array leaves as terms are pinned per element
    keys_.emplace(all);
    for (ExprRef t : terms) addUnits(t);
  }

  MinimizedModel run() {
    for (ExprRef f : formulas_)
      if (f->isFalse()) return {CheckResult::unsat(), std::nullopt};
    // Groups: formulas and units linked by a shared key.
    const size_t nf = formulas_.size(), n = nf + units_.size();
    std::vector<std::vector<SliceKey>> keys(n);
    for (size_t i = 0; i < nf; ++i) keys[i] = keys_->of(formulas_[i]);
    for (size_t i = 0; i < units_.size(); ++i) keys[nf + i] = unitKeys(units_[i]);
    UnionFind uf(n);
    std::map<SliceKey, size_t> owner;
    for (size_t i = 0; i < n; ++i)
      for (const SliceKey& k : keys[i]) {
        auto [it, fresh] = owner.emplace(k, i);
        if (!fresh) uf.unite(i, it->second);
      }
    std::map<size_t, Group> groups;  // by root: the first member
    for (size_t i = 0; i < n; ++i) {
      Group& g = groups[uf.find(i)];
      if (i < nf)
        g.formulas.push_back(formulas_[i]);
      else
        g.units.push_back(units_[i - nf]);
      g.keys.insert(keys[i].begin(), keys[i].end());
    }
    for (auto& [root, g] : groups) {
      CheckResult r = solve(g);
      if (!r.isSat()) return {r, std::nullopt};
    }
    // Pinned values first: merge keeps what is set, and the groups' models fill in the rest.
    for (auto& [leaf, a] : arrays_) pinned_.setArray(leaf, std::move(a));
    for (const Model& m : groupModels_) pinned_.merge(m);
    return {CheckResult::sat(), std::move(pinned_)};
  }

 private:
  struct Group {
    std::vector<ExprRef> formulas;
    std::vector<Unit> units;
    std::set<SliceKey> keys;
  };

  void addUnits(ExprRef t) {
    TypeRef type = t->type;
    if (type->kind != TypeKind::Array) {
      units_.push_back({Unit::Kind::Scalar, t});
      return;
    }
    if (!isLeaf(t)) {
      units_.push_back({Unit::Kind::Array, t});
      return;
    }
    const LeafKey leaf = LeafKey::of(t);
    if (keys_->whole(leaf)) {
      if (!type->isFixedArray()) units_.push_back({Unit::Kind::Length, t});
      units_.push_back({Unit::Kind::Elements, t});
      return;
    }
    // Read at constant indices only (or not at all): its length is free, so the least one (0)
    // unless fixed, and each element is a value of its own.
    ArrayValue& a = arrays_[leaf];
    a.length = type->isFixedArray() ? BigInt(type->length) : BigInt(0);
    const int64_t n =
        std::min<int64_t>(type->isFixedArray() ? type->length : 0, kMaxPinnedElements);
    for (int64_t i = 0; i < n; ++i)
      units_.push_back(
          {Unit::Kind::Scalar, em_.mk(Op::Select, type->elem, {t, em_.intConst(BigInt(i))})});
  }

  std::vector<SliceKey> unitKeys(const Unit& u) const {
    if (u.kind == Unit::Kind::Length || u.kind == Unit::Kind::Elements)
      return {SliceKey::ofLeaf(LeafKey::of(u.term))};
    return keys_->of(u.term);
  }

  // The value of a pinned unit, recorded for the result.
  void record(ExprRef t, const BigInt& v) {
    if (isLeaf(t)) {
      pinned_.setScalar(LeafKey::of(t), v);
    } else if (isConstantSelect(t)) {
      auto [it, fresh] = arrays_.try_emplace(LeafKey::of(t->kid(0)));
      TypeRef at = t->kid(0)->type;
      if (fresh) it->second.length = at->isFixedArray() ? BigInt(at->length) : BigInt(0);
      it->second.elements[t->kid(1)->value] = v;
    }
  }

  CheckResult solve(Group& g) {
    const bool knownHolds = known_ && holdsIn(*known_, g.formulas);
    if (g.units.empty()) {
      if (knownHolds) {
        keep(g, *known_);
        return CheckResult::sat();
      }
      return checkAlone(g);
    }
    const bool allSettable = std::all_of(g.units.begin(), g.units.end(), [](const Unit& u) {
      return u.kind == Unit::Kind::Scalar && settable(u.term);
    });
    if (allSettable && g.formulas.empty()) {
      for (const Unit& u : g.units) record(u.term, BigInt(0));  // the zero of every type
      return CheckResult::sat();
    }
    if (allSettable && g.keys.size() == 1) {
      if (auto v = leastByEvaluation(g.units.front().term, g.formulas)) {
        for (const Unit& u : g.units) record(u.term, *v);
        return CheckResult::sat();
      }
    }
    return search(g, knownHolds);
  }

  // The part of `m` about the group's keys joins the result (the rest of `m` may be stale: a
  // known model, changed by this group's pins only).
  void keep(const Group& g, const Model& m) {
    auto has = [&](const SliceKey& k) { return g.keys.count(k) != 0; };
    groupModels_.push_back(m.restricted(
        [&](LeafKey leaf, const BigInt* index) {
          return has(index ? SliceKey::ofElement(leaf, *index) : SliceKey::ofLeaf(leaf));
        },
        [&](uint32_t callee) { return has(SliceKey::ofCallee(callee)); }));
  }

  CheckResult checkAlone(const Group& g) {
    const unsigned base = s_.level();
    s_.push();
    try {
      for (ExprRef f : g.formulas) s_.add(f);
      CheckResult r = s_.check();
      if (r.isSat()) keep(g, s_.model());
      s_.pop(s_.level() - base);
      return r;
    } catch (...) {
      s_.pop(s_.level() - base);
      throw;
    }
  }

  // minimizeModel's search on the group's formulas alone.
  CheckResult search(const Group& g, bool knownHolds) {
    const unsigned base = s_.level();
    s_.push();
    try {
      for (ExprRef f : g.formulas) s_.add(f);
      Minimizer m(s_, em_);
      CheckResult r = CheckResult::sat();
      if (knownHolds)
        m.startFrom(*known_);
      else
        r = m.start();
      if (r.isSat()) {
        for (const Unit& u : g.units) pinUnit(m, u, g.formulas);
        keep(g, m.model());
      }
      s_.pop(s_.level() - base);
      return r;
    } catch (...) {
      s_.pop(s_.level() - base);
      throw;
    }
  }

  void pinScalar(Minimizer& m, ExprRef t, std::span<const ExprRef> formulas) {
    if (!fixedBy(t, formulas)) m.pin(t);
    record(t, m.value(t));
  }

  void pinUnit(Minimizer& m, const Unit& u, std::span<const ExprRef> formulas) {
    TypeRef type = u.term->type;
    switch (u.kind) {
      case Unit::Kind::Scalar:
        pinScalar(m, u.term, formulas);
        return;
      case Unit::Kind::Length: {
        ExprRef len = em_.mk(Op::Len, em_.types().intType(), {u.term});
        pinScalar(m, len, formulas);
        arrays_[LeafKey::of(u.term)].length = m.value(len);
        return;
      }
      case Unit::Kind::Elements: {
        ArrayValue& a = arrays_[LeafKey::of(u.term)];
        if (type->isFixedArray()) a.length = BigInt(type->length);
        const BigInt n = a.length;
        for (int64_t i = 0; BigInt(i) < n && i < kMaxPinnedElements; ++i)
          pinScalar(m, em_.mk(Op::Select, type->elem, {u.term, em_.intConst(BigInt(i))}), formulas);
        return;
      }
      case Unit::Kind::Array:
        m.pin(u.term);
        return;
    }
  }

  Solver& s_;
  ExprManager& em_;
  const Model* known_;
  std::vector<ExprRef> formulas_;
  std::optional<SliceKeys> keys_;
  std::vector<Unit> units_;
  Model pinned_;
  std::map<LeafKey, ArrayValue> arrays_;  // array terms: length and pinned elements
  std::vector<Model> groupModels_;        // restricted to their groups
};

}  // namespace

MinimizedModel minimizeFormulas(Solver& solver, ExprManager& exprs,
                                std::span<const ExprRef> formulas, std::span<const ExprRef> terms,
                                const Model* known) {
  return SlicedMinimizer(solver, exprs, formulas, terms, known).run();
}

}  // namespace tandem::smt
