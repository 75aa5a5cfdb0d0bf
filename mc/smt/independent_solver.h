// Independence slicing (KLEE's IndependentSolver, applied to a whole conjunction): the asserted
// formulas and assumptions are split into groups that share no leaf and no uninterpreted
// function, each group is checked on its own (so unchanged groups hit the cache below), and the
// model is the union of the groups' models. Any unsat group makes the query unsat.
#pragma once

#include <memory>

#include "mc/smt/solver.h"

namespace tandem::smt {

std::unique_ptr<Solver> makeIndependentSolver(std::unique_ptr<Solver> inner);

}  // namespace tandem::smt
