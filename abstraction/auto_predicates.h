// Default predicates (`prove --auto-predicates`; Yorsh, Ball, Sagiv, ISSTA'06, Sect. 4.5): the
// atoms of branch conditions, assertions and invariants, and the implicit checks of expressions
// (`p == null`, `0 <= i`, `i < len(a)`, `d == 0`), carried backwards to a fixpoint:
// - through assignments, as weakest preconditions (`x := y` turns `x < n` into `y < n`); an
//   update of a variable from itself on a cycle (`i := i + 1` in a loop, or in a method any
//   method may follow) is not passed: it would give i + 1 < n, i + 2 < n, ... and what the loop
//   needs is in its guards and checks; a chain passes each assignment once;
// - through a guard in front of a check, without the index: `i < n` before `a[i]` gives
//   `n <= len(a)`;
// - through calls: a callee's predicates on its parameters become the caller's on the
//   arguments, a caller's predicate on the returned value becomes the callee's on what it
//   returns;
// - in a class analysis, from the entry of each method to the exits of init and of every method;
// - in closed systems, a global predicate from one process to all (another may step in between).
//
// Each predicate goes to the scope it can be read in (predicate_scope.h): a procedure's or
// method's frame, a process (per instance), a class's fields, or globals only; in an open system
// a global or class predicate that matters in one procedure only goes to that procedure. A scope
// takes at most `limit` default predicates, those found in fewer weakest-precondition steps
// first.
#pragma once

#include <vector>

#include "abstraction/abstraction.h"

namespace tandem::abstraction {

struct DefaultPredicateOptions {
  std::vector<ir::CfaId> roots;     // the entry procedure, or processes and rules, or (class) init
  uint32_t classIndex = ir::kNone;  // class analysis: every method may follow init or a method
  size_t limit = 16;                // per scope
};

ScopedPredicates defaultPredicates(const ir::Program& p, const DefaultPredicateOptions& o);

// The options of one analysis: from `entry` (kNone: the processes and rules of a closed system),
// in the class analysis of `classIndex` from its init and every method.
DefaultPredicateOptions analysisOptions(const ir::Program& p, ir::CfaId entry, uint32_t classIndex,
                                        size_t limit);

}  // namespace tandem::abstraction
