// The transition system of any program, stepped by the reference evaluator (mc/exec) through
// the system-step layer (exec::System, system.h: the moves, the turn inside `atomic` blocks,
// valid end states). A transition is one move, or a move into an atomic block with the steps
// its thread takes there until it leaves it or is blocked; the intermediate states are not
// stored. Nondeterministic choices over finite types (bool, enum)
// are enumerated; a choice of an unbounded integer cannot be enumerated and makes the
// exploration incomplete (symbolic execution handles those).
#pragma once

#include <array>
#include <memory>

#include "mc/exec/evaluator.h"
#include "mc/exec/system.h"
#include "mc/search/state_codec.h"
#include "mc/search/transition_system.h"

namespace tandem::search {

struct GenericOptions {
  std::array<bool, ir::kErrorKinds> tracked = ir::defaultErrorKinds();
  unsigned atomicDepth = 10000;  // steps inside one atomic block before giving up
  // Open systems: the entry procedure (kNone: the closed system). With entryHasNoInputs the
  // exploration starts from the entry with no arguments; otherwise from its `test` inputs.
  ir::CfaId entry = ir::kNone;
  bool entryHasNoInputs = false;
  // Concrete initial states besides the tests' or the initial state's (prove's triage starts from
  // the models of the initial condition that prove executed).
  std::vector<exec::State> seeds;
  // Class analysis (`entry` is the class's init): once the object's init or a method has
  // returned, any method may be called next, with arguments from `argPool` (integer parameters;
  // bools and enums take every value). Without tests, init's arguments come from the pool too.
  uint32_t classIndex = ir::kNone;
  std::vector<int64_t> argPool;
  // Closed systems whose initial values include an unbounded input: the initial states, found by
  // the caller (symbolic/initial_models.h). Without them such a system's exploration is
  // incomplete.
  std::shared_ptr<const std::vector<exec::State>> initial;
  // Initial states are emitted without checking the invariants: the caller checks them (prove's
  // Execute, which keeps every state it reports an error of).
  bool initialUnchecked = false;
};

class GenericSystem final : public TransitionSystem {
 public:
  GenericSystem(const ir::Program& p, exec::Evaluator& ev, GenericOptions opts);
  std::string name() const override { return "generic"; }
  void initialStates(SuccessorSink& sink) override;
  bool successors(std::string_view state, SuccessorSink& sink) override;
  std::optional<FoundError> checkInvariants(std::string_view state) override;
  bool allAtValidEnd(std::string_view state) override;
  void locations(std::string_view state, std::vector<ir::LocId>& out) override;
  std::optional<bool> guardConjunct(uint32_t t, ir::EdgeId e, uint32_t k) override;

  const StateCodec& codec() const { return codec_; }
  // Runs `move` from `state` (a replay); nullopt if it does not execute as recorded.
  std::optional<exec::State> replay(const exec::State& state, const Move& move,
                                    std::optional<FoundError>* error) const;
  // The initial state named by `move`'s choices, built without checking the invariants (the one
  // a counterexample of an invariant violated initially starts and ends in).
  std::optional<exec::State> initialState(const Move& move);

 private:
  class Enumerator;
  // The moves of `s` while `turn` holds the turn inside an atomic block (after `move`, the
  // block's steps so far), each by stepLocal.
  void expand(const exec::State& s, exec::ThreadId turn, const Move& move, unsigned depth,
              SuccessorSink& sink);
  // The local step `mv` from `s`, under every combination of its choices; inside an atomic
  // block the thread goes on (expand). False when its choices cannot be enumerated (the
  // thread's other steps from `s` are then not tried).
  bool stepLocal(const exec::State& s, const exec::Move& mv, const Move& move, unsigned depth,
                 SuccessorSink& sink);
  // The rendezvous `mv` from `s`, under every combination of its choices; whether it could
  // happen (it executed or failed).
  bool stepRendezvous(const exec::State& s, const exec::Move& mv, SuccessorSink& sink);
  // `initial`: an initial state (with GenericOptions::initialUnchecked, emitted unchecked).
  void emit(const exec::State& s, const Move& move, SuccessorSink& sink, bool initial = false);
  // Class analysis: the method calls possible from `s` (a returned init or method).
  void methodCalls(const exec::State& s, SuccessorSink& sink);
  // Every tuple of arguments for `params` (empty if a type cannot take values from the pool).
  std::optional<std::vector<std::vector<int64_t>>> argTuples(const std::vector<ir::VarId>& params,
                                                             size_t limit) const;
  bool tracked(ir::ErrorKind k) const { return opts_.tracked[static_cast<size_t>(k)]; }
  // The reason a step's nondeterministic choice cannot be enumerated.
  std::string unenumerable(ir::EdgeId e) const;

  const ir::Program& p_;
  exec::Evaluator& ev_;
  exec::System sys_;
  GenericOptions opts_;
  StateCodec codec_;
  std::string buf_;
  exec::State last_;  // the state successors() expanded last (guardConjunct)
  std::vector<ExprRef> conjuncts_;
};

}  // namespace tandem::search
