// The multi-core explorer of `check --threads N` on closed systems: N workers share one visited
// set (SharedStateStore, lock-free) and each has its own transition system (the compiled and
// generic systems keep scratch buffers). The search is the sequential explorer's, with the same
// counts (states, transitions, matched states) whenever the state space is exhausted:
//  - dfs: each worker searches depth-first from its own stack; a worker that runs dry waits,
//    and the others hand it the older half of their stacks (work sharing, as Laarman, van de
//    Pol and Weber balance their workers). The run ends when every worker waits with nothing
//    shared left.
//  - bfs: level-synchronous; the workers split each level and meet at a barrier before the
//    next, so the first error found is still at the least depth and its trace is shortest.
// With a lossy store (hc, bitstate), which cannot give a state back, the stacks hold the states'
// bytes, and the path to the state being expanded is kept as states for the counterexample.
// One worker runs alone until `shareAfter` states are stored: a run that ends before is the
// sequential explorer's run, state for state, with the same counts and the same trace.
// With --por, a worker marks a state expanded before it looks whether the successors it would
// keep are: of the states of a cycle, the one marked last sees its successor on the cycle
// marked (the marks are sequentially consistent), so the cycle proviso of por_reducer.h holds.
// Worker 0 runs on the calling thread and is the leader: it polls the budget (time, memory,
// interrupts) and prints the progress line, so the budget is only touched by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mc/search/explore/explorer.h"
#include "mc/search/por/successor_reducer.h"
#include "mc/search/stores/shared_store.h"
#include "mc/search/stores/visited_set.h"

namespace tandem::search {

// `search`: dfs or bfs; `budget`: required, touched by the leader only.
struct ParallelOptions : SearchOptions {
  unsigned threads = 2;
  StoreKind store = StoreKind::Exact;  // tree, hc, bitstate: dfs only (they keep no parents)
  unsigned bitstateBits = 27;          // bitstate: log2 of the array's bits
  // --por: makes each worker's reducer (a PorReducer over the model's analysis); the store must
  // keep expanded marks (the exact one). Empty: off.
  std::function<std::unique_ptr<SuccessorReducer>()> reducer;
  uint64_t shareAfter = uint64_t{1} << 15;
};

// Makes one worker's transition system (called once per worker, from the calling thread).
using SystemFactory = std::function<std::unique_ptr<TransitionSystem>()>;

class ParallelExplorer {
 public:
  ParallelExplorer(SystemFactory make, ParallelOptions opts);
  ~ParallelExplorer();
  // The result as the sequential explorer's; errorSource is unused (kNoParent): the path to
  // the error's source state is errorPath().
  ExploreResult run();
  // ErrorFound / Deadlock: the states from an initial state to the one the error was found from.
  const std::vector<std::string>& errorPath() const { return errorPath_; }
  // The workers that ran (1 when the run ended before `shareAfter` states).
  unsigned workersStarted() const { return started_; }

 private:
  class Run;
  SystemFactory make_;
  ParallelOptions opts_;
  std::vector<std::string> errorPath_;
  unsigned started_ = 1;
};

// Whether a strategy runs on several workers (dfs and bfs).
inline bool parallelStrategy(Strategy s) { return s == Strategy::Dfs || s == Strategy::Bfs; }

}  // namespace tandem::search
