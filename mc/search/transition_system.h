// What the explorer explores: states as canonical byte strings and a successor function. Two
// implementations share one explorer: the generic one runs the reference evaluator (mc/exec) on
// any program; a compiled one (flat slots, precompiled guards and effects) is much faster on
// protocol models. Every counterexample is replayed by the reference evaluator either way.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mc/exec/result.h"
#include "mc/ir/program.h"
#include "mc/lang/source.h"

namespace tandem::search {

// How a successor was reached: the thread that moved and the edges it took (several inside an
// `atomic` block), plus the nondeterministic choices made on the way (as indices).
// A class analysis also moves by calling a method on the object under test: `method` is set, the
// arguments are in `args` (integers; bools and enum members by index) and `edges` is empty.
// A rendezvous moves two threads: `thread` sends by its one edge, `partner` receives by
// `partnerEdge`.
inline constexpr uint32_t kNoPartner = UINT32_MAX;
struct Move {
  uint32_t thread = 0;
  std::vector<ir::EdgeId> edges;
  uint32_t partner = kNoPartner;
  ir::EdgeId partnerEdge = ir::kNone;
  std::vector<uint32_t> choices;
  ir::CfaId method = ir::kNone;
  std::vector<int64_t> args;
};

// An error found while computing successors (a failing assert or implicit check on an edge).
struct FoundError {
  ir::ErrorKind kind = ir::ErrorKind::Assert;
  SourceLoc loc;
  std::string message;
  Move move;  // the move that fails (its last edge raised the error)
};

// Receives the successors of one state.
class SuccessorSink {
 public:
  virtual ~SuccessorSink() = default;
  virtual void successor(std::string_view state, const Move& move) = 0;
  virtual void error(const FoundError& e) = 0;
  // The computation could not complete (a limit, something not executable concretely): the
  // exploration becomes incomplete and can no longer say `verified`.
  virtual void incomplete(const std::string& reason) = 0;
};

// An error found after `move` (a failed invariant, or one that cannot be evaluated), as both
// transition systems report it: a limit makes the exploration incomplete; anything else is an
// error of the move.
inline void reportError(SuccessorSink& sink, const exec::ExecError& err, const Move& move) {
  if (err.limit)
    sink.incomplete(err.message);
  else
    sink.error({err.kind, err.loc, err.message, move});
}

// The error of one step: as reportError, but an untracked kind ends that execution silently.
inline void reportStepError(SuccessorSink& sink, const exec::ExecError& err, const Move& move,
                            const std::array<bool, ir::kErrorKinds>& tracked) {
  if (err.limit || tracked[static_cast<size_t>(err.kind)]) reportError(sink, err, move);
}

class TransitionSystem {
 public:
  virtual ~TransitionSystem() = default;
  virtual std::string name() const = 0;
  // The initial states (canonical encodings); reports errors/incompleteness to the sink.
  virtual void initialStates(SuccessorSink& sink) = 0;
  // All successors of `state`; returns false when no thread can move (deadlock or termination).
  virtual bool successors(std::string_view state, SuccessorSink& sink) = 0;
  // The first violated invariant (or error evaluating one) in `state`.
  virtual std::optional<FoundError> checkInvariants(std::string_view state) = 0;
  // Whether every thread is at a valid end state (exec::System::validEnd): a state without
  // successors is then not a deadlock.
  virtual bool allAtValidEnd(std::string_view state) = 0;
  // Locations of all threads, for coverage-guided search and reports.
  virtual void locations(std::string_view state, std::vector<ir::LocId>& out) = 0;
  // Partial-order reduction (por_reducer.h), in the state last given to successors(): whether
  // conjunct k (ir::conjuncts) of the guard of thread t's edge e holds; nullopt when not known
  // (the reduction then assumes any conjunct may be the false one).
  virtual std::optional<bool> guardConjunct(uint32_t t, ir::EdgeId e, uint32_t k) {
    (void)t, (void)e, (void)k;
    return std::nullopt;
  }
};

// A state without moves is a deadlock unless every thread is at a valid end: exec::System's
// rule (mc/exec/system.h), over either transition system. `moved`: successors() found a move.
inline bool deadlocked(TransitionSystem& sys, std::string_view state, bool moved) {
  return !moved && !sys.allAtValidEnd(state);
}

}  // namespace tandem::search
