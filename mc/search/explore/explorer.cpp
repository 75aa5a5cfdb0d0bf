#include "mc/search/explore/explorer.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

#include "mc/search/driver/driver.h"
#include "mc/search/por/por_reducer.h"

namespace tandem::search {

namespace {

// Inserts successors into the store, and remembers the first error and the first reason for
// incompleteness. The successors of one state are hashed and their table slots prefetched as they
// arrive, then inserted together by flush() (in arrival order, exactly as if inserted one by one):
// the cache misses of the lookups overlap instead of stalling one after another. The buffers are
// reused, so there is no allocation per state.
class InsertingSink final : public SuccessorSink {
 public:
  InsertingSink(StateStore& store, Searcher& searcher, ExploreResult& res, Budget& budget,
                size_t graphLimit, std::function<bool(std::string_view)> novel)
      : store_(store),
        searcher_(searcher),
        res_(res),
        budget_(budget),
        graphLimit_(graphLimit),
        novel_(std::move(novel)) {}

  void from(StateStore::Id parent, uint32_t depth) {
    parent_ = parent;
    depth_ = depth;
  }
  void successor(std::string_view state, const Move& m) override {
    if (err || boundHit) return;
    uint64_t h = StateStore::hash(state);
    store_.prefetch(h);
    pending_.push_back({bytes_.size(), state.size(), h});
    bytes_.append(state);
    if (graphLimit_ && store_.size() <= graphLimit_) moves_.push_back(m);
    if (porMoves_) porMoves_->push_back(PorMove::of(m));
  }
  // --por: keep the successors of a stubborn set of `state` (por_reducer.h); returns whether
  // some were dropped. `expanded`: by state id, whether it was expanded (the proviso).
  bool reduce(PorReducer& reducer, TransitionSystem& sys, std::string_view state,
              const std::vector<bool>& expanded) {
    if (pending_.size() < 2) return false;
    return reducer.selectAt(
        sys, state, *porMoves_,
        [&](size_t i) {
          const Pending& p = pending_[i];
          const auto id = store_.find(std::string_view(bytes_).substr(p.at, p.size), p.hash);
          return id != StateStore::kNoParent && id < expanded.size() && expanded[id];
        },
        keep_);
  }
  void recordPorMoves(std::vector<PorMove>* moves) { porMoves_ = moves; }
  void flush() {
    // A table that doubles allocates its new half at once: stop before, not after, the limit.
    if (const size_t grow = store_.growthBytes(pending_.size()); grow && !boundHit)
      boundHit = budget_.wouldExceedMemory(grow);
    if (pending_.size() > 1)
      for (const Pending& p : pending_) store_.prefetchState(p.hash);
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (boundHit) break;
      if (!keep_.empty() && !keep_[i]) continue;  // dropped by the reduction
      const Pending& p = pending_[i];
      insert(std::string_view(bytes_).substr(p.at, p.size), p.hash,
             i < moves_.size() ? &moves_[i] : nullptr);
    }
    pending_.clear();
    bytes_.clear();
    moves_.clear();
    keep_.clear();
    if (porMoves_) porMoves_->clear();
  }
  void error(const FoundError& e) override {
    flush();  // the successors reported before the error count, as when inserted at once
    if (!err) err = e;
  }
  void incomplete(const std::string& reason) override {
    if (why.empty()) why = reason;
  }
  std::optional<FoundError> err;
  std::string why;
  bool boundHit = false;

 private:
  struct Pending {
    size_t at, size;
    uint64_t hash;
  };
  void insert(std::string_view state, uint64_t hash, const Move* move) {
    if (parent_ != StateStore::kNoParent) ++res_.transitions;
    auto ins = store_.insert(state, parent_, hash);
    if (move && parent_ != StateStore::kNoParent && store_.size() <= graphLimit_)
      res_.graph.push_back({parent_, ins.id, *move});
    if (!ins.isNew) {
      ++res_.matched;
      return;
    }
    uint32_t d = parent_ == StateStore::kNoParent ? 0 : depth_ + 1;
    res_.maxDepth = std::max<uint64_t>(res_.maxDepth, d);
    searcher_.add({ins.id, d, novel_(state)});
    if (budget_.chargeState()) boundHit = true;
  }

