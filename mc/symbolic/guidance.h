// Guidance of symbolic execution by verification annotations (Christakis, Mueller, Wuestholz,
// ICSE'16): at selected locations of the unit under test, `assume May` prunes the executions
// whose every assertion is already verified, and `tryfirst Must` explores first the executions
// that must reach an unverified assertion. The conditions are boolean expressions over the
// procedure's assumption ids (the hidden locals of `assumed ... as a`); abstraction/unverified.h
// infers them. The explorer applies them in the entry procedure's own frame only: a callee's
// conditions speak of the callee's assertions, not of what its caller does after the return.
#pragma once

#include <cstdint>
#include <vector>

#include "mc/expr/expr.h"

namespace tandem::symbolic {

struct Guidance {
  std::vector<ExprRef> assumeAt;    // per LocId: `assume May` on arrival (null: none)
  std::vector<ExprRef> tryFirstAt;  // per LocId: `tryfirst Must` on arrival (null: none)
  // Executions interrupted at a `tryfirst` (set aside until the others are done); after this
  // many, `tryfirst` no longer interrupts (the paper's default is 4 per unit).
  uint32_t maxInterrupts = 4;
  // Per EdgeId: the edge may raise a tracked implicit error, which no annotation covers. With the
  // assertions whose premise fails, such an edge makes the execution unverified: it is never
  // pruned after that (it is a non-redundant test whatever follows).
  std::vector<bool> implicitChecks;
};

struct GuidanceStats {
  uint64_t pruned = 0;      // executions ended by `assume May`
  uint64_t interrupts = 0;  // executions set aside by `tryfirst Must`
  uint64_t resumed = 0;     // interrupted executions explored later
};

}  // namespace tandem::symbolic
