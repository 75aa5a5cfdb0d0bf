// The explicit-state search spread over ranks (check --distributed): every rank builds the same
// TransitionSystem and owns the states that ownerOf (partition.h) gives it. A rank keeps its own
// states in its own StateStore with its own frontier (dfs or bfs), expands them, and sends each
// successor it does not own to the owner in batches, with the parent as (rank, local id) so that
// a counterexample can be walked back. Termination is Safra's (termination.h); the first error
// or bound hit on any rank ends every rank. Rank 0 then gathers every rank's counts and, for an
// error, the path of states from their owners. The same semantics as Explorer: the counts of an
// exhausted search are the same (states, transitions, matched states) whatever the number of
// ranks; the depth is that of each rank's own search tree and may differ. No MPI here: the ranks
// talk through a Transport.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mc/search/explore/explorer.h"
#include "mc/search/explore/transport.h"

namespace tandem::search {

// `search`: dfs or bfs, the order of each rank's own frontier; `budget`: this rank's (--max-states
// bounds the states of all ranks together, --timeout and --memory-limit each rank, its own
// process); `progress`: rank 0's line, the states of all ranks.
struct DistributedOptions : SearchOptions {
  Limits limits;
  size_t batchBytes = size_t{32} << 10;  // a batch for one rank goes once it holds this much
};

// One rank's share, for load balance: the states it stores, the successors it computed, the
// messages and bytes it sent.
struct RankStats {
  uint64_t states = 0, transitions = 0, messages = 0, bytes = 0, peakRssMb = 0;
  double seconds = 0;
};

struct DistributedResult {
  // Rank 0: the whole search, its outcome, reason and counts summed over the ranks (maxDepth and
  // peakRssMb: the largest of the ranks'); `errorSource` is unset, `path` stands for it. Other
  // ranks: nothing (rank 0 reports for all).
  ExploreResult result;
  // Rank 0, ErrorFound or Deadlock: the states from an initial state to the one the error was
  // found from (empty for an error in an initial state), gathered from their owners.
  std::vector<std::string> path;
  std::vector<RankStats> perRank;  // rank 0: each rank's share, by rank
  const char* transport = "";      // "mpi" or "in-process"
  int rank = 0, ranks = 1;         // this rank, of how many
};

class DistributedExplorer {
 public:
  DistributedExplorer(TransitionSystem& sys, Transport& net, DistributedOptions opts);
  ~DistributedExplorer();
  DistributedExplorer(const DistributedExplorer&) = delete;
  DistributedExplorer& operator=(const DistributedExplorer&) = delete;

  // A slice of work: the messages that arrived, then some expansions. False once this rank is
  // done; idle() tells whether the slice found nothing to do (then wait for a message).
  bool step();
  bool idle() const;
  // Steps until done, waiting on the transport when idle.
  DistributedResult run();
  DistributedResult result() const;  // once step() returned false

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// K ranks in this process over a LocalNetwork, stepped in turn by this thread (tests, and
// --distributed without mpirun): one TransitionSystem per rank, rank 0's result. With one rank,
// opts.budget is its budget; with more, each has its own, with the limits and the interrupt flag
// of opts.budget (or opts.limits).
DistributedResult exploreInProcess(const std::vector<TransitionSystem*>& systems,
                                   const DistributedOptions& opts);

}  // namespace tandem::search
