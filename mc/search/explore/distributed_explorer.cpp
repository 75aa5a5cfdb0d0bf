#include "mc/search/explore/distributed_explorer.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "mc/search/explore/partition.h"
#include "mc/search/explore/termination.h"

namespace tandem::search {

namespace {

// The protocol. Exploring: Batch (states for their owner), Token (termination), Count (a rank's
// stored states, for --max-states over all ranks and rank 0's progress line). Ending: every rank
// sends End to every other once, when it stops exploring (rank 0 found termination, or a rank
// found an error or hit a bound, or received an End). Messages between two ranks arrive in
// order, so once a rank has every other rank's End no batch is in flight to it any more. Then
// each sends its Report to rank 0; rank 0 asks the owners for the error path (PathRequest,
// PathReply) and ends every rank with Bye.
enum class Kind : uint8_t { Batch = 1, Token, Count, End, Report, PathRequest, PathReply, Bye };

class Writer {
 public:
  explicit Writer(Kind k) { s_.push_back(static_cast<char>(k)); }
  template <typename T>
  Writer& put(T v) {
    s_.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  Writer& str(std::string_view v) {
    put(static_cast<uint32_t>(v.size()));
    s_.append(v);
    return *this;
  }
  std::string take() { return std::move(s_); }

 private:
  std::string s_;
};

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  Kind kind() const { return static_cast<Kind>(s_[0]); }
  bool done() const { return at_ >= s_.size(); }
  template <typename T>
  T get() {
    T v;
    if (at_ + sizeof v > s_.size()) throw std::runtime_error("distributed search: short message");
    std::memcpy(&v, s_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string_view str() {
    const auto n = get<uint32_t>();
    if (at_ + n > s_.size()) throw std::runtime_error("distributed search: short message");
    std::string_view v = s_.substr(at_, n);
    at_ += n;
    return v;
  }

 private:
  std::string_view s_;
  size_t at_ = 1;
};

enum class Found : uint8_t { None, Error, Deadlock };

// What a rank reports to rank 0 when it has stopped.
struct Summary {
  Found found = Found::None;
  StateStore::Id source = StateStore::kNoParent;  // the state the error was found from
  bool stopped = false;                           // a bound this rank hit, or an interrupt
  std::string stopReason;
  bool depthCuts = false;
  std::string why;  // what could not be explored (the search is incomplete)
  uint64_t states = 0, transitions = 0, matched = 0, maxDepth = 0, storeBytes = 0, peakRssMb = 0;
  uint64_t messages = 0, bytes = 0;
  StateStore::Memory memory;
  double seconds = 0;

  std::string encode() const {
    Writer w(Kind::Report);
    w.put(static_cast<uint8_t>(found)).put(source).put(static_cast<uint8_t>(stopped));
    w.str(stopReason).put(static_cast<uint8_t>(depthCuts)).str(why);
    for (uint64_t v :
         {states, transitions, matched, maxDepth, storeBytes, peakRssMb, messages, bytes,
          uint64_t{memory.stateBytes}, uint64_t{memory.recordBytes}, uint64_t{memory.tableBytes},
          uint64_t{memory.parentBytes}, uint64_t{memory.tableSlots}})
      w.put(v);
    w.put(seconds);
    return w.take();
  }
  static Summary decode(Reader& r) {
    Summary s;
    s.found = static_cast<Found>(r.get<uint8_t>());
    s.source = r.get<StateStore::Id>();
    s.stopped = r.get<uint8_t>() != 0;
    s.stopReason = r.str();
    s.depthCuts = r.get<uint8_t>() != 0;
    s.why = r.str();
    for (uint64_t* v : {&s.states, &s.transitions, &s.matched, &s.maxDepth, &s.storeBytes,
                        &s.peakRssMb, &s.messages, &s.bytes})
      *v = r.get<uint64_t>();
    for (size_t* v : {&s.memory.stateBytes, &s.memory.recordBytes, &s.memory.tableBytes,
                      &s.memory.parentBytes, &s.memory.tableSlots})
      *v = static_cast<size_t>(r.get<uint64_t>());
    s.seconds = r.get<double>();
    return s;
  }
};

// Rank 0 recovers the error of another rank by expanding its source state again: successors()
// is deterministic, and the first error it reports is the one that rank saw.
class FirstError final : public SuccessorSink {
 public:
  void successor(std::string_view, const Move&) override {}
  void error(const FoundError& e) override {
    if (!err) err = e;
  }
  void incomplete(const std::string&) override {}
  std::optional<FoundError> err;
};

}  // namespace

class DistributedExplorer::Impl final : public SuccessorSink {
 public:
  Impl(TransitionSystem& sys, Transport& net, DistributedOptions opts)
      : sys_(sys),
        net_(net),
        opts_(std::move(opts)),
        budget_(opts_.budget ? *opts_.budget
                             : *(ownBudget_ = std::make_unique<Budget>(opts_.limits))),
        me_(net.rank()),
        ranks_(net.size()),
        frontier_(makeSearcher(opts_.search, 0)),
        out_(static_cast<size_t>(ranks_)),
        term_(me_, ranks_),
        counts_(static_cast<size_t>(ranks_), 0),
        reports_(static_cast<size_t>(ranks_)) {
    if (ranks_ > UINT16_MAX) throw std::runtime_error("distributed search: too many ranks");
    start_ = budget_.elapsed();
    // --max-states over all ranks: each rank tells rank 0 its count this often (and whenever
    // it runs out of work); rank 0 stops every rank once the total reaches the bound. The ranks
    // go on while the counts and the End travel, so they may store more (docs/check.md).
    const uint64_t max = budget_.limits().maxStates.value_or(0);
    countEvery_ =
        max ? std::clamp<uint64_t>(max / (4 * static_cast<uint64_t>(ranks_)), 1, 4096) : 4096;
    // Every rank computes every initial state and keeps those it owns.
    parent_ = StateStore::kNoParent;
    childDepth_ = 0;
    sys_.initialStates(*this);
    insertPending(localBytes_);
    afterExpansion(StateStore::kNoParent, true, {});
  }

