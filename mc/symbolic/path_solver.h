// How the symbolic executor decides path conditions: one small interface, one implementation per
// `--solving` mode (docs/symbolic.md).
//   classic  everything goes to the SMT solver; calls are uninterpreted functions, non-linear
//            arithmetic goes as it is (path_solver.cpp)
//   mixed    mixed concrete-symbolic solving, Pasareanu, Rungta, Visser, ISSTA'11 (mixed_solver.h)
//   exe      classic, after EXE-style concretization in the evaluator (concretizer.h)
//   dart     concrete runs decide branches, the solver only makes the next inputs (dart_explorer.h)
//
// A path condition is a list of conjuncts. Answers are sat, unsat or not known; "not known" is
// either the solver's unknown or a mixed-solving query whose tries all failed ("undecided"). No
// implementation answers unsat unless the condition is unsatisfiable.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/minimize_model.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/cached_solver.h"
#include "mc/symbolic/sym_state.h"

namespace tandem::symbolic {

struct PcAnswer {
  smt::SatStatus status = smt::SatStatus::Unknown;
  bool undecided = false;  // Unknown because every try of mixed solving failed
  std::string reason;      // Unknown: why
  Certificate certificate;

  bool isSat() const { return status == smt::SatStatus::Sat; }
  bool isUnsat() const { return status == smt::SatStatus::Unsat; }
  bool isUnknown() const { return status == smt::SatStatus::Unknown; }
  static PcAnswer of(const smt::CheckResult& r) { return PcAnswer{r.status, false, r.reason, {}}; }
};

// Counters of the solving strategy (reported in the JSON `stats`).
struct SolvingStats {
  uint64_t checks = 0;              // path conditions asked about
  uint64_t mixedChecks = 0;         // mixed: with a complex part
  uint64_t tries = 0;               // mixed: solutions of simplePC tried (first ones included)
  uint64_t heuristicSuccesses = 0;  // mixed: decided sat by a heuristic's try, not the first
  uint64_t exhausted = 0;           // mixed: unsat because the tries covered every solution
  uint64_t undecided = 0;           // mixed: every try failed (the query is not known)
  uint64_t unknown = 0;             // mixed: tries the solver answered unknown
  uint64_t brackets = 0;  // mixed, random: searches for a symbol's least and greatest solutions
  uint64_t concreteRefutations = 0;  // mixed: tries refuted by running complexPC', no query
  uint64_t concretizations = 0;      // exe, dart: complex terms replaced by concrete values
  uint64_t runs = 0;                 // dart: concrete executions
  uint64_t restarts = 0;             // dart: directed searches started from random inputs
  uint64_t mispredictions = 0;       // dart: a run that did not take the predicted branch
  // Queries answered without the solver chain (cached_solver.h): by a model of an earlier sat
  // answer, and as unsat by an earlier unsat query inside them or by their shape.
  uint64_t cacheSat = 0, cacheUnsat = 0;

  void add(const SolvingStats& o);
};

class PathSolver {
 public:
  PathSolver() = default;
  PathSolver(const PathSolver&) = delete;
  PathSolver& operator=(const PathSolver&) = delete;
  virtual ~PathSolver() = default;

  virtual std::string name() const = 0;
  // Satisfiability of the conjunction of `pc`. Throws smt::SmtUnsupported for formulas outside
  // the SMT translation.
  virtual PcAnswer check(std::span<const ExprRef> pc) = 0;
  // Inputs for an ended path whose condition `pc` was answered sat with `certificate`: a model
  // with `terms` (the input symbols) pinned to small values (smt::minimizeModel).
  virtual smt::MinimizedModel inputs(std::span<const ExprRef> pc, const Certificate& certificate,
                                     std::span<const ExprRef> terms) = 0;
  // A model of the conjunction of `formulas` this solver already has (no query), or null.
  virtual std::shared_ptr<const smt::Model> knownModel(std::span<const ExprRef> /*formulas*/) {
    return nullptr;
  }

  const SolvingStats& stats() const { return stats_; }

 protected:
  SolvingStats stats_;
};

// The path solvers that ask the SMT solver through KLEE's counterexample cache (classic, mixed):
// ended paths get their inputs by sliced minimisation, starting from a cached model.
class CachedPathSolver : public PathSolver {
 public:
  CachedPathSolver(smt::Solver& solver, ExprManager& em) : solver_(solver, em) {}

  smt::MinimizedModel inputs(std::span<const ExprRef> pc, const Certificate& certificate,
                             std::span<const ExprRef> terms) override {
    // A path condition with a complex part always comes with its certificate (the path's last
    // sat answer); without one it has none, and the condition goes to the solver as it is.
    return solver_.minimize(certificate ? std::span<const ExprRef>(*certificate) : pc, terms);
  }
  std::shared_ptr<const smt::Model> knownModel(std::span<const ExprRef> formulas) override {
    return solver_.knownModel(formulas);
  }

 protected:
  // `a`, after the cache's answers are copied into the stats.
  PcAnswer counted(PcAnswer a) {
    stats_.cacheSat = solver_.cacheStats().satHits;
    stats_.cacheUnsat = solver_.cacheStats().unsatHits;
    return a;
  }

  CachedSolver solver_;
};

// Minimised model of the conjunction of `formulas` over `terms` (smt::minimizeFormulas: the
// values of smt::minimizeModel), in push scopes of `solver`; `known`, if given, is a model of the
// formulas to start from.
smt::MinimizedModel minimizeOver(smt::Solver& solver, ExprManager& em,
                                 std::span<const ExprRef> formulas, std::span<const ExprRef> terms,
                                 const smt::Model* known = nullptr);

// Random inputs (the random heuristic of mixed solving, DART's first inputs), the one place
// where values are drawn: integers uniform in [-kRandomRange, kRandomRange], bools and enum
// members uniform; f64 (as its bit pattern, as FloatConst holds it) a finite double, a quarter
// of the time a small integer of that range, half the time uniform in it, and a quarter of the
// time a special value (+-0, +-1, 0.5, the least subnormal and normal, the largest finite value,
// epsilon). The generator's sequence is fixed by the standard, so a seed gives the same values
// everywhere.
inline constexpr int64_t kRandomRange = 1000;
BigInt randomInput(std::mt19937_64& rng, TypeRef type);
// An integer uniform in [lo, hi] (lo <= hi, hi - lo < 2^63); randomInput of an integer type is
// randomIn(rng, -kRandomRange, kRandomRange).
BigInt randomIn(std::mt19937_64& rng, const BigInt& lo, const BigInt& hi);

// classic: every query goes to `solver` as it is.
std::unique_ptr<PathSolver> makeClassicPathSolver(smt::Solver& solver, ExprManager& em);

}  // namespace tandem::symbolic
