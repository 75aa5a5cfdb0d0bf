#include "mc/exec/state.h"

#include "mc/exec/hash_mix.h"

namespace tandem::exec {

bool operator==(const Frame& a, const Frame& b) {
  if (a.cfa != b.cfa || a.pc != b.pc || a.self != b.self || a.callEdge != b.callEdge ||
      a.locals != b.locals)
    return false;
  if (a.old == b.old) return true;  // same snapshot, or both without one
  return a.old && b.old && *a.old == *b.old;
}

namespace {

void mixValues(size_t& h, const std::vector<Value>& vs) {
  hashMix(h, vs.size());
  for (const Value& v : vs) hashMix(h, v.hash());
}

void mixHeap(size_t& h, const std::vector<HeapObject>& heap) {
  hashMix(h, heap.size());
  for (const HeapObject& o : heap) {
    hashMix(h, o.classIndex);
    mixValues(h, o.fields);
  }
}

}  // namespace

size_t State::hash() const {
  size_t h = 0x5eed;
  mixValues(h, globals);
  hashMix(h, threads.size());
  for (const Thread& t : threads) {
    hashMix(h, t.cfa);
    hashMix(h, t.instance);
    mixValues(h, t.processLocals);
    hashMix(h, t.frames.size());
    for (const Frame& f : t.frames) {
      hashMix(h, f.cfa);
      hashMix(h, f.pc);
      hashMix(h, f.self);
      hashMix(h, f.callEdge);
      mixValues(h, f.locals);
      if (f.old) {
        mixValues(h, f.old->globals);
        mixHeap(h, f.old->heap);
      }
    }
  }
  mixHeap(h, heap);
  return h;
}

}  // namespace tandem::exec
