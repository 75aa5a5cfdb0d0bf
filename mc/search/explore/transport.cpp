#include "mc/search/explore/transport.h"

namespace tandem::search {

class LocalNetwork::End final : public Transport {
 public:
  End(LocalNetwork& net, int rank) : net_(net), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(net_.inboxes_.size()); }
  void send(int to, std::string bytes) override {
    net_.inboxes_[static_cast<size_t>(to)].push_back({rank_, std::move(bytes)});
  }
  std::optional<Message> receive() override {
    auto& in = net_.inboxes_[static_cast<size_t>(rank_)];
    if (in.empty()) return std::nullopt;
    Message m = std::move(in.front());
    in.pop_front();
    return m;
  }
  void wait() override {}  // the thread steps the other ranks next
  const char* kind() const override { return "in-process"; }

 private:
  LocalNetwork& net_;
  int rank_;
};

LocalNetwork::LocalNetwork(int ranks) : inboxes_(static_cast<size_t>(ranks)) {
  for (int r = 0; r < ranks; ++r) ends_.push_back(std::make_unique<End>(*this, r));
}
LocalNetwork::~LocalNetwork() = default;

Transport& LocalNetwork::rank(int r) { return *ends_[static_cast<size_t>(r)]; }

}  // namespace tandem::search
