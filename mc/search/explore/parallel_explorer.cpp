#include "mc/search/explore/parallel_explorer.h"

#include "mc/search/stores/bitstate_store.h"
#include "mc/search/stores/hash_compaction_store.h"
#include "mc/search/stores/tree_store.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace tandem::search {

namespace {
// A state on a stack: its key in the store or, with a lossy store (which cannot give states
// back), where its bytes are in the stack's byte buffer (key.id the offset, key.aux the length;
// the buffer holds the entries' bytes in the entries' order, as SPIN's pan keeps its stack).
struct Entry {
  StateKey key;
  uint32_t depth;
};
// The path from an initial state to the state being expanded, for a store without parents:
// keys for a store that gives states back (tree), the states themselves for a lossy store.
struct Path {
  std::vector<StateKey> keys;
  std::vector<std::string> states;  // the first `size`; those beyond keep their buffers
  size_t size = 0;
  // `e`, just popped, becomes the last state of the path: path[d] is the state last expanded
  // at depth d. A lossy store's entry takes its bytes from the end of `stackBytes`.
  void push(const Entry& e, std::string& stackBytes, bool lossy) {
    if (!lossy) {
      keys.resize(e.depth);
      keys.push_back(e.key);
      return;
    }
    if (states.size() <= e.depth) states.resize(e.depth + 1);
    states[e.depth].assign(stackBytes, e.key.id, e.key.aux);
    stackBytes.resize(e.key.id);
    size = e.depth + 1;
  }
  Path prefix(size_t depth) const {
    Path p;
    p.keys.assign(keys.begin(),
                  keys.begin() + static_cast<ptrdiff_t>(std::min(depth, keys.size())));
    p.size = std::min(depth, size);
    p.states.assign(states.begin(), states.begin() + static_cast<ptrdiff_t>(p.size));
    return p;
  }
};
// Work handed to a worker that ran dry: entries of another worker's stack (with their bytes, for
// a lossy store) and, for a store without parents, the path from an initial state to them (the
// donor's path up to the deepest entry handed over).
struct Work {
  Path path;
  std::vector<Entry> entries;
  std::string bytes;
};
constexpr size_t kBfsBlock = 64;  // level entries a worker takes at once
}  // namespace

// The state shared by the workers of one run, and the workers' loops.
class ParallelExplorer::Run {
 public:
  Run(const ParallelOptions& o, std::unique_ptr<VisitedSet> visited)
      : opts(o), owned(std::move(visited)), store(*owned), lossy(!store.keepsStates()) {}

  const ParallelOptions& opts;
  std::unique_ptr<VisitedSet> owned;
  VisitedSet& store;
  const bool lossy;  // the stacks and paths hold the states' bytes
  std::atomic<bool> stop{false};
  std::atomic<bool> memoryFull{false}, boundHit{false};
  // --max-states: tickets of states stored or being stored (never more than the bound), and
  // the states stored (the bound is hit when they reach it).
  std::atomic<uint64_t> reserved{0}, stored{0};

  // The first error (or deadlock) and the first reason for incompleteness.
  std::mutex resultMutex;
  std::optional<Outcome> ended;
  std::optional<FoundError> error;
  StateKey errorSource = kNoKey;
  Path errorPath;  // a store without parents: the path, the source last
  std::string why;
  std::exception_ptr failure;  // an exception in a worker, rethrown by run()

  // dfs work sharing.
  std::mutex poolMutex;
  std::condition_variable poolCv;
  std::vector<Work> pool;
  unsigned idle = 0, running = 1;
  bool done = false;
  std::atomic<unsigned> hungry{0};

  // One worker: its transition system, its counters, and the sink its successors arrive at.
  class Worker final : public SuccessorSink {
   public:
    Worker(Run& run, unsigned id, std::unique_ptr<TransitionSystem> sys)
        : run_(run), id_(id), sys_(std::move(sys)) {
      may_ = [this](size_t bytes) { return run_.mayAllocate(bytes); };
      if (run_.opts.reducer) reducer_ = run_.opts.reducer();
    }

