// `tandem export-chc`: the system as constrained Horn clauses (SMT-LIB2, CHC-COMP format), for
// Z3's Horn engine (Spacer) and other CHC solvers. One predicate per cutpoint location vector (the
// cutpoints of `tandem prove`) over the state's scalars; the clauses are
//   init condition                       -> Inv_L0(initial values)
//   Inv_L(pre) ∧ path condition          -> Inv_L'(post-state)   for each loop-free fragment
//   Inv_L(pre) ∧ error condition         -> false                 (assert, implicit checks)
//   Inv_L(pre) ∧ ¬invariant              -> false                 (`invariant` declarations)
// The fragments are mc/symbolic/fragments.h's, so the clauses describe exactly the transitions
// `prove` checks. CHC-COMP convention: `sat` means safe, `unsat` means an error is reachable.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string>

#include "mc/exec/evaluator.h"
#include "mc/ir/cutpoints.h"
#include "mc/search/driver/budget.h"
#include "mc/symbolic/sym_config.h"

namespace tandem::chc {

struct HornOptions {
  ir::CfaId entry = ir::kNone;  // open systems: the entry procedure
  ir::CutpointMode cutpoints = ir::CutpointMode::Loops;
  std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds();
  // The run's budget (not owned; may be null): --max-states bounds the predicates (location
  // vectors), --max-depth their distance from the initial one, and time, memory and interrupts
  // end the export early. The clauses written so far are then an incomplete system.
  search::Budget* budget = nullptr;
  // Whether an incomplete system still gets its text (without (check-sat)): stdout shows what
  // was found, a file gets nothing.
  bool text = true;
  // prove --certificate: the invariant over a prestate of a predicate's location vector (in
  // element form); when set, HornSystem::certificate defines every predicate by it.
  std::function<ExprRef(const symbolic::SymConfig&)> invariant;
};

struct HornSystem {
  std::string text;  // the SMT-LIB2 script; (check-sat) only when it is whole
  size_t predicates = 0;
  size_t clauses = 0;  // all of them; the next three split them
  size_t initClauses = 0, stepClauses = 0, queryClauses = 0;
  size_t maxArity = 0;  // arguments of the widest predicate
  // Why the system is incomplete (a bound or an interrupt); empty when it is whole.
  std::string incomplete;
  // With HornOptions::invariant: `(define-fun P ...)` per predicate (chc/certificate.h).
  std::string certificate;
};

// Throws chc::Unsupported or symbolic::NotImplemented for programs outside the export (objects,
// dynamic arrays, process-local variables, calls inside expressions, ...).
HornSystem exportHorn(const ir::Program& p, const exec::Evaluator& ev, const HornOptions& o);

}  // namespace tandem::chc
