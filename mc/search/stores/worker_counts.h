// What each worker of a concurrent store counts of the states it adds: its own cache line, written
// by that worker only, so counting costs no shared write; the store's figures are the sums.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem::search {

struct alignas(64) WorkerCounts {
  std::atomic<uint64_t> states{0};
  uint64_t encodedBytes = 0;  // the new states' encodings, summed (SPIN's state vector)

  // A new state of `bytes` bytes, added by this worker (a plain store: no other writer).
  void added(size_t bytes) {
    states.store(states.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    encodedBytes += bytes;
  }
};

// The states added by all workers (exact once they have stopped).
template <class W>
uint64_t statesOf(const std::vector<W>& workers) {
  uint64_t n = 0;
  for (const WorkerCounts& w : workers) n += w.states.load(std::memory_order_relaxed);
  return n;
}

template <class W>
uint64_t encodedBytesOf(const std::vector<W>& workers) {
  uint64_t n = 0;
  for (const WorkerCounts& w : workers) n += w.encodedBytes;
  return n;
}

}  // namespace tandem::search
