// A concrete state of a system: globals, threads (process instances, the rule set, or the one
// thread of an open system) with their call stacks, and a heap of class objects.
//
// Equality and hashing are structural and canonical in the sense the explorer's visited set needs:
// two states with the same meaning have the same encoding. Values are canonical (BigInt is, arrays
// hold exactly their elements, addresses zero their unused fields). Heap objects are numbered in
// allocation order, which a deterministic execution reproduces; states that differ only by a
// permutation of heap ids would compare unequal, which can only cost duplicate work, never
// soundness.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mc/exec/value.h"
#include "mc/ir/program.h"

namespace tandem::exec {

inline constexpr ObjectId kNoObject = UINT32_MAX;

struct HeapObject {
  uint32_t classIndex = ir::kNone;  // into Program::classes
  std::vector<Value> fields;        // by field index (Variable::slot)
  friend bool operator==(const HeapObject&, const HeapObject&) = default;
};

// Globals and heap at a procedure's entry, for `old(e)`.
struct OldSnapshot {
  std::vector<Value> globals;
  std::vector<HeapObject> heap;
  friend bool operator==(const OldSnapshot&, const OldSnapshot&) = default;
};

struct Frame {
  ir::CfaId cfa = ir::kNone;
  ir::LocId pc = ir::kNone;
  std::vector<Value> locals;  // by Variable::slot (parameters first)
  ObjectId self = kNoObject;  // `this` of a method or class initialiser
  // The Call edge this frame returns through; kNone for a bottom frame (and for the frame of a
  // call made from an expression, which the evaluator runs to completion privately).
  ir::EdgeId callEdge = ir::kNone;
  std::shared_ptr<const OldSnapshot> old;  // only when the CFA uses old()

  friend bool operator==(const Frame& a, const Frame& b);
};

struct Thread {
  ir::CfaId cfa = ir::kNone;         // the process, rule set or entry CFA (the bottom frame's CFA)
  uint32_t instance = 0;             // `pid` of a process instance
  std::vector<Value> processLocals;  // by Variable::slot
  std::vector<Frame> frames;         // the call stack, bottom first; never empty
  friend bool operator==(const Thread&, const Thread&) = default;

  Frame& top() { return frames.back(); }
  const Frame& top() const { return frames.back(); }
};

struct State {
  std::vector<Value> globals;  // by Variable::slot of the globals
  std::vector<Thread> threads;
  std::vector<HeapObject> heap;  // by ObjectId

  friend bool operator==(const State&, const State&) = default;
  size_t hash() const;
};

}  // namespace tandem::exec

template <>
struct std::hash<tandem::exec::State> {
  size_t operator()(const tandem::exec::State& s) const noexcept { return s.hash(); }
};
