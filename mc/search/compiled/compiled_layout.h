// The flat state of the compiled transition system: one int64 slot per scalar (array elements
// flattened row-major), globals first, then per thread its program counter (the location's index
// within its CFA) and its process locals and frame locals. Threads are numbered as the reference
// evaluator numbers them (process instances in declaration order, then the rule set), and all
// instances of one process share one layout, so a thread's variables sit at a fixed offset from
// its base slot. Converts to and from exec::State (for the reference evaluator and tests) and to
// and from the canonical bytes the state store keeps.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mc/exec/state.h"
#include "mc/ir/program.h"

namespace tandem::search {

// Types a slot region can hold: int, bool, enum, and fixed-length arrays of those.
bool slotType(TypeRef t);
// Number of slots a value of an eligible type takes.
uint32_t slotCount(TypeRef t);

class SlotLayout {
 public:
  struct ThreadInfo {
    ir::CfaId cfa = ir::kNone;
    uint32_t instance = 0;
    uint32_t base = 0;  // first slot (the pc)
  };
  struct CfaInfo {
    uint32_t size = 0;         // slots per thread: pc, process locals, frame locals
    uint32_t firstThread = 0;  // thread of instance 0 (threads of one CFA are contiguous)
    uint32_t instances = 0;    // 0: not a thread of the closed system
  };

  // Precondition: the program is a closed system whose variables all satisfy slotType.
  explicit SlotLayout(const ir::Program& p);

  size_t slots() const { return slots_; }
  size_t threadCount() const { return threads_.size(); }
  const ThreadInfo& thread(uint32_t t) const { return threads_[t]; }
  const CfaInfo& cfa(ir::CfaId c) const { return cfas_[c]; }
  // Globals: the absolute slot; process locals and frame locals: the offset from a thread's base.
  uint32_t offsetOf(ir::VarId v) const { return varOff_[v]; }
  // The index of a location within its CFA, and back.
  uint32_t locIndex(ir::LocId l) const { return locIndex_[l]; }
  ir::LocId locAt(ir::CfaId c, int64_t index) const {
    return p_.cfas[c].locs[static_cast<size_t>(index)];
  }

  // exec::State <-> slots. fromExec fails (with the reason) when the state does not have this
  // shape or a value lies outside int64.
  exec::State toExec(const int64_t* slots) const;
  bool fromExec(const exec::State& s, int64_t* slots, std::string& why) const;

  // The canonical bytes of a state: one nibble per slot holding 0..14; anything else is an
  // escape nibble and the value in 3-bit groups (a continuation bit each), for non-negative
  // slots as v - 15, for signed ones zigzagged around the small range. Equal states give equal
  // bytes and the slot count makes the decoding unique.
  size_t maxEncodedBytes() const { return slots_ * 12 + 1; }
  size_t encode(const int64_t* slots, uint8_t* out) const;  // returns the length
  void decode(std::string_view bytes, int64_t* slots) const;

 private:
  exec::Value toValue(TypeRef t, const int64_t*& p) const;
  bool fromValue(TypeRef t, const exec::Value& v, int64_t*& p, std::string& why) const;
  void markUnsigned(TypeRef t, size_t at);

  const ir::Program& p_;
  size_t slots_ = 0;
  std::vector<ThreadInfo> threads_;
  std::vector<CfaInfo> cfas_;
  std::vector<uint32_t> varOff_;
  std::vector<uint32_t> locIndex_;
  std::vector<uint8_t> unsigned_;  // per slot: never negative (pc, bool, enum)
};

}  // namespace tandem::search
