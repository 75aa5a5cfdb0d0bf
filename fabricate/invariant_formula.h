// The invariant of a proof as formulas, for certificates (prove --certificate): at a location
// vector, the disjunction of gamma of the proof's abstract states there, over any configuration
// at those locations (symbolic/fragments.h's prestates, or chc's element form of them).
#pragma once

#include <map>
#include <vector>

#include "fabricate/prover.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::fabricate {

class InvariantFormula {
 public:
  // `o` and `r`: the options (with the predicates) and the result of the proof; the abstraction
  // is rebuilt from the same predicates, so the abstract states' truth vectors line up.
  InvariantFormula(const ir::Program& p, const exec::Evaluator& ev, const ProveOptions& o,
                   const ProveResult& r);

  // Over `c`, at c.pcs: false where the proof has no abstract state.
  ExprRef at(const symbolic::SymConfig& c) const;

 private:
  const ir::Program& p_;
  abstraction::Abstraction abs_;
  symbolic::SymEvaluator sev_;
  std::map<std::vector<ir::LocId>, std::vector<const abstraction::AbstractState*>> byPcs_;
};

}  // namespace tandem::fabricate
