// Cross-checking (--solver-cross-check): every query also goes to a second solver (normally the
// other back end). A sat/unsat disagreement is reported loudly to `report`, with the query as
// SMT-LIB, counted, and answered unknown: one of the two is wrong and nothing may be concluded.
// Each sat model is also re-evaluated against the formulas with Tandem's evaluator; a model that
// falsifies one is reported as well. When only one solver answers, its answer is used.
#pragma once

#include <iosfwd>
#include <memory>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeCrossCheckSolver(std::unique_ptr<Solver> primary,
                                             std::unique_ptr<Solver> other, std::ostream& report,
                                             TermNaming naming);

}  // namespace tandem::smt
