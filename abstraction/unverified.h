// May- and must-unverified conditions (Christakis, Mueller, Wuestholz, ICSE'16 §3): the
// boolean-program abstraction of every procedure (§3.1: conditions and loops nondeterministic,
// only the assumption ids kept, `assumed e as a` as `a := a && *`, each assertion checks its
// `verified` premise, an assertion without one is unverified, calls kept as calls) and the
// backward analyses over it, with a fixpoint at loops and across calls:
//   May(l)  = not WP(l, true): some execution from l may reach an assertion whose premise fails
//             (§3.2); WP is demonic over the nondeterminism, a greatest fixpoint;
//   Must(l) = every execution from l that ends reaches one (§3.3), a least fixpoint: per
//             assertion `not premise or Must(after)` (Must_assert), per call whether every
//             execution of the callee does (Must_all of the callee, a constant since the callee's
//             ids are true on entry).
// Both are then simplified by forward constant propagation of the ids (true on entry, unknown
// after an `assumed`), and kept only at selected locations (the entry, each branch's first
// location, loop heads, the location after each `assumed`) where they are not trivial (May
// true, Must true or false) and not a repetition of the condition at the single predecessor.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mc/ir/program.h"
#include "mc/symbolic/guidance.h"

namespace tandem::abstraction {

// `--guide`: ignore (UV: annotations ignored, every assertion checked), none (PV: assertions
// `verified true` are trusted, not checked), may, must, may-must (PV plus the instrumentation).
enum class Guide : uint8_t { Ignore, None, May, Must, MayMust };
const char* guideName(Guide g);
std::optional<Guide> parseGuide(std::string_view name);

struct UnverifiedConditions {
  std::vector<ExprRef> may;   // per LocId: `assume may` here (null: none)
  std::vector<ExprRef> must;  // per LocId: `tryfirst must` here (null: none)
  // Per CfaId: why the procedure has no conditions (empty: it has them, or needs none).
  std::vector<std::string> skipped;
};

// Assertions are checked by their premise; an edge whose evaluation may raise an implicit
// error of a `tracked` kind (division, indexing, dereference, `new`) is an unverified
// assertion: no annotation speaks for those checks (`--check assert` leaves them out).
UnverifiedConditions inferUnverified(const ir::Program& p,
                                     const std::array<bool, ir::kErrorKinds>& tracked);

// Per EdgeId: whether evaluating the edge may raise an implicit error of a `tracked` kind (an
// unverified check for the boolean program, and for counting tests).
std::vector<bool> implicitCheckEdges(const ir::Program& p,
                                     const std::array<bool, ir::kErrorKinds>& tracked);

// The instrumentation of `guide` (none for ignore and none).
symbolic::Guidance guidanceFor(const UnverifiedConditions& c, Guide guide);

}  // namespace tandem::abstraction
