// From the IR of a closed system to bytecode over flat slots (compiled_bytecode.h): every edge of
// every process (and of the rule set) becomes a guard and an effect, every invariant a condition.
// A program the compiler cannot translate exactly is reported with the reason, and the generic
// engine runs it instead: calls, returns, havoc, references, objects, dynamic arrays, i32/i64,
// old(), natives, array values as a whole (equality, assignment), and anything the reference
// evaluator would reject as an internal error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/ir/program.h"
#include "mc/search/compiled/compiled_bytecode.h"
#include "mc/search/compiled/compiled_layout.h"

namespace tandem::search {

struct EdgeCode {
  ir::EdgeId id = ir::kNone;
  ir::EdgeKind kind = ir::EdgeKind::Command;
  Code guard;                   // Command: the guard (empty: always enabled); Assert: the condition
  std::vector<Code> conjuncts;  // Command: the guard's conjuncts (ir::conjuncts), for --por
  Code effects;                 // Command: the assignments (they store into the slots)
  uint32_t to = 0;              // index of the target location within the CFA
  bool toAtomic = false;        // the target is inside an atomic block: the thread keeps the turn
  std::string failMessage;      // Assert: "'text' failed"
  // Sync: the values a send computes, and the channel's index in its array (empty: none). The
  // guard and effects of a receive read the message (Opc::LoadMsg).
  std::vector<Code> values;
  Code index;
  uint32_t channel = ir::kNone;  // Sync: the channel, and whether this end sends
  bool send = false;
};

struct CompiledProgram {
  std::vector<EdgeCode> edges;
  std::vector<std::vector<uint32_t>> out;  // by LocId: indices into `edges`, in Location::out order
  std::vector<Code> invariants;            // by Program::invariants index
  std::vector<std::string> names;          // process names, for instance errors
  bool rendezvous = false;                 // some edge is a Sync edge
  unsigned maxStack = 0;
};

// Returns the compiled program, or null with `why` saying what is not supported.
std::unique_ptr<CompiledProgram> compileProgram(const ir::Program& p, const SlotLayout& layout,
                                                std::string& why);

// Whether the variables of `p` fit the slot layout (checked before building one); else `why`.
bool layoutFits(const ir::Program& p, std::string& why);

}  // namespace tandem::search
