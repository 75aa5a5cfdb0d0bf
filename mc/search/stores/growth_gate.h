// The handshake that lets a lock-free table grow while several workers use it: each worker
// announces the batches of lookups it makes (enter/leave, one flag of its own on its own cache
// line), and the worker that grows the table takes the gate, waits until every other worker is
// outside, and replaces the table; workers that want in meanwhile wait outside. Growing is rare
// (log2 of the table's final size times), entering costs one store and one load.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace tandem::search {

class GrowthGate {
 public:
  explicit GrowthGate(unsigned workers) : inside_(workers) {}

  // Worker w goes in unless a growth runs or `blocked()` says the table must grow first.
  template <typename Blocked>
  bool tryEnter(unsigned w, Blocked&& blocked) {
    // Dekker's handshake with drain(): either the grower sees this worker inside and waits for
    // it, or this worker sees the growth and stays outside.
    inside_[w].flag.store(true, std::memory_order_seq_cst);
    if (!growing_.load(std::memory_order_seq_cst) && !blocked()) return true;
    inside_[w].flag.store(false, std::memory_order_seq_cst);
    return false;
  }
  void leave(unsigned w) { inside_[w].flag.store(false, std::memory_order_release); }
  bool growing() const { return growing_.load(std::memory_order_acquire); }
  void waitWhileGrowing(unsigned& rounds) const {
    while (growing()) pause(rounds);
  }
  // Takes the gate for a growth; false (once the other growth is over) when another worker
  // held it.
  bool acquire() {
    bool expected = false;
    if (growing_.compare_exchange_strong(expected, true, std::memory_order_seq_cst)) return true;
    unsigned rounds = 0;
    waitWhileGrowing(rounds);
    return false;
  }
  // With the gate held: waits until every worker but `self` is outside.
  void drain(unsigned self) const {
    for (unsigned w = 0; w < inside_.size(); ++w)
      for (unsigned rounds = 0; w != self && inside_[w].flag.load(std::memory_order_seq_cst);)
        pause(rounds);
  }
  void release() { growing_.store(false, std::memory_order_seq_cst); }

  // The growth protocol of a store: take the gate (or wait for the growth another worker runs),
  // check that growing is still due, refuse by marking the store `full` when the allocation is
  // not `allowed`, else wait until every other worker is outside and run `body`. Returns whether
  // the store can take more (not full).
  template <typename Due, typename Body>
  bool grow(unsigned self, bool allowed, std::atomic<bool>& full, Due&& due, Body&& body) {
    if (!acquire()) return !full.load(std::memory_order_acquire);
    if (!due() || full.load(std::memory_order_acquire)) {  // grown meanwhile, or full
      release();
      return !full.load(std::memory_order_acquire);
    }
    if (!allowed) {
      full.store(true, std::memory_order_release);
      release();
      return false;
    }
    drain(self);
    body();
    release();
    return true;
  }

  static void pause(unsigned& rounds) {
    if (++rounds >= 64) std::this_thread::yield();
  }

 private:
  struct alignas(64) Flag {
    std::atomic<bool> flag{false};
  };
  std::vector<Flag> inside_;
  std::atomic<bool> growing_{false};
};

}  // namespace tandem::search