  bool step() {
    idle_ = true;
    for (int i = 0; i < 64 && phase_ != Phase::Done; ++i) {
      std::optional<Message> m = net_.receive();
      if (!m) break;
      idle_ = false;
      handle(*m);
    }
    switch (phase_) {
      case Phase::Explore:
        explore();
        break;
      case Phase::Drain:
        if (endsIn_ == ranks_ - 1) {
          report();
          idle_ = false;
        }
        break;
      case Phase::Serve:
        if (me_ == 0) conclude();
        break;
      case Phase::Done:
        break;
    }
    return phase_ != Phase::Done;
  }
  bool idle() const { return idle_; }
  void wait() { net_.wait(); }
  void abort() { net_.abort(); }
  DistributedResult result() const {
    DistributedResult r = result_;
    r.transport = net_.kind();
    r.rank = me_;
    r.ranks = ranks_;
    return r;
  }

  // The successors of the state being expanded (or the initial states).
  void successor(std::string_view state, const Move&) override {
    if (error_ || stopping_) return;
    if (parent_ != StateStore::kNoParent) ++transitions_;
    const uint64_t h = StateStore::hash(state);
    const int owner = ownerOf(h, ranks_);
    if (owner == me_) {
      store_.prefetch(h);
      pending_.push_back({localBytes_.size(), state.size(), h, parent_, me_, childDepth_});
      localBytes_.append(state);
    } else if (parent_ != StateStore::kNoParent) {  // the owner computes its initial states
      std::string& b = out_[static_cast<size_t>(owner)];
      if (b.empty()) b.push_back(static_cast<char>(Kind::Batch));
      // As Writer::put(parent).put(depth).str(state) writes it: the parent, the depth, the
      // length and the bytes.
      const uint32_t head[3] = {parent_, childDepth_, static_cast<uint32_t>(state.size())};
      b.append(reinterpret_cast<const char*>(head), sizeof head);
      b.append(state);
      if (b.size() >= opts_.batchBytes) flush(owner);
    }
  }
  void error(const FoundError& e) override {
    if (!error_) error_ = e;
  }
  void incomplete(const std::string& reason) override {
    if (own_.why.empty()) own_.why = reason;
  }