    // Inserts the initial states (worker 0, before the search).
    void initial(std::vector<Entry>& out) {
      from(kNoKey, 0);
      if (!run_.store.enter(id_, may_)) return full();
      sys_->initialStates(*this);
      flush(out);
      run_.store.leave(id_);
      if (err_) run_.found(Outcome::ErrorFound, std::move(err_), kNoKey, nullptr);
      // An initial value it cannot enumerate (an f64 or ref input) leaves the search incomplete.
      if (!why_.empty()) run_.incomplete(std::move(why_));
      why_.clear();
    }
    // Expands one entry; its new successors go to `out` (and their bytes to outBytes, for a
    // lossy store). `path`: for a store without parents, the path from an initial state to e
    // (e last).
    void expand(const Entry& e, std::vector<Entry>& out, const Path* path) {
      if (run_.opts.budget->depthExceeded(e.depth)) {
        ++depthCuts;
        return;
      }
      const std::string_view state =
          run_.lossy ? std::string_view(path->states[e.depth]) : run_.store.get(id_, e.key);
      from(e.key, e.depth);
      if (!run_.store.enter(id_, may_)) return full();
      const bool moved = sys_->successors(state, *this);
      if (reducer_ && !err_) {
        run_.store.markExpanded(e.key);  // before looking at the successors' marks
        ++(reduce(state) ? porReduced : porFull);
      }
      flush(out);
      run_.store.leave(id_);
      if (!run_.store.growIfDue(id_, may_)) full();
      if (err_)
        run_.found(Outcome::ErrorFound, std::move(err_), e.key, path);
      else if (run_.opts.deadlock && deadlocked(*sys_, state, moved))
        run_.found(Outcome::Deadlock, std::nullopt, e.key, path);
      if (!why_.empty()) run_.incomplete(std::move(why_));
      why_.clear();
    }

    void successor(std::string_view state, const Move& m) override {
      if (err_ || run_.boundHit.load(std::memory_order_relaxed)) return;
      const uint64_t h = StateStore::hash(state);
      run_.store.prefetch(h);
      pending_.push_back({bytes_.size(), state.size(), h});
      bytes_.append(state);
      if (reducer_) porMoves_.push_back(PorMove::of(m));
    }
    void error(const FoundError& e) override {
      if (!err_) err_ = e;  // the successors before it are inserted by flush, as sequentially
    }
    void incomplete(const std::string& reason) override {
      if (why_.empty()) why_ = reason;
    }

    uint64_t transitions = 0, matched = 0, maxDepth = 0, depthCuts = 0;
    uint64_t porReduced = 0, porFull = 0;  // --por: states expanded with a reduction, without
    std::string outBytes;  // a lossy store: the bytes of the entries expand() put out

   private:
    struct Pending {
      size_t at, size;
      uint64_t hash;
    };
    void from(StateKey parent, uint32_t depth) {
      parent_ = parent;
      depth_ = depth;
    }
    void full() {
      run_.memoryFull.store(true);
      run_.halt();
    }
    // --por: keeps in keep_ the successors of a stubborn set (por_reducer.h).
    bool reduce(std::string_view state) {
      if (pending_.size() < 2) return false;
      return reducer_->selectAt(
          *sys_, state, porMoves_,
          [&](size_t i) {
            const Pending& p = pending_[i];
            return run_.store.isExpanded(std::string_view(bytes_).substr(p.at, p.size), p.hash);
          },
          keep_);
    }
    void flush(std::vector<Entry>& out) {
      if (pending_.size() > 1)
        for (const Pending& p : pending_) run_.store.prefetchState(p.hash);
      for (size_t i = 0; i < pending_.size(); ++i) {
        if (run_.boundHit.load(std::memory_order_relaxed)) break;
        if (!keep_.empty() && !keep_[i]) continue;  // dropped by the reduction
        const Pending& p = pending_[i];
        insert(std::string_view(bytes_).substr(p.at, p.size), p.hash, out);
      }
      pending_.clear();
      bytes_.clear();
      keep_.clear();
      porMoves_.clear();
    }
    // --max-states: a ticket for one more state, so that no more than the bound are stored.
    // Without one, the bound is hit only once the states stored reach it: tickets of other
    // workers' inserts may still come back (their state was stored already).
    bool reserve(uint64_t limit) {
      for (unsigned rounds = 0;; ++rounds) {
        if (run_.reserved.fetch_add(1) < limit) return true;
        run_.reserved.fetch_sub(1);
        if (run_.stopped()) return false;
        if (run_.stored.load() >= limit) {
          run_.boundHit.store(true);
          run_.halt();
          return false;
        }
        if (rounds > 64) std::this_thread::yield();
      }
    }
    void insert(std::string_view state, uint64_t hash, std::vector<Entry>& out) {
      const auto& limit = run_.opts.budget->limits().maxStates;
      if (limit && !reserve(*limit)) return;
      if (parent_ != kNoKey) ++transitions;
      const auto ins = run_.store.insert(id_, state, hash, parent_);
      if (!ins.isNew) {
        if (limit) run_.reserved.fetch_sub(1);
        ++matched;
        return;
      }
      const uint32_t d = parent_ == kNoKey ? 0 : depth_ + 1;
      maxDepth = std::max<uint64_t>(maxDepth, d);
      if (run_.lossy) {
        out.push_back({{outBytes.size(), static_cast<uint32_t>(state.size())}, d});
        outBytes.append(state);
      } else {
        out.push_back({ins.key, d});
      }
      if (limit && run_.stored.fetch_add(1) + 1 >= *limit) {  // reached, as chargeState says
        run_.boundHit.store(true);
        run_.halt();
      }
    }

