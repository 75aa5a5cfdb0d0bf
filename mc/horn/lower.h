// Linear Horn clauses become a closed ir::Program with one process, `chc`:
//
// - a location per predicate (labelled with its name), an initial location `init` and an error
//   location `error`, whose one edge is `assert false` (ErrorKind::Assert);
// - the arguments of predicate P are process locals P_0, P_1, ... (so that the liveness
//   analysis drops them where they are dead: everywhere but at P);
// - each clause is a guarded command from its body's predicate (`init` for a fact) to its
//   head's (`error` for a query): the head's arguments are assigned in parallel under the
//   constraint. The body's arguments bind the clause's variables: a variable is replaced by the
//   local it first meets, and a repeated variable or another term becomes an equality in the
//   guard. Equalities that define a variable (`y = x + 1`) are substituted. The variables left
//   are havocked first (a locals named as in the file), on an edge of their own to a location
//   `clauseN` (N the assertion's number), which also checks the part of the guard that does not
//   read them.
//
// Every location is a valid end (Location::validEnd): a derivation may stop anywhere, and a
// clause whose constraint fails is not a deadlock. So the program reaches `error` iff the
// clauses are unsatisfiable.
#pragma once

#include "mc/horn/clauses.h"
#include "mc/horn/positions.h"
#include "mc/ir/program.h"

namespace tandem::horn {

// Fills `prog` (whose type table and expression manager exist); throws Unsupported.
void lowerClauses(z3::context& ctx, const Clauses& clauses, const CommandPositions& at,
                  ir::Program& prog);

}  // namespace tandem::horn