 private:
  enum class Phase : uint8_t { Explore, Drain, Serve, Done };

  void explore() {
    if (budget_.poll() || budget_.statesExhausted()) return stopOwn();
    if (!frontier_->empty()) {
      idle_ = false;
      for (int i = 0; i < 64 && phase_ == Phase::Explore && !frontier_->empty(); ++i) {
        if (i > 0 && budget_.poll()) return stopOwn();  // as often as Explorer's driver
        expandNext();
      }
      // Batches that fill slowly still go out now and then, or their owners could starve.
      if (phase_ == Phase::Explore && ++slices_ % 16 == 0) flushAll();
    }
    if (phase_ != Phase::Explore) return;
    // Passive only once nothing is left to send: the token must count every batch.
    if (frontier_->empty()) flushAll();
    tellCount();
    if (opts_.progress && me_ == 0)
      opts_.progress->tick([&] {
        return ProgressSample{totalCount(), "states",
                              std::to_string(ranks_) +
                                  " ranks, rank 0: " + std::to_string(store_.size()) + " states"};
      });
    if (!frontier_->empty()) return;
    Token t;
    switch (term_.passive(t)) {
      case Termination::Action::Forward:
        net_.send(term_.next(), Writer(Kind::Token).put(t.count).put(uint8_t{t.black}).take());
        break;
      case Termination::Action::Terminated:
        idle_ = false;
        enterEnd();
        break;
      case Termination::Action::None:
        break;
    }
  }

  void expandNext() {
    const FrontierEntry e = frontier_->next();
    if (budget_.depthExceeded(e.depth)) {
      own_.depthCuts = true;
      return;
    }
    const std::string_view state = store_.get(e.id);  // arena memory never moves
    parent_ = e.id;
    childDepth_ = e.depth + 1;
    const bool moved = sys_.successors(state, *this);
    insertPending(localBytes_);
    afterExpansion(e.id, moved, state);
  }

  // An error, a deadlock or a bound hit while expanding `source` ends the search.
  void afterExpansion(StateStore::Id source, bool moved, std::string_view state) {
    if (error_) {
      own_.found = Found::Error;
      own_.source = source;
      enterEnd();
    } else if (source != StateStore::kNoParent && opts_.deadlock &&
               deadlocked(sys_, state, moved)) {
      own_.found = Found::Deadlock;
      own_.source = source;
      enterEnd();
    } else if (stopping_) {
      stopOwn();
    }
  }

  // The states of one expansion (or one batch) are hashed and their table slots prefetched as
  // they come, then inserted together in order, as Explorer does: the cache misses of their
  // lookups overlap instead of stalling one after another.
  struct Pending {
    size_t at, size;
    uint64_t hash;
    StateStore::Id parent;
    int parentRank;
    uint32_t depth;
  };
  void insertPending(std::string_view bytes) {
    if (pending_.size() > 1)
      for (const Pending& p : pending_) store_.prefetchState(p.hash);
    for (const Pending& p : pending_) {
      if (stopping_) break;
      insert(bytes.substr(p.at, p.size), p.hash, p.parent, p.parentRank, p.depth);
    }
    pending_.clear();
    localBytes_.clear();
  }

  void insert(std::string_view state, uint64_t h, StateStore::Id parent, int parentRank,
              uint32_t depth) {
    // A table that doubles allocates its new half at once: stop before, not after, the limit.
    if (const size_t grow = store_.growthBytes(1); grow && budget_.wouldExceedMemory(grow)) {
      stopping_ = true;
      return;
    }
    const StateStore::Insert ins = store_.insert(state, parent, h);
    if (!ins.isNew) {
      ++matched_;
      return;
    }
    parentRank_.push_back(static_cast<uint16_t>(parentRank));
    maxDepth_ = std::max<uint64_t>(maxDepth_, depth);
    frontier_->add({ins.id, depth, false});
    if (budget_.chargeState()) stopping_ = true;
  }

