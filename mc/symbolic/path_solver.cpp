#include "mc/symbolic/path_solver.h"

#include <iterator>
#include <limits>

#include "mc/expr/float64.h"
#include "mc/smt/minimize_formulas.h"
#include "mc/symbolic/cached_solver.h"

namespace tandem::symbolic {

void SolvingStats::add(const SolvingStats& o) {
  checks += o.checks;
  mixedChecks += o.mixedChecks;
  tries += o.tries;
  heuristicSuccesses += o.heuristicSuccesses;
  brackets += o.brackets;
  concreteRefutations += o.concreteRefutations;
  exhausted += o.exhausted;
  undecided += o.undecided;
  unknown += o.unknown;
  concretizations += o.concretizations;
  runs += o.runs;
  restarts += o.restarts;
  mispredictions += o.mispredictions;
  cacheSat += o.cacheSat;
  cacheUnsat += o.cacheUnsat;
}

smt::MinimizedModel minimizeOver(smt::Solver& solver, ExprManager& em,
                                 std::span<const ExprRef> formulas, std::span<const ExprRef> terms,
                                 const smt::Model* known) {
  return smt::minimizeFormulas(solver, em, formulas, terms, known);
}

BigInt randomIn(std::mt19937_64& rng, const BigInt& lo, const BigInt& hi) {
  const uint64_t span = static_cast<uint64_t>((hi - lo).toInt64().value_or(0)) + 1;
  return lo + BigInt(rng() % span);
}

namespace {

double randomDouble(std::mt19937_64& rng) {
  constexpr double kRange = static_cast<double>(kRandomRange);
  switch (rng() % 4) {
    case 0:
      return static_cast<double>(
          randomIn(rng, BigInt(-kRandomRange), BigInt(kRandomRange)).small());
    case 1: {
      static constexpr double kSpecial[] = {0.0,
                                            -0.0,
                                            1.0,
                                            -1.0,
                                            0.5,
                                            std::numeric_limits<double>::denorm_min(),
                                            -std::numeric_limits<double>::denorm_min(),
                                            std::numeric_limits<double>::min(),
                                            std::numeric_limits<double>::max(),
                                            -std::numeric_limits<double>::max(),
                                            std::numeric_limits<double>::epsilon()};
      return kSpecial[rng() % std::size(kSpecial)];
    }
    default: {
      const double unit = static_cast<double>(rng() >> 11) * 0x1p-53;  // [0, 1)
      return -kRange + 2 * kRange * unit;
    }
  }
}

}  // namespace

BigInt randomInput(std::mt19937_64& rng, TypeRef type) {
  if (type->kind == TypeKind::Bool) return BigInt(static_cast<int64_t>(rng() % 2));
  if (type->kind == TypeKind::Enum) {
    const uint64_t n = type->members.empty() ? 1 : type->members.size();
    return BigInt(static_cast<int64_t>(rng() % n));
  }
  if (type->kind == TypeKind::F64) return BigInt(f64::toBits(randomDouble(rng)));
  return randomIn(rng, BigInt(-kRandomRange), BigInt(kRandomRange));
}

namespace {

class ClassicPathSolver final : public CachedPathSolver {
 public:
  ClassicPathSolver(smt::Solver& solver, ExprManager& em) : CachedPathSolver(solver, em) {}

  std::string name() const override { return "classic"; }

  PcAnswer check(std::span<const ExprRef> pc) override {
    ++stats_.checks;
    return counted(PcAnswer::of(solver_.check(pc)));
  }
};

}  // namespace

std::unique_ptr<PathSolver> makeClassicPathSolver(smt::Solver& solver, ExprManager& em) {
  return std::make_unique<ClassicPathSolver>(solver, em);
}

}  // namespace tandem::symbolic