  StateStore& store_;
  Searcher& searcher_;
  ExploreResult& res_;
  Budget& budget_;
  size_t graphLimit_;
  std::function<bool(std::string_view)> novel_;
  StateStore::Id parent_ = StateStore::kNoParent;
  uint32_t depth_ = 0;
  std::vector<Pending> pending_;
  std::string bytes_;
  std::vector<Move> moves_;  // --dot: the moves of pending_, while the graph is recorded
  std::vector<PorMove>* porMoves_ = nullptr;  // --por: the moves of pending_
  std::vector<char> keep_;                    // --por: which of pending_ to insert
};

// One expansion: the successors of a stored state, an error, or a deadlock.
class ExplicitVisitor final : public SearchVisitor {
 public:
  ExplicitVisitor(TransitionSystem& sys, const StateStore& store, InsertingSink& sink,
                  ExploreResult& res, bool deadlock, PorReducer* por)
      : sys_(sys), store_(store), sink_(sink), res_(res), deadlock_(deadlock), por_(por) {}

  void expand(const FrontierEntry& e) override {
    std::string_view state = store_.get(e.id);  // arena memory never moves
    sink_.from(e.id, e.depth);
    const bool moved = sys_.successors(state, sink_);
    if (por_ && !sink_.err) {
      if (expanded_.size() <= e.id) expanded_.resize(std::max<size_t>(e.id + 1, store_.size()));
      expanded_[e.id] = true;
      ++(sink_.reduce(*por_, sys_, state, expanded_) ? res_.porReduced : res_.porFull);
    }
    sink_.flush();
    if (sink_.err) {
      res_.errorSource = e.id;
      ended = Outcome::ErrorFound;
    } else if (deadlock_ && deadlocked(sys_, state, moved)) {
      res_.errorSource = e.id;
      ended = Outcome::Deadlock;
    }
  }
  bool finished() const override { return ended.has_value(); }
  ProgressSample progress() const override {
    return {
        store_.size(), "states",
        std::to_string(res_.transitions) + " transitions, depth " + std::to_string(res_.maxDepth)};
  }

  std::optional<Outcome> ended;

 private:
  TransitionSystem& sys_;
  const StateStore& store_;
  InsertingSink& sink_;
  ExploreResult& res_;
  bool deadlock_;
  PorReducer* por_;
  std::vector<bool> expanded_;  // --por: by state id
};

}  // namespace

ExploreResult Explorer::run() {
  std::unique_ptr<Budget> own;
  Budget& budget = opts_.budget ? *opts_.budget : *(own = std::make_unique<Budget>(opts_.limits));
  const double start = budget.elapsed();
  std::unique_ptr<Progress> quiet;
  Progress& progress =
      opts_.progress ? *opts_.progress : *(quiet = std::make_unique<Progress>(nullptr, budget));
  ExploreResult res;
  auto searcher = makeSearcher(opts_.search, opts_.seed);
  std::set<ir::LocId> seenLocs;
  std::vector<ir::LocId> locs;
  const bool coverage = usesNovelty(opts_.search);
  auto novel = [&](std::string_view s) {
    if (!coverage) return false;
    sys_.locations(s, locs);
    bool any = false;
    for (auto l : locs) any = seenLocs.insert(l).second || any;
    return any;
  };
  auto finish = [&](Outcome o) {
    res.outcome = o;
    res.states = store_.size();
    res.seconds = budget.elapsed() - start;
    res.storeBytes = store_.memoryBytes();
    res.storeMemory = store_.memory();
    res.peakRssMb = peakRssMb();
    res.graphComplete = opts_.graphLimit > 0 && store_.size() <= opts_.graphLimit;
    return res;
  };

  InsertingSink sink(store_, *searcher, res, budget, opts_.graphLimit, novel);
  sink.from(StateStore::kNoParent, 0);
  sys_.initialStates(sink);
  sink.flush();
  if (sink.err) {
    res.error = sink.err;
    return finish(Outcome::ErrorFound);
  }
  std::unique_ptr<PorReducer> por;
  std::vector<PorMove> porMoves;
  if (opts_.por) {
    por = std::make_unique<PorReducer>(*opts_.por);
    sink.recordPorMoves(&porMoves);
  }
  ExplicitVisitor visitor(sys_, store_, sink, res, opts_.deadlock, por.get());
  const DriveResult d = drive(*searcher, budget, progress, visitor);
  if (visitor.ended) {
    if (*visitor.ended == Outcome::ErrorFound) res.error = sink.err;
    return finish(*visitor.ended);
  }
  if (d.end == DriveEnd::Stopped || sink.boundHit) {
    if (!budget.stopped()) budget.stop(StopKind::States);
    res.reason = budget.stopped()->reason;
    return finish(Outcome::Incomplete);
  }
  if (d.depthCuts) {
    res.reason = depthBoundReason(*budget.limits().maxDepth);
    return finish(Outcome::Incomplete);
  }
  if (!sink.why.empty()) {
    res.reason = sink.why;
    return finish(Outcome::Incomplete);
  }
  return finish(Outcome::Exhausted);
}

}  // namespace tandem::search
