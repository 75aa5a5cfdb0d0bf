// The compiled transition system: the fast path of `tandem check` for closed systems of guarded
// commands over int, bool and enum scalars and fixed arrays (protocol models, BEEM). A state is a
// vector of int64 slots (compiled_layout.h) stored as compact canonical bytes; guards, effects
// and invariants run as bytecode over the slots (compiled_compiler.h), with no allocation per
// state. Moves (thread, edges) mean exactly what they mean for GenericSystem, so counterexamples
// replay in the reference evaluator.
//
// `int` stays unbounded: an operation that leaves int64 hands that one step to the reference
// evaluator (the state converted to exec::State and back); a successor with a value beyond int64
// cannot be stored and makes the exploration incomplete. Initial states come from GenericSystem.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/search/compiled/compiled_compiler.h"
#include "mc/search/compiled/compiled_layout.h"
#include "mc/search/generic_system.h"

namespace tandem::search {

class CompiledSystem final : public TransitionSystem {
 public:
  // Whether the compiled engine runs `p` exactly (else `why` says what it does not support).
  static bool eligible(const ir::Program& p, std::string* why = nullptr);

  // Precondition: eligible(p) and opts.entry == ir::kNone.
  CompiledSystem(const ir::Program& p, exec::Evaluator& ev, GenericOptions opts);
  std::string name() const override { return "compiled"; }
  void initialStates(SuccessorSink& sink) override;
  bool successors(std::string_view state, SuccessorSink& sink) override;
  std::optional<FoundError> checkInvariants(std::string_view state) override;
  bool allAtValidEnd(std::string_view state) override;
  void locations(std::string_view state, std::vector<ir::LocId>& out) override;
  std::optional<bool> guardConjunct(uint32_t t, ir::EdgeId e, uint32_t k) override;

  const SlotLayout& layout() const { return layout_; }
  exec::State decode(std::string_view state) const;
  // The canonical bytes of `s`, or nullopt (with the reason) when it does not fit the slots.
  std::optional<std::string> encode(const exec::State& s, std::string* why = nullptr) const;

 private:
  class Converter;
  using Out = std::vector<uint32_t>;
  const Out& outOf(uint32_t t, const int64_t* s) const {
    const SlotLayout::ThreadInfo& th = layout_.thread(t);
    return *outs_[th.cfa][static_cast<size_t>(s[th.base])];
  }
  const Out& syncOutOf(uint32_t t, const int64_t* s) const {  // its rendezvous ends
    const SlotLayout::ThreadInfo& th = layout_.thread(t);
    return syncOuts_[th.cfa][static_cast<size_t>(s[th.base])];
  }
  RunContext context(uint32_t t, int64_t* s) {
    const SlotLayout::ThreadInfo& th = layout_.thread(t);
    return {s, th.base, th.instance, stack_.data(), &code_->names};
  }
  int64_t* buffer(unsigned depth);
  // One edge of thread t from slots `s` (depth: steps taken before it in an atomic block);
  // returns whether the edge is enabled.
  bool step(const int64_t* s, uint32_t t, const EdgeCode& ec, unsigned depth, SuccessorSink& sink);
  bool anyEnabled(const int64_t* s, uint32_t t);
  // compiled_rendezvous.cpp: every rendezvous pair from `s` (Evaluator::executeSync's rule);
  // returns whether some pair could happen (or failed).
  bool rendezvous(const int64_t* s, SuccessorSink& sink);
  bool syncPair(const int64_t* s, uint32_t t, const EdgeCode& send, uint32_t u,
                const EdgeCode& recv, SuccessorSink& sink);
  // The reference evaluator's rendezvous, when a value left int64.
  bool refSync(const int64_t* s, uint32_t t, ir::EdgeId send, uint32_t u, ir::EdgeId recv,
               SuccessorSink& sink);
  void emit(const int64_t* s, SuccessorSink& sink);
  void emitBytes(const int64_t* s, SuccessorSink& sink);
  bool tracked(ir::ErrorKind k) const { return opts_.tracked[static_cast<size_t>(k)]; }

  // compiled_fallback.cpp: the reference evaluator takes over a step that left int64.
  bool refStep(const int64_t* s, uint32_t t, ir::EdgeId e, unsigned depth, SuccessorSink& sink);
  void refExpand(const exec::State& s, uint32_t t, ir::EdgeId e, unsigned depth,
                 SuccessorSink& sink);
  void refEmit(const exec::State& s, SuccessorSink& sink);
  // The reference's check of every invariant: the first failure, if any (`limit`: it gave up).
  std::optional<exec::ExecError> refInvariants(const int64_t* s);
  // The first invariant that fails in s (or cannot be evaluated), by the bytecode, falling back
  // to the reference evaluator where the bytecode overflows.
  std::optional<exec::ExecError> failingInvariant(const int64_t* s);

  const ir::Program& p_;
  exec::Evaluator& ev_;
  GenericOptions opts_;
  GenericSystem generic_;  // initial states
  SlotLayout layout_;
  std::unique_ptr<CompiledProgram> code_;
  std::vector<std::vector<const Out*>> outs_;  // by CFA, then location index
  std::vector<std::vector<Out>> syncOuts_;     // the same, Sync edges only: sends, then receives
  std::vector<uint32_t> codeOf_;               // by EdgeId: its index in code_->edges
  std::vector<std::string> invariantMessages_;
  // Reused buffers: slots per atomic depth, the bytecode stack, encoded bytes, scratch slots.
  std::vector<std::vector<int64_t>> bufs_;
  std::vector<int64_t> stack_, scratch_;
  std::vector<uint8_t> enc_;
  Move move_;
  RunError err_;
  // rendezvous(): per channel, the receives (thread, edge) enabled by location in the state at
  // hand, in thread and edge order; and the channels that have some.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> receivers_;
  std::vector<uint32_t> receiving_;
};

}  // namespace tandem::search
