#include "mc/symbolic/mixed_solver.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "mc/symbolic/cached_solver.h"
#include "mc/symbolic/complex_terms.h"

namespace tandem::symbolic {

const char* heuristicName(Heuristic h) {
  switch (h) {
    case Heuristic::Incremental:
      return "incremental";
    case Heuristic::Partition:
      return "partition";
    case Heuristic::Random:
      return "random";
  }
  return "?";
}

std::optional<Heuristic> parseHeuristic(std::string_view name) {
  for (Heuristic h : {Heuristic::Incremental, Heuristic::Partition, Heuristic::Random})
    if (name == heuristicName(h)) return h;
  return std::nullopt;
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
};

class MixedPathSolver final : public CachedPathSolver {
 public:
  MixedPathSolver(smt::Solver& solver, const exec::Evaluator& concrete, const MixedOptions& o)
      : CachedPathSolver(solver, *concrete.program().exprs),
        concrete_(concrete),
        em_(*concrete.program().exprs),
        o_(o),
        rng_(o.seed) {}

  std::string name() const override { return std::string("mixed/") + heuristicName(o_.heuristic); }

  PcAnswer check(std::span<const ExprRef> pc) override { return counted(decide(pc)); }

 private:
  PcAnswer decide(std::span<const ExprRef> pc) {
    ++stats_.checks;
    SplitPc split = splitPathCondition(pc);
    if (split.complex.empty()) return PcAnswer::of(solver_.check(pc));
    ++stats_.mixedChecks;
    smt::CheckResult simple = solver_.check(split.simple);
    if (!simple.isSat()) return PcAnswer::of(simple);
    unknownSeen_ = false;
    inconclusive_ = false;
    lastTries_ = 0;
    Attempt first = attempt(split, {}, {});
    if (first.status == Attempt::Status::Sat) return sat(first);
    std::optional<PcAnswer> answer;
    switch (o_.heuristic) {
      case Heuristic::Incremental:
        answer = incremental(split, first);
        break;
      case Heuristic::Partition:
        answer = partition(split);
        break;
      case Heuristic::Random:
        answer = random(split);
        break;
    }
    if (answer) {
      if (answer->isSat()) ++stats_.heuristicSuccesses;
      return *answer;
    }
    ++stats_.undecided;
    PcAnswer a;
    a.undecided = true;
    a.reason = "mixed solving found no solution of the complex part in " +
               std::to_string(lastTries_) + " tries (" + heuristicName(o_.heuristic) + ")";
    return a;
  }

  PcAnswer sat(const Attempt& a) const {
    PcAnswer r;
    r.status = smt::SatStatus::Sat;
    r.certificate = a.certificate;
    return r;
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
    smt::MinimizedModel mm = solver_.minimize(formulas, solveFor);
    if (!mm.model) {
      if (mm.result.isUnknown()) {
        noteUnknown();
        return a;
      }
      a.status = Attempt::Status::NoSolution;
      return a;
    }
    for (ExprRef s : solveFor) values[s] = mm.model->evalInt(s).value_or(BigInt(0));
    for (ExprRef s : split.complexSymbols)
      a.pins.push_back(em_.mkEq(s, constantFor(em_, s->type, values.at(s))));
    // complexPC': the complex terms replaced by their concrete results on this solution.
    std::map<ExprRef, ExprRef> results;
    for (ExprRef t : split.complexTerms) {
      auto c = evalConcretely(concrete_, em_, t, values);
      if (!c) {
        // The code fails on this solution (an error, a limit, globals it cannot see): no witness
        // of the path, but no refutation either, so no unsat may be concluded from it.
        inconclusive_ = true;
        a.status = Attempt::Status::Refuted;
        return a;
      }
      results.emplace(t, *c);
    }
    std::vector<ExprRef> f = split.simple;
    f.insert(f.end(), a.pins.begin(), a.pins.end());
    for (ExprRef c : split.complex) f.push_back(substitute(em_, c, results));
    smt::CheckResult r = solver_.check(f);
    if (r.isSat()) {
      a.status = Attempt::Status::Sat;
      a.certificate = std::make_shared<const std::vector<ExprRef>>(std::move(f));
    } else if (r.isUnsat()) {
      a.status = Attempt::Status::Refuted;
    } else {
      noteUnknown();
    }
    return a;
  }