  void flush(int to) {
    std::string& b = out_[static_cast<size_t>(to)];
    if (b.empty()) return;
    ++messages_;
    bytes_ += b.size();
    term_.sent();
    net_.send(to, std::move(b));
    b.clear();
  }
  void flushAll() {
    for (int r = 0; r < ranks_; ++r) flush(r);
  }

  // --max-states over all ranks, and rank 0's progress line.
  void tellCount() {
    if (store_.size() < lastCount_ + countEvery_ &&
        !(frontier_->empty() && store_.size() != lastCount_))
      return;
    lastCount_ = store_.size();
    if (me_ != 0) {
      net_.send(0, Writer(Kind::Count).put(uint64_t{lastCount_}).take());
      return;
    }
    counts_[0] = lastCount_;
    checkTotal();
  }
  uint64_t totalCount() const {
    uint64_t n = 0;
    for (uint64_t c : counts_) n += c;
    return n;
  }
  void checkTotal() {
    const auto& max = budget_.limits().maxStates;
    if (phase_ == Phase::Explore && max && totalCount() >= *max) {
      budget_.stop(StopKind::States);
      stopOwn();
    }
  }

  void stopOwn() {
    if (!budget_.stopped()) budget_.stop(StopKind::States);
    own_.stopped = true;
    own_.stopReason = budget_.stopped()->reason;
    enterEnd();
  }

  void enterEnd() {
    if (phase_ != Phase::Explore) return;
    phase_ = Phase::Drain;
    for (std::string& b : out_) b.clear();  // their owners stop too: not worth sending
    for (int r = 0; r < ranks_; ++r)
      if (r != me_) net_.send(r, Writer(Kind::End).take());
  }

  void handle(const Message& m) {
    Reader r(m.bytes);
    switch (r.kind()) {
      case Kind::Batch:
        if (phase_ != Phase::Explore) return;  // stopping: dropped
        term_.received();
        while (!r.done()) {
          const auto parent = r.get<StateStore::Id>();
          const auto depth = r.get<uint32_t>();
          const std::string_view state = r.str();
          const uint64_t h = StateStore::hash(state);
          store_.prefetch(h);
          pending_.push_back({static_cast<size_t>(state.data() - m.bytes.data()), state.size(), h,
                              parent, m.from, depth});
        }
        insertPending(m.bytes);
        if (stopping_) stopOwn();
        return;
      case Kind::Token: {
        if (phase_ != Phase::Explore) return;
        Token t;
        t.count = r.get<int64_t>();
        t.black = r.get<uint8_t>() != 0;
        term_.tokenArrived(t);
        return;
      }
      case Kind::Count:
        counts_[static_cast<size_t>(m.from)] = r.get<uint64_t>();
        checkTotal();
        return;
      case Kind::End:
        ++endsIn_;
        enterEnd();
        return;
      case Kind::Report:
        reports_[static_cast<size_t>(m.from)] = Summary::decode(r);
        return;
      case Kind::PathRequest:
        return replyPath(r.get<StateStore::Id>());
      case Kind::PathReply: {
        while (!r.done()) {
          const auto kind = r.get<uint8_t>();
          if (kind == 0) {  // a state of the path
            result_.path.emplace_back(r.str());
          } else {  // where the path goes on: (rank, id)
            walkRank_ = r.get<uint16_t>();
            walkId_ = r.get<StateStore::Id>();
          }
        }
        awaiting_ = false;
        return;
      }
      case Kind::Bye:
        phase_ = Phase::Done;
        return;
    }
  }