    Run& run_;
    unsigned id_;
    std::unique_ptr<TransitionSystem> sys_;
    VisitedSet::MayAllocate may_;  // the memory check of a table's growth (thread-safe)
    StateKey parent_ = kNoKey;
    uint32_t depth_ = 0;
    std::vector<Pending> pending_;
    std::string bytes_;
    std::optional<FoundError> err_;
    std::string why_;
    std::unique_ptr<SuccessorReducer> reducer_;  // --por
    std::vector<PorMove> porMoves_;              // --por: the moves of pending_
    std::vector<char> keep_;                     // --por: which of pending_ to insert
  };

  std::vector<std::unique_ptr<Worker>> workers;  // made by run() before any thread starts

  bool mayAllocate(size_t bytes) const {
    const auto& mb = opts.budget->limits().memoryLimitMb;
    return !mb || currentRssMb() + bytes / (1024 * 1024) < *mb;
  }
  void halt() {
    stop.store(true);
    std::lock_guard lock(poolMutex);
    poolCv.notify_all();
  }
  void found(Outcome o, std::optional<FoundError> e, StateKey source, const Path* path) {
    {
      std::lock_guard lock(resultMutex);
      if (ended) return;
      ended = o;
      error = std::move(e);
      errorSource = source;
      if (path) errorPath = *path;
    }
    halt();
  }
  void incomplete(std::string reason) {
    std::lock_guard lock(resultMutex);
    if (why.empty()) why = std::move(reason);
  }
  bool stopped() const { return stop.load(std::memory_order_relaxed); }

  // The leader's share of the run: the budget and the progress line.
  void poll() {
    if (opts.budget->poll()) halt();
    if (opts.progress)
      opts.progress->tick([&] {
        return ProgressSample{store.size(), "states", std::to_string(running) + " workers"};
      });
  }

