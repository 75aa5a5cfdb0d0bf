// Private to the evaluator's .cpp files: what one evaluation reads.
#pragma once

#include <vector>

#include "mc/exec/evaluator.h"

namespace tandem::exec {

struct Evaluator::Ctx {
  const State& state;
  ThreadId tid;  // kNoThread: no thread (global initialisers, invariants)
  // The state's globals and heap, or those of an old() snapshot. Locals always come from the
  // state: as in Boogie and Dafny, old() refers back only to globals and the heap.
  const std::vector<Value>& globals;
  const std::vector<HeapObject>& heap;
  unsigned depth = 0;  // nesting of calls from expressions
  // The message a rendezvous receive takes (Op::Received), or null.
  const std::vector<Value>* message = nullptr;

  Ctx(const State& s, ThreadId t, unsigned d = 0)
      : state(s), tid(t), globals(s.globals), heap(s.heap), depth(d) {}
  Ctx(const State& s, ThreadId t, const std::vector<Value>& g, const std::vector<HeapObject>& h,
      unsigned d)
      : state(s), tid(t), globals(g), heap(h), depth(d) {}

  bool hasFrame() const { return tid != kNoThread && !state.threads[tid].frames.empty(); }
  const Frame& top() const { return state.threads[tid].frames.back(); }
};

// An error for a state the type checker and the lowering should have ruled out.
inline ExecError internalError(const std::string& what) {
  return ExecError::limitReached(ir::ErrorKind::Assert, "evaluator: " + what);
}

}  // namespace tandem::exec