  void noteUnknown() {
    unknownSeen_ = true;
    ++stats_.unknown;
  }

  // Incremental: exclude every refuted solution of the complex symbols and solve again. When no
  // solution is left, every candidate was refuted, so PC is unsat (given no unknown answers and
  // no failed concrete runs).
  std::optional<PcAnswer> incremental(const SplitPc& split, const Attempt& first) {
    std::vector<ExprRef> blocked;
    const Attempt* last = &first;
    Attempt next;
    for (uint64_t k = 0; k < o_.maxTries; ++k) {
      if (last->pins.empty()) break;  // no solution to exclude (unknown)
      blocked.push_back(em_.mkNot(em_.mkAnd(last->pins)));
      next = attempt(split, blocked, {});
      if (next.status == Attempt::Status::Sat) return sat(next);
      if (next.status == Attempt::Status::NoSolution) {
        if (unknownSeen_ || inconclusive_) return std::nullopt;
        ++stats_.exhausted;
        PcAnswer r;
        r.status = smt::SatStatus::Unsat;
        return r;
      }
      last = &next;
    }
    return std::nullopt;
  }

  // Partition: each `partition(...)` condition of each called native or @concrete procedure, with
  // the call's arguments for its parameters, added to simplePC one at a time.
  std::optional<PcAnswer> partition(const SplitPc& split) {
    const ir::Program& p = concrete_.program();
    uint64_t tries = 0;
    for (ExprRef t : split.complexTerms) {
      if (t->op != Op::Call) continue;
      ir::CalleePartitions parts = p.partitionsOf(t->payload);
      for (ExprRef cond : parts.conditions) {
        if (tries >= o_.maxTries) return std::nullopt;
        ExprRef c = instantiate(cond, parts.params, t->kids);
        if (!c) continue;
        ++tries;
        Attempt a = attempt(split, {c}, {});
        if (a.status == Attempt::Status::Sat) return sat(a);
      }
    }
    return std::nullopt;
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

  // Random: fresh random values for the complex symbols that simplePC leaves unconstrained.
  std::optional<PcAnswer> random(const SplitPc& split) {
    std::vector<ExprRef> simpleSyms;
    for (ExprRef c : split.simple) collectSymbols(c, simpleSyms);
    std::vector<ExprRef> free;
    for (ExprRef s : split.complexSymbols)
      if (std::find(simpleSyms.begin(), simpleSyms.end(), s) == simpleSyms.end()) free.push_back(s);
    if (free.empty()) return std::nullopt;
    for (uint64_t k = 0; k < o_.maxTries; ++k) {
      SymbolValues fixed;
      for (ExprRef s : free) fixed[s] = randomInput(rng_, s->type);
      Attempt a = attempt(split, {}, fixed);
      if (a.status == Attempt::Status::Sat) return sat(a);
      if (a.status == Attempt::Status::NoSolution) return std::nullopt;  // simplePC alone
    }
    return std::nullopt;
  }

  const exec::Evaluator& concrete_;
  ExprManager& em_;
  MixedOptions o_;
  std::mt19937_64 rng_;
  bool unknownSeen_ = false;
  bool inconclusive_ = false;  // a try's concrete run failed
  uint64_t lastTries_ = 0;
};

}  // namespace

std::unique_ptr<PathSolver> makeMixedPathSolver(smt::Solver& solver,
                                                const exec::Evaluator& concrete,
                                                const MixedOptions& options) {
  return std::make_unique<MixedPathSolver>(solver, concrete, options);
}

}  // namespace tandem::symbolic