  // ---- dfs ----
  // `path` (a store without parents): path[d] is the state last expanded at depth d. Every
  // entry on the stack at depth d then has path[0..d-1] as its ancestors: its parent was
  // expanded at d - 1, and no other state of depth d - 1 is expanded before the entry is popped.
  void dfs(unsigned w, Work work, const std::function<void()>& startOthers) {
    Worker& me = *workers[w];
    const bool paths = !store.hasParents();
    std::vector<Entry> stack = std::move(work.entries), out;
    Path path = std::move(work.path);
    std::string stackBytes = std::move(work.bytes);  // a lossy store: the stack's states
    bool othersStarted = !startOthers;
    for (;;) {
      if (w == 0) poll();
      if (stopped()) return;
      if (stack.empty() && !take(w, stack, path, stackBytes)) return;
      if (stack.empty()) continue;
      const Entry e = stack.back();
      stack.pop_back();
      if (paths) path.push(e, stackBytes, lossy);
      out.clear();
      me.expand(e, out, paths ? &path : nullptr);
      if (lossy) {
        for (Entry& x : out) x.key.id += stackBytes.size();
        stackBytes += me.outBytes;
        me.outBytes.clear();
      }
      stack.insert(stack.end(), out.begin(), out.end());
      // The leader starts the others once; size() sums every worker's counter (cache lines
      // the others write), so it is not asked again.
      if (!othersStarted && store.size() >= opts.shareAfter) {
        startOthers();
        othersStarted = true;
      }
      if (hungry.load(std::memory_order_relaxed) > 0 && stack.size() > 1)
        share(stack, path, stackBytes);
    }
  }
  // Gives the older half of `stack` (the states nearest the root: the largest subtrees), with
  // their bytes (a lossy store) and the path to them when the store keeps no parents.
  void share(std::vector<Entry>& stack, const Path& path, std::string& stackBytes) {
    const size_t half = stack.size() / 2;
    Work work;
    work.entries.assign(stack.begin(), stack.begin() + static_cast<ptrdiff_t>(half));
    if (!store.hasParents()) work.path = path.prefix(work.entries.back().depth);
    stack.erase(stack.begin(), stack.begin() + static_cast<ptrdiff_t>(half));
    if (lossy) {  // the entries given away own the front of the bytes
      const uint64_t cut = stack.front().key.id;
      work.bytes.assign(stackBytes, 0, cut);
      stackBytes.erase(0, cut);
      for (Entry& x : stack) x.key.id -= cut;
    }
    std::lock_guard lock(poolMutex);
    pool.push_back(std::move(work));
    poolCv.notify_one();
  }
  // Waits for shared work; false when the run is over (every worker waits, or it stopped).
  bool take(unsigned w, std::vector<Entry>& stack, Path& path, std::string& stackBytes) {
    std::unique_lock lock(poolMutex);
    ++idle;
    hungry.fetch_add(1);
    for (;;) {
      if (!pool.empty()) {
        stack = std::move(pool.back().entries);
        path = std::move(pool.back().path);
        stackBytes = std::move(pool.back().bytes);
        pool.pop_back();
        break;
      }
      if (done || stopped()) break;
      if (idle == running) {  // nobody holds work and nothing is shared: the end
        done = true;
        poolCv.notify_all();
        break;
      }
      if (w == 0) {  // the leader keeps polling the budget while it waits
        poolCv.wait_for(lock, std::chrono::milliseconds(10));
        lock.unlock();
        poll();
        lock.lock();
      } else {
        poolCv.wait(lock);
      }
    }
    --idle;
    hungry.fetch_sub(1);
    return !stack.empty();
  }

  // ---- bfs ----
  struct Level {
    std::vector<Entry> entries;
    std::atomic<size_t> cursor{0};
    std::vector<std::vector<Entry>> next;
    bool last = false;  // the workers leave
  };
  void bfsBlocks(unsigned w, Level& level) {
    Worker& me = *workers[w];
    for (;;) {
      if (w == 0) poll();
      if (stopped()) return;
      const size_t at = level.cursor.fetch_add(kBfsBlock);
      if (at >= level.entries.size()) return;
      const size_t end = std::min(level.entries.size(), at + kBfsBlock);
      for (size_t i = at; i < end && !stopped(); ++i) {
        if (w == 0) poll();
        me.expand(level.entries[i], level.next[w], nullptr);
      }
    }
  }
};

ParallelExplorer::ParallelExplorer(SystemFactory make, ParallelOptions opts)
    : make_(std::move(make)), opts_(opts) {}
ParallelExplorer::~ParallelExplorer() = default;

