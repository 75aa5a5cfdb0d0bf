// DART-style concolic testing (Godefroid, Klarlund, Sen, "DART: Directed Automated Random
// Testing", PLDI'05), the `--solving dart` baseline of ISSTA'11's comparison:
//   1. Run the entry procedure on concrete inputs (random at first, from the seeded generator),
//      collecting the path constraint symbolically. Complex terms (natives, @concrete procedures,
//      non-linear arithmetic) take their concrete values (DartConcretizer), so the constraints
//      they were in lose their dependence on the inputs.
//   2. Directed search: negate the last constraint not yet negated, solve the prefix with the
//      negation for new inputs, and run again (depth-first over the branch stack).
//   3. A run that does not take the predicted branches (because a concretized value changed) is
//      a misprediction: the directed search stops and restarts from random inputs, as DART does.
//      A directed search that ends without concretization or misprediction has covered every
//      feasible path; otherwise at most `maxTries` restarts follow.
// Each run is one pass of the symbolic explorer whose path solver evaluates the path condition
// on the run's inputs, so only the branch the inputs take is followed.
#pragma once

#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::symbolic {

ExploreResult exploreDart(const ir::Program& program, const exec::Evaluator& concrete,
                          smt::Solver& solver, const ExploreOptions& options);

}  // namespace tandem::symbolic
