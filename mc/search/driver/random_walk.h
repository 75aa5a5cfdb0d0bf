// One concrete execution of `tandem run`: from a state, a move chosen at random (uniformly among
// the enabled ones, as SPIN's simulation) again and again, until the system ends, blocks, fails
// or a bound stops it. Nothing is kept: each step goes to an observer as it happens (a run may
// be long). The budget bounds the walk like any search (a single path): --max-depth and
// --max-states bound its steps and states.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "mc/exec/chooser.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/system.h"
#include "mc/search/driver/budget.h"

namespace tandem::search {

// Sees each step: `before` with the state the move starts from, `after` with the state it led
// to (unchanged when the step failed).
class WalkObserver {
 public:
  virtual ~WalkObserver() = default;
  virtual void before(const exec::State& s, const exec::Move& m) = 0;
  virtual void after(const exec::State& s, const exec::Move& m, uint64_t step, bool failed) = 0;
};

struct WalkOptions {
  uint64_t steps = 0;  // --steps: the walk's own bound
  uint64_t seed = 0;
  std::array<bool, ir::kErrorKinds> tracked{};
};

struct WalkOutcome {
  // A tracked error (a deadlock has kind Deadlock), at location `label` ("" for an invariant
  // that fails in the initial state; the location of the last step otherwise).
  std::optional<exec::ExecError> error;
  std::string label;
  std::string stopped;    // why the walk ended without an error
  bool boundHit = false;  // a bound (not the system) ended it
  uint64_t steps = 0;
};

class RandomWalk {
 public:
  RandomWalk(const ir::Program& p, exec::Evaluator& ev, Budget& budget, const WalkOptions& o);
  exec::RandomChooser& chooser() { return chooser_; }
  // Walks from `s` (which becomes the last state).
  WalkOutcome run(exec::State& s, WalkObserver& observer);
  // The initial state could not be built: `e` fails an initialiser.
  WalkOutcome failedToStart(const exec::ExecError& e) const;

 private:
  bool tracked(ir::ErrorKind k) const { return o_.tracked[static_cast<size_t>(k)]; }
  // Whether a bound ends the walk before its next step (`out.stopped` says which).
  bool outOfBudget(WalkOutcome& out);

  const ir::Program& p_;
  exec::Evaluator& ev_;
  exec::System sys_;
  Budget& budget_;
  WalkOptions o_;
  exec::RandomChooser chooser_;
  std::mt19937_64 rng_;
};

}  // namespace tandem::search
