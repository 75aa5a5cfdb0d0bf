// Refinement of abstraction fabrication from spurious abstract paths, as SLAM's Newton and DASH
// do it (Ball, Rajamani; Beckman et al., ISSTA'08): the abstract path that reaches a potential
// error (from an initial abstract state, through the abstract state graph, to the error) is
// decided by the SMT solver over the concrete semantics of its locations; when no execution
// follows it, the atoms of the weakest precondition of the error along the path, at each
// position, become predicates in the scope of the code running there. With them the most precise
// abstraction over the predicates (which fabrication computes, ISSTA'06 Thm 3.2) no longer has
// that path.
//
// Why weakest preconditions and not interpolants: Z3 4.8 has no interpolation, cvc5's is a
// synthesis procedure that is slow on these paths, and WP atoms are exact (no new predicate is a
// guess), which keeps each round's predicates explainable in the report. Their known weakness,
// one predicate per loop iteration on counting loops, is bounded by the rounds and the budget.
#pragma once

#include <string>
#include <vector>

#include "abstraction/abstraction.h"
#include "fabricate/prover.h"

namespace tandem::refine {

struct PathRefinement {
  enum class Kind {
    NewPredicates,  // the path is spurious; `added` rules it out
    Feasible,       // an execution follows the path into the error: the error is real
    Stuck,          // spurious, but its predicates cannot be written (or are known already)
    Unsupported,    // a path this refinement cannot rebuild (why says what)
    Unknown,        // the solver could not decide the path
  };
  Kind kind = Kind::Unsupported;
  abstraction::ScopedPredicates added;  // new predicates, by scope
  std::vector<std::string> texts;       // the same, as source text with their scope
  size_t length = 0;                    // abstract steps of the path
  std::string why;
  // Feasible: values of the initial state's scalars (layout order) that start the execution.
  std::vector<std::pair<std::string, std::string>> witness;
};

// Decides the abstract path to potential error `index` of `r` (fabricate::prove's result under
// `o`, whose predicates are `o.extraPredicates` and the model's). Closed and open systems
// without objects; the class analysis is Unsupported.
PathRefinement refinePath(const ir::Program& p, const exec::Evaluator& ev, smt::Solver& solver,
                          const fabricate::ProveOptions& o, const fabricate::ProveResult& r,
                          size_t index);

}  // namespace tandem::refine
