// The cvc5 back end: one cvc5 solver (which is also its term manager) per instance.
#pragma once

#include <memory>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeCvc5Solver(TermNaming naming);

}  // namespace tandem::smt