  // This rank's part of the error path from `id`: its states while the parents stay here, then
  // the reference to the next one elsewhere (or kNoParent at the initial state).
  void walk(StateStore::Id id, Writer& w) {
    for (;;) {
      w.put(uint8_t{0}).str(store_.get(id));
      const StateStore::Id parent = store_.parent(id);
      const int rank = parentRank_[id];
      if (parent == StateStore::kNoParent || rank != me_) {
        w.put(uint8_t{1}).put(static_cast<uint16_t>(rank)).put(parent);
        return;
      }
      id = parent;
    }
  }
  void replyPath(StateStore::Id id) {
    Writer w(Kind::PathReply);
    walk(id, w);
    net_.send(0, w.take());
  }

  Summary summary() {
    Summary s = own_;
    s.states = store_.size();
    s.transitions = transitions_;
    s.matched = matched_;
    s.maxDepth = maxDepth_;
    s.storeBytes = store_.memoryBytes();
    s.memory = store_.memory();
    s.peakRssMb = peakRssMb();
    s.messages = messages_;
    s.bytes = bytes_;
    s.seconds = budget_.elapsed() - start_;
    return s;
  }

  void report() {
    phase_ = Phase::Serve;
    if (me_ == 0)
      reports_[0] = summary();
    else
      net_.send(0, summary().encode());
  }

  // Rank 0, once every report is in: the outcome, the error path, then Bye.
  void conclude() {
    for (const auto& s : reports_)
      if (!s) return;
    if (!decided_) {
      decide();
      idle_ = false;
    }
    while (walking_ && !awaiting_) {
      idle_ = false;
      if (walkId_ == StateStore::kNoParent) {
        walking_ = false;
        std::reverse(result_.path.begin(), result_.path.end());
        break;
      }
      if (walkRank_ == 0) {
        Writer w(Kind::PathReply);  // the same walk as for another rank, read back at once
        walk(walkId_, w);
        handle({0, w.take()});
      } else {
        net_.send(walkRank_, Writer(Kind::PathRequest).put(walkId_).take());
        awaiting_ = true;
      }
    }
    if (walking_) return;
    ExploreResult& res = result_.result;
    if (res.outcome == Outcome::ErrorFound && !res.error) {
      if (result_.path.empty()) {
        res.error = error_;  // an initial state's error: every rank found it
      } else {
        FirstError again;
        sys_.successors(result_.path.back(), again);
        res.error = again.err;
      }
      if (!res.error) throw std::runtime_error("distributed search: the error did not recur");
    }
    for (int r = 1; r < ranks_; ++r) net_.send(r, Writer(Kind::Bye).take());
    phase_ = Phase::Done;
  }

  void decide() {
    decided_ = true;
    ExploreResult& res = result_.result;
    for (const auto& s : reports_) {
      res.states += s->states;
      res.transitions += s->transitions;
      res.matched += s->matched;
      res.maxDepth = std::max(res.maxDepth, s->maxDepth);
      res.storeBytes += s->storeBytes;
      res.peakRssMb = std::max(res.peakRssMb, s->peakRssMb);
      res.storeMemory.stateBytes += s->memory.stateBytes;
      res.storeMemory.recordBytes += s->memory.recordBytes;
      res.storeMemory.tableBytes += s->memory.tableBytes;
      res.storeMemory.parentBytes += s->memory.parentBytes;
      res.storeMemory.tableSlots += s->memory.tableSlots;
      result_.perRank.push_back(
          {s->states, s->transitions, s->messages, s->bytes, s->peakRssMb, s->seconds});
    }
    res.seconds = budget_.elapsed() - start_;
    // The error of the lowest rank that found one; else the first bound a rank hit; else the
    // reasons the search is incomplete, as Explorer orders them.
    for (int r = 0; r < ranks_; ++r) {
      const Summary& s = *reports_[static_cast<size_t>(r)];
      if (s.found == Found::None) continue;
      res.outcome = s.found == Found::Error ? Outcome::ErrorFound : Outcome::Deadlock;
      walking_ = s.source != StateStore::kNoParent;
      walkRank_ = r;
      walkId_ = s.source;
      return;
    }
    const auto incomplete = [&](const std::string& reason) {
      res.outcome = Outcome::Incomplete;
      res.reason = reason;
    };
    for (const auto& s : reports_)
      if (s->stopped) return incomplete(s->stopReason);
    // Exhausted with --max-states stored or more: the bound was hit, as in Explorer.
    if (const auto& max = budget_.limits().maxStates; max && res.states >= *max)
      return incomplete(stateBoundReason(*max));
    for (const auto& s : reports_)
      if (s->depthCuts) return incomplete(depthBoundReason(*budget_.limits().maxDepth));
    for (const auto& s : reports_)
      if (!s->why.empty()) return incomplete(s->why);
    res.outcome = Outcome::Exhausted;
  }