ExploreResult ParallelExplorer::run() {
  Budget& budget = *opts_.budget;
  const double start = budget.elapsed();
  const unsigned n = std::max(1u, opts_.threads);
  std::unique_ptr<VisitedSet> visited;
  if (opts_.store == StoreKind::Tree)
    visited = std::make_unique<TreeStore>(n);
  else if (opts_.store == StoreKind::HashCompaction)
    visited = std::make_unique<HashCompactionStore>(n);
  else if (opts_.store == StoreKind::Bitstate)
    visited = std::make_unique<BitstateStore>(n, opts_.bitstateBits);
  else
    visited = std::make_unique<SharedStateStore>(n);
  if (opts_.search == Strategy::Bfs && !visited->hasParents())
    throw std::invalid_argument("a store without parents searches depth-first");
  if (opts_.reducer && !visited->marksExpanded())
    throw std::invalid_argument("partial-order reduction needs a store with expanded marks");
  Run run(opts_, std::move(visited));
  for (unsigned w = 0; w < n; ++w)
    run.workers.push_back(std::make_unique<Run::Worker>(run, w, make_()));
  std::vector<Entry> initial;
  run.workers[0]->initial(initial);

  std::vector<std::thread> threads;
  auto guarded = [&run](auto&& body) {
    try {
      body();
    } catch (...) {
      {
        std::lock_guard lock(run.resultMutex);
        if (!run.failure) run.failure = std::current_exception();
      }
      run.halt();
    }
  };

  if (opts_.search == Strategy::Bfs) {
    Run::Level level;
    level.entries = std::move(initial);
    level.next.resize(n);
    bool parallel = false;
    std::barrier sync(static_cast<std::ptrdiff_t>(n));
    // Every worker passes both barriers of every level, whatever happens inside it.
    auto helper = [&](unsigned w) {
      for (;;) {
        sync.arrive_and_wait();  // a level is ready (or the run is over)
        if (level.last) return;
        guarded([&] { run.bfsBlocks(w, level); });
        sync.arrive_and_wait();
      }
    };
    while (!level.entries.empty() && !run.stopped()) {
      if (!parallel && n > 1 && run.store.size() >= opts_.shareAfter) {
        parallel = true;
        started_ = n;
        run.running = n;
        for (unsigned w = 1; w < n; ++w) threads.emplace_back(helper, w);
      }
      level.cursor = 0;
      if (parallel) sync.arrive_and_wait();
      guarded([&] { run.bfsBlocks(0, level); });
      if (parallel) sync.arrive_and_wait();
      level.entries.clear();
      guarded([&] {
        for (auto& part : level.next) {
          level.entries.insert(level.entries.end(), part.begin(), part.end());
          part.clear();
        }
      });
    }
    if (parallel) {
      level.last = true;
      sync.arrive_and_wait();
    }
    // The helpers read `sync` and `level` until they return: join them before both go.
    for (auto& t : threads) t.join();
    threads.clear();
  } else {
    bool othersStarted = n == 1;
    std::function<void()> startOthers = [&] {
      if (othersStarted) return;
      othersStarted = true;
      {
        std::lock_guard lock(run.poolMutex);
        run.running = n;
      }
      started_ = n;
      for (unsigned w = 1; w < n; ++w)
        threads.emplace_back([&, w] { guarded([&] { run.dfs(w, Work{}, nullptr); }); });
    };
    Work first{{}, std::move(initial), std::move(run.workers[0]->outBytes)};
    guarded([&] { run.dfs(0, std::move(first), startOthers); });
    run.halt();  // the leader is done: wake the workers that wait for work
  }
  for (auto& t : threads) t.join();
  if (run.failure) std::rethrow_exception(run.failure);

  ExploreResult res;
  for (const auto& w : run.workers) {
    res.transitions += w->transitions;
    res.matched += w->matched;
    res.porReduced += w->porReduced;
    res.porFull += w->porFull;
    res.maxDepth = std::max(res.maxDepth, w->maxDepth);
  }
  uint64_t depthCuts = 0;
  for (const auto& w : run.workers) depthCuts += w->depthCuts;
  res.states = run.store.size();
  budget.chargeState(res.states);
  res.seconds = budget.elapsed() - start;
  res.storeBytes = run.store.memoryBytes();
  res.storeMemory = run.store.memory();
  res.peakRssMb = peakRssMb();
  res.omission = run.store.omission();
  if (run.ended) {
    res.outcome = *run.ended;
    res.error = run.error;
    if (run.lossy) {  // the path holds the states themselves
      errorPath_.assign(run.errorPath.states.begin(),
                        run.errorPath.states.begin() + static_cast<ptrdiff_t>(run.errorPath.size));
      return res;
    }
    std::vector<StateKey> keys = run.errorPath.keys;  // the workers are done: worker 0 decodes
    if (run.store.hasParents()) {
      for (StateKey k = run.errorSource; k != kNoKey; k = run.store.parent(k)) keys.push_back(k);
      std::reverse(keys.begin(), keys.end());
    }
    for (const StateKey& k : keys) errorPath_.emplace_back(run.store.get(0, k));
    return res;
  }
  res.outcome = Outcome::Incomplete;
  if (run.memoryFull) {
    if (!budget.stopped()) budget.stop(StopKind::Memory);
  } else if (run.boundHit && !budget.stopped()) {
    budget.stop(StopKind::States);
  }
  if (budget.stopped()) {
    res.reason = budget.stopped()->reason;
  } else if (depthCuts) {
    res.reason = depthBoundReason(*budget.limits().maxDepth);
  } else if (!run.why.empty()) {
    res.reason = run.why;
  } else {
    res.outcome = Outcome::Exhausted;
  }
  return res;
}

}  // namespace tandem::search
