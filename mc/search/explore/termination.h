// Distributed termination detection for the distributed search: Safra's algorithm (EWD 998,
// the message-counting refinement of Dijkstra, Feijen and van Gasteren's token ring). A search
// is over when every rank is passive (nothing to expand, nothing buffered to send) and no batch
// of states is in flight; no rank can see both alone. Each rank counts the batches it sent minus
// those it received and turns black when it receives one; a token goes round the ring from rank
// 0, summing the counts and collecting blackness, passed on by each rank only while it is
// passive. When it comes back white to a white rank 0 with a total of 0, no batch was in flight
// and no rank was reactivated behind the token: the search is over. Otherwise rank 0 starts
// another round. Chosen over rounds of MPI_Allreduce because it needs only point-to-point
// messages: idle ranks never block in a collective while others still work, and the same code
// runs over the in-process transport of the unit tests. No MPI here.
#pragma once

#include <cstdint>
#include <optional>

namespace tandem::search {

struct Token {
  int64_t count = 0;
  bool black = false;
};

class Termination {
 public:
  Termination(int rank, int ranks) : rank_(rank), ranks_(ranks) {}
  void sent() { ++count_; }
  void received() {
    --count_;
    black_ = true;
  }
  void tokenArrived(Token t) { held_ = t; }

  enum class Action : uint8_t { None, Forward, Terminated };
  // Called while this rank is passive: whether to send `out` to next(), or the search is over
  // (rank 0 only).
  Action passive(Token& out);
  int next() const { return (rank_ + 1) % ranks_; }

 private:
  int rank_, ranks_;
  int64_t count_ = 0;  // batches sent minus batches received
  bool black_ = false;
  bool roundOut_ = false;      // rank 0: a token is going round
  std::optional<Token> held_;  // the token, while this rank holds it
};

}  // namespace tandem::search
