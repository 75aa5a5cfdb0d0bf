#include "mc/search/explore/mpi_transport.h"

#include <cstdlib>

#ifdef TANDEM_HAVE_MPI
// The C API only: mpi.h would otherwise pull in the C++ bindings, which need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <list>
#include <stdexcept>
#include <thread>
#endif

namespace tandem::search {

bool launchedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

#ifndef TANDEM_HAVE_MPI

bool mpiBuiltIn() { return false; }
std::unique_ptr<Transport> openMpi() { return nullptr; }

#else

bool mpiBuiltIn() { return true; }

namespace {

// Sends are MPI_Isend from a buffer the transport keeps until MPI is done with it; receives
// probe for any source (MPI_Improbe/MPI_Mrecv, so the probed message is the one received).
// One tag on a communicator of our own: MPI keeps the messages between two ranks in order.
class MpiTransport final : public Transport {
 public:
  MpiTransport() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) throw std::runtime_error("MPI has finalised: one distributed run per process");
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      MPI_Init(nullptr, nullptr);
      owner_ = true;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiTransport() override {
    // The protocol receives every message it sends, so these complete.
    for (Pending& p : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    pending_.clear();
    MPI_Comm_free(&comm_);
    if (owner_) MPI_Finalize();
  }
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int to, std::string bytes) override {
    if (bytes.size() > static_cast<size_t>(INT32_MAX))
      throw std::runtime_error("distributed search: a message over 2 GiB");
    Pending& p = pending_.emplace_back();
    p.bytes = std::move(bytes);
    MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, to, kTag, comm_,
              &p.request);
    if (pending_.size() > 16) reap();
  }
  std::optional<Message> receive() override {
    int flag = 0;
    MPI_Message handle;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, kTag, comm_, &flag, &handle, &status);
    if (!flag) {
      reap();
      return std::nullopt;
    }
    int n = 0;
    MPI_Get_count(&status, MPI_BYTE, &n);
    Message m;
    m.from = status.MPI_SOURCE;
    m.bytes.resize(static_cast<size_t>(n));
    MPI_Mrecv(m.bytes.data(), n, MPI_BYTE, &handle, MPI_STATUS_IGNORE);
    return m;
  }
  void wait() override { std::this_thread::sleep_for(std::chrono::microseconds(50)); }
  void abort() override { MPI_Abort(comm_, 70); }
  const char* kind() const override { return "mpi"; }

 private:
  static constexpr int kTag = 1;
  struct Pending {
    std::string bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  // Frees the buffers of the sends MPI has completed.
  void reap() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : std::next(it);
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool owner_ = false;
  std::list<Pending> pending_;  // a list: the buffers must not move while MPI reads them
};

}  // namespace

std::unique_ptr<Transport> openMpi() { return std::make_unique<MpiTransport>(); }

#endif

}  // namespace tandem::search
