#include "mc/symbolic/mixed_solver.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "mc/expr/float64.h"
#include "mc/symbolic/cached_solver.h"
#include "mc/symbolic/complex_terms.h"

namespace tandem::symbolic {

namespace {
constexpr EnumName<Heuristic> kHeuristicNames[] = {{Heuristic::Incremental, "incremental"},
                                                   {Heuristic::Partition, "partition"},
                                                   {Heuristic::Random, "random"}};
}  // namespace

const char* heuristicName(Heuristic h) { return enumName(kHeuristicNames, h); }

std::optional<Heuristic> parseHeuristic(std::string_view name) {
  return enumFromName(kHeuristicNames, name);
}

std::string heuristicListName(std::span<const Heuristic> list) {
  std::string out;
  for (Heuristic h : list) out += (out.empty() ? "" : ",") + std::string(heuristicName(h));
  return out;
}

std::optional<std::vector<Heuristic>> parseHeuristicList(std::string_view text,
                                                         std::string* error) {
  auto fail = [&](std::string msg) -> std::optional<std::vector<Heuristic>> {
    if (error) *error = std::move(msg);
    return std::nullopt;
  };
  std::vector<Heuristic> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view name = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (name.empty()) return fail("an empty heuristic name in '" + std::string(text) + "'");
    std::optional<Heuristic> h = parseHeuristic(name);
    if (!h)
      return fail("unknown heuristic '" + std::string(name) +
                  "' (heuristics: incremental, partition, random)");
    if (std::find(out.begin(), out.end(), *h) != out.end())
      return fail("heuristic '" + std::string(name) + "' is listed twice");
    out.push_back(*h);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

SplitPc splitPathCondition(std::span<const ExprRef> pc) {
  SplitPc s;
  std::vector<ExprRef> conjuncts;
  for (ExprRef c : pc) flattenConjuncts(c, conjuncts);
  for (ExprRef c : conjuncts) {
    std::vector<ExprRef>& part = hasComplexTerm(c) ? s.complex : s.simple;
    if (std::find(part.begin(), part.end(), c) == part.end()) part.push_back(c);
  }
  for (ExprRef c : s.complex) collectComplexTerms(c, s.complexTerms);
  for (ExprRef t : s.complexTerms) collectSymbols(t, s.complexSymbols);
  return s;
}

namespace {

// One solution of simplePC tried (step 2 and 3 of mixedIsSatisfiable).
struct Attempt {
  enum class Status : uint8_t { Sat, Refuted, NoSolution, Unknown };
  Status status = Status::Unknown;
  std::vector<ExprRef> pins;  // extraPC (empty when there was no solution)
  Certificate certificate;    // Sat
  bool unknown = false;       // a solver answer was unknown
  bool inconclusive = false;  // the concrete run failed: refuted nothing
};

// What one try of a heuristic came to.
enum class Step : uint8_t { Sat, Unsat, Again, Done };

class MixedPathSolver final : public CachedPathSolver {
 public:
  MixedPathSolver(smt::Solver& solver, const exec::Evaluator& concrete, const MixedOptions& o)
      : CachedPathSolver(solver, *concrete.program().exprs),
        concrete_(concrete),
        em_(*concrete.program().exprs),
        o_(o),
        rng_(o.seed) {
    if (o_.heuristics.empty()) o_.heuristics.push_back(Heuristic::Incremental);
  }

  std::string name() const override {
    return std::string("mixed/") + heuristicListName(o_.heuristics);
  }

  PcAnswer check(std::span<const ExprRef> pc) override { return counted(decide(pc)); }

 private:
  // The state of the heuristics during one query.
  struct Retry {
    // incremental
    std::vector<ExprRef> blocked;
    std::vector<ExprRef> lastPins;
    bool clean = true;  // no unknown answer, no failed concrete run in its tries
    // partition
    std::vector<ExprRef> conditions;
    size_t nextCondition = 0;
    // all
    std::vector<bool> done;
    Certificate certificate;
  };

  PcAnswer decide(std::span<const ExprRef> pc) {
    ++stats_.checks;
    SplitPc split = splitPathCondition(pc);
    if (split.complex.empty()) return PcAnswer::of(solver_.check(pc));
    ++stats_.mixedChecks;
    smt::CheckResult simple = solver_.check(split.simple);
    if (!simple.isSat()) return PcAnswer::of(simple);
    lastTries_ = 0;
    Attempt first = attempt(split, {}, {});
    if (first.status == Attempt::Status::Sat) return sat(first.certificate);
    Retry retry;
    retry.lastPins = first.pins;
    retry.clean = !first.unknown && !first.inconclusive;
    retry.conditions = partitionConditions(split);
    retry.done.assign(o_.heuristics.size(), false);
    for (uint64_t round = 0; round < o_.maxTries && !solver_.stopped(); ++round) {
      bool any = false;
      for (size_t i = 0; i < o_.heuristics.size(); ++i) {
        if (retry.done[i]) continue;
        any = true;
        switch (step(o_.heuristics[i], split, retry)) {
          case Step::Sat:
            ++stats_.heuristicSuccesses;
            return sat(retry.certificate);
          case Step::Unsat: {
            ++stats_.exhausted;
            PcAnswer r;
            r.status = smt::SatStatus::Unsat;
            return r;
          }
          case Step::Done:
            retry.done[i] = true;
            break;
          case Step::Again:
            break;
        }
      }
      if (!any) break;
    }
    ++stats_.undecided;
    PcAnswer a;
    a.undecided = true;
    a.reason = "mixed solving found no solution of the complex part in " +
               std::to_string(lastTries_) + " tries (" + heuristicListName(o_.heuristics) + ")";
    return a;
  }

  PcAnswer sat(const Certificate& c) const {
    PcAnswer r;
    r.status = smt::SatStatus::Sat;
    r.certificate = c;
    return r;
  }

  Step step(Heuristic h, const SplitPc& split, Retry& retry) {
    switch (h) {
      case Heuristic::Incremental:
        return incremental(split, retry);
      case Heuristic::Partition:
        return partition(split, retry);
      case Heuristic::Random:
        return random(split, retry);
    }
    return Step::Done;
  }

  // Solves simplePC /\ extras (with `fixed` symbols set, not solved for), pins the complex
  // symbols, runs the complex terms and checks simplePC /\ extraPC /\ complexPC'.
  Attempt attempt(const SplitPc& split, const std::vector<ExprRef>& extras,
                  const SymbolValues& fixed) {
    ++stats_.tries;
    ++lastTries_;
    Attempt a;
    std::vector<ExprRef> formulas = split.simple;
    formulas.insert(formulas.end(), extras.begin(), extras.end());
    std::vector<ExprRef> solveFor;
    for (ExprRef s : split.complexSymbols)
      if (!fixed.count(s)) solveFor.push_back(s);
    SymbolValues values = fixed;
    // With every complex symbol given (random solving's draws), the final check below also
    // decides whether simplePC allows them: no separate solve.
    if (fixed.empty() || !solveFor.empty()) {
      smt::MinimizedModel mm = solver_.minimize(formulas, solveFor);
      if (!mm.model) {
        if (mm.result.isUnknown()) {
          noteUnknown(a);
          return a;
        }
        a.status = Attempt::Status::NoSolution;
        return a;
      }
      for (ExprRef s : solveFor) values[s] = mm.model->evalInt(s).value_or(BigInt(0));
    }
    for (ExprRef s : split.complexSymbols)
      a.pins.push_back(em_.mkEq(s, constantFor(em_, s->type, values.at(s))));
    // complexPC': the complex terms replaced by their concrete results on this solution.
    std::map<ExprRef, ExprRef> results;
    for (ExprRef t : split.complexTerms) {
      auto c = evalConcretely(concrete_, em_, t, values);
      if (!c) {
        // The code fails on this solution (an error, a limit, globals it cannot see): no witness
        // of the path, but no refutation either, so no unsat may be concluded from it.
        a.inconclusive = true;
        a.status = Attempt::Status::Refuted;
        return a;
      }
      results.emplace(t, *c);
    }
    std::vector<ExprRef> f = split.simple;
    f.insert(f.end(), a.pins.begin(), a.pins.end());
    for (ExprRef c : split.complex) {
      ExprRef d = substitute(em_, c, results);
      // A conjunct of complexPC' over pinned symbols only is ground: run it, and when it is
      // false the try is refuted without a query (what the check would answer; random tries are
      // mostly refuted so, and cost no solver time).
      std::optional<ExprRef> v = evalConcretely(concrete_, em_, d, values);
      if (v && (*v)->isFalse()) {
        ++stats_.concreteRefutations;
        a.status = Attempt::Status::Refuted;
        return a;
      }
      f.push_back(d);
    }
    smt::CheckResult r = solver_.check(f);
    if (r.isSat()) {
      a.status = Attempt::Status::Sat;
      a.certificate = std::make_shared<const std::vector<ExprRef>>(std::move(f));
    } else if (r.isUnsat()) {
      a.status = Attempt::Status::Refuted;
    } else {
      noteUnknown(a);
    }
    return a;
  }

  void noteUnknown(Attempt& a) {
    a.unknown = true;
    ++stats_.unknown;
  }

  // Incremental: exclude every solution of the complex symbols it tried (the first one included)
  // and solve again. When no solution is left, every candidate was refuted, so PC is unsat (given
  // no unknown answers and no failed concrete runs in these tries).
  Step incremental(const SplitPc& split, Retry& retry) {
    if (retry.lastPins.empty()) return Step::Done;  // no solution to exclude (unknown)
    retry.blocked.push_back(em_.mkNot(em_.mkAnd(retry.lastPins)));
    Attempt a = attempt(split, retry.blocked, {});
    retry.clean = retry.clean && !a.unknown && !a.inconclusive;
    if (a.status == Attempt::Status::Sat) {
      retry.certificate = a.certificate;
      return Step::Sat;
    }
    if (a.status == Attempt::Status::NoSolution) return retry.clean ? Step::Unsat : Step::Done;
    retry.lastPins = a.pins;
    return Step::Again;
  }

  // The `partition(...)` conditions of every called native or @concrete procedure, with the
  // call's arguments for its parameters, in the order of the calls and of the conditions.
  std::vector<ExprRef> partitionConditions(const SplitPc& split) {
    std::vector<ExprRef> out;
    if (std::find(o_.heuristics.begin(), o_.heuristics.end(), Heuristic::Partition) ==
        o_.heuristics.end())
      return out;
    const ir::Program& p = concrete_.program();
    for (ExprRef t : split.complexTerms) {
      if (t->op != Op::Call) continue;
      ir::CalleePartitions parts = p.partitionsOf(t->payload);
      for (ExprRef cond : parts.conditions)
        if (ExprRef c = instantiate(cond, parts.params, t->kids)) out.push_back(c);
    }
    return out;
  }

  // Partition: the next condition added to simplePC.
  Step partition(const SplitPc& split, Retry& retry) {
    if (retry.nextCondition >= retry.conditions.size()) return Step::Done;
    Attempt a = attempt(split, {retry.conditions[retry.nextCondition++]}, {});
    if (a.status == Attempt::Status::Sat) {
      retry.certificate = a.certificate;
      return Step::Sat;
    }
    return retry.nextCondition < retry.conditions.size() ? Step::Again : Step::Done;
  }

  // `cond` over the callee's parameter variables, with `args` for them; null when it mentions
  // anything else or has complex terms itself.
  ExprRef instantiate(ExprRef cond, std::span<const ir::VarId> params,
                      const std::vector<ExprRef>& args) {
    std::map<ExprRef, ExprRef> map;
    bool other = false;
    std::vector<ExprRef> todo{cond};
    while (!todo.empty()) {
      ExprRef n = todo.back();
      todo.pop_back();
      if (n->op == Op::Var) {
        auto it = std::find(params.begin(), params.end(), n->payload);
        if (it == params.end() || static_cast<size_t>(it - params.begin()) >= args.size()) {
          other = true;
          continue;
        }
        map.emplace(n, args[static_cast<size_t>(it - params.begin())]);
        continue;
      }
      for (ExprRef k : n->kids) todo.push_back(k);
    }
    if (other) return nullptr;
    ExprRef c = substitute(em_, cond, map);
    if (hasComplexTerm(c) || c->isTrue()) return nullptr;
    return c;
  }

  // Random solving (Sect. 3.5): a value for each complex symbol in turn that simplePC and the
  // values chosen before it allow (randomValue), then a try with those values pinned.
  Step random(const SplitPc& split, Retry& retry) {
    if (split.complexSymbols.empty()) return Step::Done;  // nothing to draw
    std::vector<ExprRef> simpleSyms;
    for (ExprRef c : split.simple) collectSymbols(c, simpleSyms);
    std::vector<ExprRef> base = split.simple, pins;
    SymbolValues drawn;
    for (ExprRef s : split.complexSymbols) {
      const bool constrained =
          std::find(simpleSyms.begin(), simpleSyms.end(), s) != simpleSyms.end();
      std::optional<BigInt> v = randomValue(s, base, constrained);
      if (!v) continue;  // the try's solution of simplePC chooses it
      ExprRef pin = em_.mkEq(s, constantFor(em_, s->type, *v));
      base.push_back(pin);
      pins.push_back(pin);
      drawn.emplace(s, *v);
    }
    Attempt a = attempt(split, pins, drawn);
    if (a.status == Attempt::Status::Sat) {
      retry.certificate = a.certificate;
      return Step::Sat;
    }
    // No solution with these values (only after an unknown answer): simplePC alone has one.
    return a.status == Attempt::Status::NoSolution ? Step::Done : Step::Again;
  }

  // `c` as finer conjuncts: an envelope check `if (a < lo || a > hi || b < lo || ...) return;`
  // leaves `!(a < lo || ... )` on the path, one conjunct over every variable it names, which
  // would tie them all into one slice; by De Morgan it is `!(a < lo) && ...`.
  void splitConjunct(ExprRef c, std::vector<ExprRef>& out) {
    if (c->op == Op::And) {
      for (ExprRef k : c->kids) splitConjunct(k, out);
      return;
    }
    if (c->op == Op::Not && c->kids[0]->op == Op::Or) {
      for (ExprRef k : c->kids[0]->kids) splitConjunct(em_.mkNot(k), out);
      return;
    }
    if (c->op == Op::Not && c->kids[0]->op == Op::Not) {
      splitConjunct(c->kids[0]->kids[0], out);
      return;
    }
    out.push_back(c);
  }

  // The conjuncts of `base` that constrain `s`: those sharing a symbol with it, transitively.
  // `base` is satisfiable, so a value that this slice allows, `base` allows too (the rest does
  // not mention `s` or what it is tied to); the slice is also the key under which random
  // solving keeps s's least and greatest solutions, so that values drawn for symbols `s` is
  // independent of do not make every try bracket `s` again.
  std::vector<ExprRef> sliceFor(const std::vector<ExprRef>& whole, ExprRef s) {
    std::vector<ExprRef> base;
    for (ExprRef c : whole) splitConjunct(c, base);
    std::vector<std::vector<ExprRef>> syms(base.size());
    for (size_t i = 0; i < base.size(); ++i) collectSymbols(base[i], syms[i]);
    std::vector<ExprRef> reach{s};
    std::vector<bool> in(base.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 0; i < base.size(); ++i) {
        if (in[i]) continue;
        bool touches = false;
        for (ExprRef x : syms[i])
          if (std::find(reach.begin(), reach.end(), x) != reach.end()) touches = true;
        if (!touches) continue;
        in[i] = grew = true;
        for (ExprRef x : syms[i])
          if (std::find(reach.begin(), reach.end(), x) == reach.end()) reach.push_back(x);
      }
    }
    std::vector<ExprRef> out;
    for (size_t i = 0; i < base.size(); ++i)
      if (in[i]) out.push_back(base[i]);
    return out;
  }

  // A random value of `s` that `whole` (simplePC and the values chosen so far, satisfiable)
  // allows, asked of its slice `base` (sliceFor): a plain random value, kept without a query when
  // simplePC does not mention `s`; otherwise, when `base` refuses it and `s` is an integer, a value
  // drawn uniformly between the least and the greatest solutions in [-kRandomRange, kRandomRange]
  // (next to the nearest one when there are none in it), and if `base` refuses that too, the
  // solution nearest to it above or below (a coin says which side first); an f64 likewise
  // (randomFloat). nullopt: leave `s` to the solver (a bool or enum value refused, an unknown
  // answer).
  std::optional<BigInt> randomValue(ExprRef s, const std::vector<ExprRef>& whole,
                                    bool constrained) {
    BigInt r = randomInput(rng_, s->type);
    if (!constrained) return r;
    const std::vector<ExprRef> base = sliceFor(whole, s);
    if (isInterval(base, s)) {
      if (std::optional<BigInt> v = drawInInterval(s, base, r)) return v;
    }
    std::optional<bool> ok = allows(base, s, r);
    if (!ok) return std::nullopt;
    if (*ok) return r;
    const TypeKind k = s->type->kind;
    if (k == TypeKind::F64) return randomFloat(s, base);
    if (k != TypeKind::Int && k != TypeKind::I32 && k != TypeKind::I64) return std::nullopt;
    auto [lo, hi] = bracket(s, base);
    auto drawn = window(lo, hi, BigInt(kRandomRange));
    if (!drawn) return std::nullopt;  // unknown answers
    auto [from, to] = *drawn;
    if (unsigned w = s->type->bitWidth()) {  // i32, i64: the window within the type's values
      const BigInt least(w == 64 ? std::numeric_limits<int64_t>::min() : INT32_MIN);
      const BigInt greatest(w == 64 ? std::numeric_limits<int64_t>::max() : INT32_MAX);
      from = std::max(from, least);
      to = std::min(to, greatest);
    }
    r = randomIn(rng_, from, to);
    if ((lo && r == *lo) || (hi && r == *hi)) return r;  // a solution found above
    ok = allows(base, s, r);
    if (!ok) return std::nullopt;
    if (*ok) return r;
    const bool up = rng_() % 2 == 0;
    if (auto v = nearest(base, s, r, up)) return v;
    return nearest(base, s, r, !up);
  }

  // The least and greatest solutions of integer `s` in [-kRandomRange, kRandomRange] that its
  // slice `base` allows, searched once per slice (ranges_).
  std::pair<std::optional<BigInt>, std::optional<BigInt>> bracket(
      ExprRef s, const std::vector<ExprRef>& base) {
    return oncePerSlice(ranges_, s, base, [&] {
      const BigInt range(kRandomRange);
      return std::make_pair(nearest(base, s, -range, true), nearest(base, s, range, false));
    });
  }

  // What `search()` answers for symbol s in its slice `base`, asked once per slice.
  template <class Memo, class Search>
  typename Memo::mapped_type oncePerSlice(Memo& memo, ExprRef s, const std::vector<ExprRef>& base,
                                          Search search) {
    std::vector<ExprRef> key = base;
    key.push_back(s);
    auto known = memo.find(key);
    if (known == memo.end()) {
      ++stats_.brackets;
      known = memo.emplace(std::move(key), search()).first;
    }
    return known->second;
  }

  // The same for an f64 (nearestFloat: within 2^44 ordinals of the true bounds, on their inside).
  std::pair<std::optional<double>, std::optional<double>> floatBracket(
      ExprRef s, const std::vector<ExprRef>& base) {
    return oncePerSlice(floatRanges_, s, base, [&] {
      const double range = static_cast<double>(kRandomRange);
      std::pair<std::optional<double>, std::optional<double>> ends;
      if (auto bounds = isInterval(base, s) ? floatInterval(base, s) : std::nullopt) {
        // Read off the bounds: a solver's binary search asks about 40 bit-blasted queries.
        const auto [lo, hi] = *bounds;
        if (lo <= hi) {
          if (hi >= -range) ends.first = std::max(lo, -range);
          if (lo <= range) ends.second = std::min(hi, range);
        }
      } else {
        ends = {nearestFloat(base, s, -range, true), nearestFloat(base, s, range, false)};
      }
      return ends;
    });
  }

  // The solutions of an f64 interval slice (isInterval) other than NaN, from its constant
  // bounds: [lo, hi], empty when lo > hi; nullopt for a bound that is not an f64 literal.
  static std::optional<std::pair<double, double>> floatInterval(const std::vector<ExprRef>& base,
                                                                ExprRef s) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    double lo = -inf, hi = inf;
    for (ExprRef c : base) {
      const bool negated = c->op == Op::Not;
      if (negated) c = c->kids[0];
      Op op = c->op;
      ExprRef k = c->kids[1];
      if (c->kids[0] != s) {  // c < s is s > c
        k = c->kids[0];
        op = op == Op::Lt   ? Op::Gt
             : op == Op::Gt ? Op::Lt
             : op == Op::Le ? Op::Ge
             : op == Op::Ge ? Op::Le
                            : op;
      }
      if (k->op != Op::FloatConst) return std::nullopt;
      const double v = f64::fromBits(static_cast<uint64_t>(k->value.wrapTo(64)));
      if (std::isnan(v)) {  // s < NaN never holds; its negation always does
        if (!negated) return std::make_pair(inf, -inf);
        continue;
      }
      if (negated)  // !(s < v) is s >= v, for every s but NaN
        op = op == Op::Lt ? Op::Ge : op == Op::Le ? Op::Gt : op == Op::Gt ? Op::Le : Op::Lt;
      switch (op) {
        case Op::Lt:
          hi = std::min(hi, std::nextafter(v, -inf));
          break;
        case Op::Le:
          hi = std::min(hi, v);
          break;
        case Op::Gt:
          lo = std::max(lo, std::nextafter(v, inf));
          break;
        case Op::Ge:
          lo = std::max(lo, v);
          break;
        default:  // Eq
          lo = std::max(lo, v);
          hi = std::min(hi, v);
          break;
      }
    }
    return std::make_pair(lo, hi);
  }

  // Whether `base` only bounds `s` by constants (s < c, s >= c, s == c, ..., the orderings also
  // negated; `!(s == c)` is not an interval):
  // its solutions are then an interval of s's order (plus NaN for a negated f64 comparison), so
  // every value between two solutions is one, and drawing there needs no query.
  static bool isInterval(const std::vector<ExprRef>& base, ExprRef s) {
    for (ExprRef c : base) {
      const bool negated = c->op == Op::Not;
      if (negated) c = c->kids[0];
      switch (c->op) {
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
          break;
        case Op::Eq:
          if (negated) return false;
          break;
        default:
          return false;
      }
      const ExprRef a = c->kids[0], b = c->kids[1];
      const bool bounds = (a == s && b->isConst()) || (b == s && a->isConst());
      if (!bounds) return false;
    }
    return true;
  }

  // For an interval slice (isInterval): `r` when it lies between the bracket's least and
  // greatest solutions, else a value drawn uniformly between them; nullopt when the bracket has
  // no two ends (randomValue's queries then decide).
  std::optional<BigInt> drawInInterval(ExprRef s, const std::vector<ExprRef>& base,
                                       const BigInt& r) {
    if (s->type->kind == TypeKind::F64) {
      auto [lo, hi] = floatBracket(s, base);
      if (!lo || !hi || *lo > *hi) return std::nullopt;
      const double d = f64::fromBits(static_cast<uint64_t>(r.wrapTo(64)));
      if (d >= *lo && d <= *hi) return r;
      const double unit = static_cast<double>(rng_() >> 11) * 0x1p-53;  // [0, 1)
      const double v = std::isfinite(*hi - *lo) ? *lo + (*hi - *lo) * unit : *lo;
      return BigInt(static_cast<int64_t>(f64::toBits(v)));
    }
    const TypeKind k = s->type->kind;
    if (k != TypeKind::Int && k != TypeKind::I32 && k != TypeKind::I64) return std::nullopt;
    auto [lo, hi] = bracket(s, base);
    if (!lo || !hi || *lo > *hi) return std::nullopt;
    if (r >= *lo && r <= *hi) return r;
    return randomIn(rng_, *lo, *hi);
  }

  // Where to draw from, given the least and greatest solutions in the range (either may be
  // unknown): between them; when the range holds none (lo > hi), beside one of them, chosen by a
  // coin (which resets the other); nullopt when neither is known.
  template <class T>
  std::optional<std::pair<T, T>> window(std::optional<T>& lo, std::optional<T>& hi,
                                        const T& range) {
    if (lo && hi && *lo > *hi) {
      if (rng_() % 2)
        lo.reset();
      else
        hi.reset();
    }
    const T twice = range + range;
    if (lo && hi) return std::make_pair(*lo, *hi);
    if (lo) return std::make_pair(*lo, *lo + twice);
    if (hi) return std::make_pair(*hi - twice, *hi);
    return std::nullopt;
  }

  // randomValue for an f64 that `base` refuses: the same, with the least and greatest solutions
  // found by nearestFloat and a value drawn uniformly between them (as reals, then rounded); no
  // nearest solution when that draw is refused too: simplePC's solution then chooses.
  std::optional<BigInt> randomFloat(ExprRef s, const std::vector<ExprRef>& base) {
    auto [lo, hi] = floatBracket(s, base);
    auto drawn = window(lo, hi, static_cast<double>(kRandomRange));
    if (!drawn) return std::nullopt;  // unknown answers
    const auto [from, to] = *drawn;
    const double unit = static_cast<double>(rng_() >> 11) * 0x1p-53;  // [0, 1)
    const double r = std::isfinite(to - from) ? from + (to - from) * unit : from;
    auto bits = [](double d) { return BigInt(static_cast<int64_t>(f64::toBits(d))); };
    std::optional<bool> ok = allows(base, s, bits(r));
    if (!ok) return std::nullopt;
    if (*ok) return bits(r);
    return std::nullopt;  // refused as well: the try's solution of simplePC chooses it
  }

  // About the least solution of `base` for the f64 `s` at or above r (up), or the greatest at or
  // below: a binary search over the doubles' order (ordinals: bit patterns, negated for negative
  // values) that stops within 2^44 ordinals (about 1/256 of a binade) of it, as a bound to draw
  // between, in at most about 20 checks (each bit-blasts simplePC's arithmetic). NaN is never a
  // solution here.
  std::optional<double> nearestFloat(const std::vector<ExprRef>& base, ExprRef s, double r,
                                     bool up) {
    constexpr uint64_t kSign = uint64_t{1} << 63;
    auto ordinal = [&](double d) {
      const uint64_t b = f64::toBits(d);
      return b & kSign ? -static_cast<int64_t>(b & ~kSign) : static_cast<int64_t>(b);
    };
    auto value = [&](int64_t k) {
      return k < 0 ? f64::fromBits(static_cast<uint64_t>(-k) | kSign)
                   : f64::fromBits(static_cast<uint64_t>(k));
    };
    TypeRef b = em_.types().boolType();
    auto bound = [&](Op op, double d) { return em_.mk(op, b, {s, em_.floatConst(d)}); };
    std::vector<ExprRef> side = base;
    side.push_back(bound(up ? Op::Ge : Op::Le, r));
    // Invariant: a solution lies between r and ordinal `far`; none strictly before `near`.
    const int64_t inf = ordinal(std::numeric_limits<double>::infinity());
    int64_t near = ordinal(r), far = up ? inf : -inf;
    auto check = [&](int64_t k) -> std::optional<bool> {
      std::vector<ExprRef> f = side;
      f.push_back(bound(up ? Op::Le : Op::Ge, value(k)));
      smt::CheckResult c = solver_.check(f);
      if (c.isUnknown()) {
        ++stats_.unknown;
        return std::nullopt;
      }
      return c.isSat();
    };
    auto sat = check(far);
    if (!sat || !*sat) return std::nullopt;
    constexpr uint64_t kResolution = uint64_t{1} << 44;
    while ((up ? static_cast<uint64_t>(far) - static_cast<uint64_t>(near)
               : static_cast<uint64_t>(near) - static_cast<uint64_t>(far)) > kResolution) {
      // Halfway, in unsigned arithmetic: the ordinals span more than int64_t's range.
      const uint64_t half = (up ? static_cast<uint64_t>(far) - static_cast<uint64_t>(near)
                                : static_cast<uint64_t>(near) - static_cast<uint64_t>(far)) /
                            2;
      const int64_t mid = static_cast<int64_t>(up ? static_cast<uint64_t>(near) + half
                                                  : static_cast<uint64_t>(near) - half);
      auto m = check(mid);
      if (!m) return std::nullopt;
      if (*m)
        far = mid;
      else
        near = up ? mid + 1 : mid - 1;
    }
    return value(far);
  }

  // Whether `base` allows s == v; nullopt when the solver does not know.
  std::optional<bool> allows(const std::vector<ExprRef>& base, ExprRef s, const BigInt& v) {
    std::vector<ExprRef> f = base;
    f.push_back(em_.mkEq(s, constantFor(em_, s->type, v)));
    smt::CheckResult c = solver_.check(f);
    if (c.isUnknown()) {
      ++stats_.unknown;
      return std::nullopt;
    }
    return c.isSat();
  }

  // The solution of `base` for integer `s` nearest to `r` at or above it (`up`) or at or below
  // it: `base` /\ s >= r with s - r minimised (or s <= r, r - s); nullopt when there is none (or
  // the solver does not know).
  std::optional<BigInt> nearest(const std::vector<ExprRef>& base, ExprRef s, const BigInt& r,
                                bool up) {
    // In unbounded integers: an i32 or i64 difference could wrap around.
    TypeRef t = em_.types().intType(), b = em_.types().boolType();
    ExprRef v = s->type->bitWidth() ? em_.mk(Op::Cast, t, {s}) : s;
    ExprRef c = em_.intConst(r, t);
    std::vector<ExprRef> f = base;
    f.push_back(em_.mk(up ? Op::Ge : Op::Le, b, {v, c}));
    ExprRef distance = up ? em_.mk(Op::Sub, t, {v, c}) : em_.mk(Op::Sub, t, {c, v});
    std::vector<ExprRef> terms{distance};
    smt::MinimizedModel mm = solver_.minimize(f, terms);
    if (!mm.model) {
      if (mm.result.isUnknown()) ++stats_.unknown;
      return std::nullopt;
    }
    return mm.model->evalInt(s);
  }

  const exec::Evaluator& concrete_;
  ExprManager& em_;
  MixedOptions o_;
  std::mt19937_64 rng_;
  uint64_t lastTries_ = 0;
  // Random solving: the least and greatest solutions of s in the random range, keyed by (s's
  // slice, s). Kept across queries: the slice is hash-consed, and a deeper path's query usually
  // has the same envelope slices as its parent's.
  std::map<std::vector<ExprRef>, std::pair<std::optional<BigInt>, std::optional<BigInt>>> ranges_;
  std::map<std::vector<ExprRef>, std::pair<std::optional<double>, std::optional<double>>>
      floatRanges_;
};

}  // namespace

std::unique_ptr<PathSolver> makeMixedPathSolver(smt::Solver& solver,
                                                const exec::Evaluator& concrete,
                                                const MixedOptions& options) {
  return std::make_unique<MixedPathSolver>(solver, concrete, options);
}

}  // namespace tandem::symbolic
