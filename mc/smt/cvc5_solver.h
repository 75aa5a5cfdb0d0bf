// The cvc5 back end: one cvc5 solver (which is also its term manager) per instance.
#pragma once

#include <memory>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

// `unsatCores`: after an unsat check, Solver::unsatAssumptions names a minimal set of the
// assumptions (cvc5 then tracks proofs, which makes every check slower).
std::unique_ptr<Solver> makeCvc5Solver(TermNaming naming, bool unsatCores = false);

}  // namespace tandem::smt
