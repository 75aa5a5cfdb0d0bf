#include "mc/symbolic/path_solver.h"

#include "mc/smt/minimize_formulas.h"
#include "mc/symbolic/cached_solver.h"

namespace tandem::symbolic {

void SolvingStats::add(const SolvingStats& o) {
  checks += o.checks;
  mixedChecks += o.mixedChecks;
  tries += o.tries;
  heuristicSuccesses += o.heuristicSuccesses;
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

BigInt randomInput(std::mt19937_64& rng, TypeRef type) {
  if (type->kind == TypeKind::Bool) return BigInt(static_cast<int64_t>(rng() % 2));
  if (type->kind == TypeKind::Enum) {
    const uint64_t n = type->members.empty() ? 1 : type->members.size();
    return BigInt(static_cast<int64_t>(rng() % n));
  }
  const uint64_t span = 2 * static_cast<uint64_t>(kRandomRange) + 1;
  return BigInt(static_cast<int64_t>(rng() % span) - kRandomRange);
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
