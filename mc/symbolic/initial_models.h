// The initial states of a closed system whose globals are inputs (`var turn: int; init 0 <= turn
// && turn <= 1;`, as SV-COMP writes `assume(...)`): the models of the `init` conditions over the
// inputs, enumerated by the solver (each model blocked in turn) and made concrete states. The
// explicit-state search starts from them (search::GenericOptions::initial) where it cannot
// enumerate an unbounded type itself.
#pragma once

#include <optional>

#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/smt/solver.h"

namespace tandem::symbolic {

struct InitialModels {
  std::vector<exec::State> states;
  bool complete = false;  // `states` are all the initial states
  std::string reason;     // why they are not
  // An initialiser fails for some inputs (LANGUAGE.md: an error of the model); `states` are
  // then not enumerated.
  std::optional<exec::ExecError> error;
};

inline constexpr size_t kMaxInitialStates = 1000;

// At most `limit` states; more makes the result incomplete.
InitialModels enumerateInitialStates(
    const ir::Program& p, const exec::Evaluator& ev, smt::Solver& solver, size_t limit,
    std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds());

// Whether the explicit-state search needs the solver for the initial states of `p`: a closed
// system (without `test {...}` states) with a global of an unbounded type and no initialiser.
bool needsInitialModels(const ir::Program& p);

}  // namespace tandem::symbolic
