// The Z3 back end: one Z3 context and incremental solver per instance.
#pragma once

#include <memory>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeZ3Solver(TermNaming naming);

}  // namespace tandem::smt