  TransitionSystem& sys_;
  Transport& net_;
  DistributedOptions opts_;
  std::unique_ptr<Budget> ownBudget_;
  Budget& budget_;
  int me_, ranks_;
  StateStore store_;
  std::vector<uint16_t> parentRank_;  // by local id: the rank of the parent (id in store_)
  std::unique_ptr<Searcher> frontier_;
  std::vector<std::string> out_;  // by rank: the batch being filled
  std::vector<Pending> pending_;  // states to insert here, and the bytes of those of this rank
  std::string localBytes_;
  Termination term_;
  Phase phase_ = Phase::Explore;
  bool idle_ = false, stopping_ = false;
  double start_ = 0;
  uint64_t slices_ = 0;
  // The expansion in progress.
  StateStore::Id parent_ = StateStore::kNoParent;
  uint32_t childDepth_ = 0;
  std::optional<FoundError> error_;
  Summary own_;
  uint64_t transitions_ = 0, matched_ = 0, maxDepth_ = 0, messages_ = 0, bytes_ = 0;
  uint64_t countEvery_ = 4096, lastCount_ = 0;
  std::vector<uint64_t> counts_;  // rank 0: each rank's stored states, as last told
  int endsIn_ = 0;
  // Rank 0's conclusion.
  std::vector<std::optional<Summary>> reports_;
  bool decided_ = false, walking_ = false, awaiting_ = false;
  int walkRank_ = 0;
  StateStore::Id walkId_ = StateStore::kNoParent;
  DistributedResult result_;
};

DistributedExplorer::DistributedExplorer(TransitionSystem& sys, Transport& net,
                                         DistributedOptions opts)
    : impl_(std::make_unique<Impl>(sys, net, std::move(opts))) {}
DistributedExplorer::~DistributedExplorer() = default;
bool DistributedExplorer::step() { return impl_->step(); }
bool DistributedExplorer::idle() const { return impl_->idle(); }
DistributedResult DistributedExplorer::result() const { return impl_->result(); }

DistributedResult DistributedExplorer::run() {
  // An idle rank polls for messages a while before it yields the processor: replies on the
  // error path come back within microseconds.
  try {
    for (unsigned idleSlices = 0; step();)
      if (!idle())
        idleSlices = 0;
      else if (++idleSlices > 16)
        impl_->wait();
  } catch (...) {
    impl_->abort();
    throw;
  }
  return result();
}

DistributedResult exploreInProcess(const std::vector<TransitionSystem*>& systems,
                                   const DistributedOptions& opts) {
  LocalNetwork net(static_cast<int>(systems.size()));
  std::vector<std::unique_ptr<Budget>> budgets;
  std::vector<std::unique_ptr<DistributedExplorer>> ranks;
  for (size_t r = 0; r < systems.size(); ++r) {
    DistributedOptions o = opts;
    if (systems.size() > 1 && opts.budget) {  // a budget counts the states of its rank only
      budgets.push_back(
          std::make_unique<Budget>(opts.budget->limits(), opts.budget->interruptFlag()));
      o.budget = budgets.back().get();
    }
    if (r > 0) o.progress = nullptr;
    ranks.push_back(
        std::make_unique<DistributedExplorer>(*systems[r], net.rank(static_cast<int>(r)), o));
  }
  for (bool any = true; any;) {
    any = false;
    for (auto& r : ranks) any = r->step() || any;
  }
  return ranks.front()->result();
}

}  // namespace tandem::search
