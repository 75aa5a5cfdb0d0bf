// The pieces default predicates are made of (ISSTA'06 Sect. 4.5, auto_predicates.h): the atoms
// of conditions, the checks that evaluating an expression implies, and weakest preconditions.
#pragma once

#include <vector>

#include "mc/ir/program.h"

namespace tandem::abstraction {

// The comparisons of a condition that read an integer, reference or array variable (atoms over
// bool and enum variables or locations are exact already), `!=` written as `==`.
void conditionAtoms(ExprManager& em, ExprRef cond, std::vector<ExprRef>& out);

// What evaluating `e` checks, as atoms: `p == null` under `*p` and `p.f`, `0 <= i` and
// `i < len(a)` under `a[i]`, `d == 0` under `x / d` and `x % d`.
void implicitChecks(ExprManager& em, ExprRef e, std::vector<ExprRef>& out);

// The weakest precondition of `pred` through a command's assignments to variables (writes
// through an index, a field or a pointer leave it as it is: default predicates are a heuristic,
// the abstraction is sound whatever it tracks), simplified. Null when it cannot be written: a
// havoc of a variable it reads, or an array value in it.
ExprRef weakestPrecondition(ExprManager& em, ExprRef pred, const ir::Edge& e);

// `e` with variables replaced at once (a parallel assignment), simplified; null as above.
ExprRef substituteVars(ExprManager& em, ExprRef e, const std::vector<ir::Assignment>& by);

// A check under a guard, without the index: `i < u` (guard) implies `i < len(a)` (check) for
// every i exactly when `u <= len(a)` (a loop `while (i < n) a[i]` needs `n <= len(a)`); likewise
// for constant bounds and lower bounds. Null when the check's bound is not a length or a
// constant, or the two do not bound the same term from the same side.
ExprRef boundRelation(ExprManager& em, ExprRef guardAtom, ExprRef check);

}  // namespace tandem::abstraction
