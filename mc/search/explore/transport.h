// How the ranks of a distributed search talk: asynchronous messages of bytes between numbered
// ranks, delivered in the order sent between any two ranks. Two implementations: MPI
// (mpi_transport.h, when built with MPI) and LocalNetwork below, K ranks inside one process for
// tests and for --distributed without mpirun. No MPI in this header.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tandem::search {

struct Message {
  int from = 0;
  std::string bytes;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Queues `bytes` for rank `to` and returns at once.
  virtual void send(int to, std::string bytes) = 0;
  // A message that has arrived, without waiting.
  virtual std::optional<Message> receive() = 0;
  // This rank has nothing to do until a message arrives: yield the processor for a moment.
  virtual void wait() = 0;
  // This rank failed (an exception) and cannot follow the protocol any more: end every rank
  // rather than leave them waiting for it (MPI_Abort; nothing in-process).
  virtual void abort() {}
  // What carries the messages, for reports: "mpi" or "in-process".
  virtual const char* kind() const = 0;
};

// K ranks in one process, stepped in turn by one thread (tests; one rank without mpirun).
class LocalNetwork {
 public:
  explicit LocalNetwork(int ranks);
  ~LocalNetwork();
  Transport& rank(int r);

 private:
  class End;
  std::vector<std::deque<Message>> inboxes_;
  std::vector<std::unique_ptr<End>> ends_;
};

}  // namespace tandem::search
