#include "fabricate/prover.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "fabricate/local_post.h"
#include "mc/expr/expr_walk.h"
#include "mc/search/driver/driver.h"
#include "mc/search/driver/searcher.h"
#include "mc/search/generic_system.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/fragments.h"
#include "mc/symbolic/model_state.h"

namespace tandem::fabricate {

namespace {

using abstraction::AbstractState;
using symbolic::FragmentBuilder;
using symbolic::FragmentEnd;
using symbolic::SymConfig;

exec::ExecError deadlockError() {
  return exec::ExecError{ir::ErrorKind::Deadlock, SourceLoc{}, "no process can move", false};
}

class Prover {
 public:
  Prover(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver, const ProveOptions& o)
      : p_(p),
        ev_(ev),
        solver_(solver),
        o_(o),
        abs_(p, ev, o.extraPredicates),
        sev_(p, ev),
        frag_(p, sev_, ir::computeCutpoints(p, o.cutpoints), o.tracked, o.classIndex),
        sys_(p, ev, executeOptions(p, o)),
        local_(p, abs_),
        ownBudget_(o.budget ? nullptr : std::make_unique<search::Budget>(o.limits)),
        budget_(o.budget ? *o.budget : *ownBudget_),
        quiet_(nullptr, budget_),
        progress_(o.progress ? *o.progress : quiet_) {}

  ProveResult run();
  std::string verify(const ProveResult& r);

 private:
  // The prestates of a location vector and their fragments, shared by every abstract state
  // there: the prestates' symbols are the same, only gamma (which truths) differs.
  struct Shape {
    std::vector<SymConfig> pres;
    std::vector<std::vector<FragmentEnd>> ends;               // per prestate
    std::vector<abstraction::Abstraction::Valuation> preVal;  // per prestate
    std::vector<std::vector<std::optional<abstraction::Abstraction::Valuation>>> postVal;  // lazy
  };
  struct Fragments {
    Shape* shape = nullptr;
    std::vector<std::vector<bool>> closed;
    std::vector<ExprRef> gammaPre;  // per prestate
    bool safetyDone = false;
    bool done = false;  // every end closed: the vectors above are freed
  };
  class Sink;
  class ExecVisitor;

  // Execute checks the initial states' invariants itself, with a node for the trace.
  static search::GenericOptions executeOptions(const ir::Program& p, const ProveOptions& o) {
    search::GenericOptions g = executionOptions(p, o);
    g.initialUnchecked = true;
    return g;
  }

  // A bound or an interrupt ends the run: the reason goes to cut_.
  bool outOfBudget() {
    if (stop_) return true;
    if (o_.maxAbstractStates && nodes_.size() > *o_.maxAbstractStates) {
      cut_ = "more than " + std::to_string(*o_.maxAbstractStates) + " abstract states";
      gaveUp_ = stop_ = true;
      return true;
    }
    if (!budget_.poll() && !budget_.statesExhausted()) return false;
    if (!budget_.stopped()) budget_.stop(search::StopKind::States);
    cut_ = budget_.stopped()->reason;
    stop_ = true;
    return true;
  }
  // --max-depth: abstract states this deep are kept but not expanded (the proof is then cut).
  bool tooDeep(uint32_t node) {
    if (!budget_.depthExceeded(nodes_[node].depth)) return false;
    depthCut_ = true;
    return true;
  }
  search::ProgressSample progressSample() const {
    return {nodes_.size(), "abstract states",
            std::to_string(stats_.fabricatedStates) + " fabricated, " +
                std::to_string(stats_.concreteStates) + " concrete states, " +
                std::to_string(solver_.stats().queries) + " solver queries"};
  }
  bool atCutpoint(const exec::State& s) const {
    if (p_.isClosed())
      for (const exec::Thread& t : s.threads)
        if (t.frames.size() != 1) return false;
    return frag_.isAbstractionPoint(abs_.locations(s));
  }
  // Adds `a`, first reached from abstract state `from` (-1: an initial one); returns its id and
  // whether it is new.
  std::pair<uint32_t, bool> addAbstract(AbstractState a, bool fabricated, int64_t from);
  void addEdge(int64_t from, uint32_t to, bool fabricated) {
    if (from >= 0) edges_.insert({static_cast<uint32_t>(from), to, fabricated});
  }
  // Concrete exploration from the given start nodes (already in cstore_).
  void execute(std::vector<size_t> starts);
  // `mustBeNew`: `s` is a model of a query that excludes every known abstract state, so its own
  // abstract state is new (ISSTA'06 Thm 3.3: every fabrication adds coverage, hence
  // termination). If it is not, alpha and gamma disagree (a predicate read in another frame than
  // gamma reads it, say) and the run would fabricate forever: an internal error.
  void startFrom(const exec::State& s, bool fabricated, int64_t fromAbstract,
                 bool mustBeNew = false);
  std::logic_error coverageLost(const AbstractState& a) const;
  void recordProblem(size_t node, const exec::ExecError& e, const search::Move* failing);
  // The potential error `e` reached from abstract state `from` (-1: none): its entry, and whether
  // it is new (then its trace is still to be filled in).
  std::pair<PotentialError*, bool> notePotential(const exec::ExecError& e, int64_t from);
  ProveTrace traceTo(size_t node);  // recomputes the moves: not while successors() runs
  // `countUnknown`: an unknown answer makes the verdict unknown (not for a query that only
  // saves others, whose unknown is followed by those).
  smt::CheckResult query(std::vector<ExprRef> as, bool countUnknown = true);
  // Closes cutpoint end `end` of prestate i of abstract state `id` through its candidate
  // successors (local_post.h), fabricating the new ones; false when they cannot be had.
  bool closeByCandidates(uint32_t id, Fragments& f, size_t i, size_t j, bool& fabricated);
  // Frees the fragments of an abstract state whose ends are all closed.
  static void releaseIfDone(Fragments& f);
  // Whether `e` calls a function. Memoised over the run: the queries share most of their terms
  // (the exclusions of notCovered grow by one state at a time).
  bool mentionsCall(ExprRef e);
  // `post` is in no known abstract state of its locations.
  ExprRef notCovered(const SymConfig& post);
  // The abstract state a valuation names when all its values are constants.
  static std::optional<AbstractState> constantState(const std::vector<ir::LocId>& pcs,
                                                    const abstraction::Abstraction::Valuation& v);
  Fragments& fragmentsOf(uint32_t id);
  exec::State shape() const;
  // One pass over the open checks; true if something was fabricated.
  bool checkPass();
  void initialCheck();
  // A failing initialiser (LANGUAGE.md) is a real error: no state, no step.
  void initialErrors(const std::vector<search::FoundError>& concrete);
  bool checkInvariantsOf(uint32_t id, Fragments& f);
  // Eager: every candidate abstract state at `post`'s locations that `as` (the pre-state's
  // gamma and the path) can reach is added; one query per candidate not yet known.
  void enumerateCandidates(const std::vector<ExprRef>& as, const SymConfig& post,
                           int64_t fromAbstract);

  const ir::Program& p_;
  exec::Evaluator& ev_;
  smt::Solver& solver_;
  const ProveOptions& o_;
  abstraction::Abstraction abs_;
  symbolic::SymEvaluator sev_;
  FragmentBuilder frag_;
  search::GenericSystem sys_;
  LocalPosts local_;
  std::unique_ptr<search::Budget> ownBudget_;  // when the options give none
  search::Budget& budget_;
  search::Progress quiet_;
  search::Progress& progress_;
  double start_ = budget_.elapsed();

  std::vector<AbstractNode> nodes_;
  std::unordered_map<AbstractState, uint32_t> index_;
  std::map<std::vector<ir::LocId>, std::vector<uint32_t>> byLoc_;
  std::set<AbstractEdge> edges_;
  std::unordered_map<uint32_t, std::unique_ptr<Fragments>> frags_;
  std::map<std::vector<ir::LocId>, std::unique_ptr<Shape>> shapes_;
  // Per location vector: free symbols standing for its predicates' values, and the known
  // abstract states there excluded over them (the first `counted` of byLoc_). notCovered links
  // the symbols to a post-state's values, so the exclusions are the same terms in every query at
  // those locations: built and translated once, extended by the states added since.
  struct Coverage {
    abstraction::Abstraction::Valuation symbols;
    ExprRef excluded = nullptr;
    size_t counted = 0;
  };
  std::map<std::vector<ir::LocId>, Coverage> coverage_;
  std::unordered_set<ExprRef> callFree_;  // terms known to call no function

  // The concrete states reached by Execute, each stored once with its parent (the store of the
  // explicit search), and beside them, per state id: the abstract state of its nearest cutpoint
  // ancestor (-1: none) and whether it descends from a fabricated state. The move that reached a
  // state is not kept: a trace recomputes it from the parent's successors (bakery4 ran out of
  // 14 GB at 14.7 M concrete states while each was kept twice with its move).
  search::StateStore cstore_;
  std::vector<int32_t> lastAbstract_;
  std::vector<bool> fabricated_;
  search::StateStore::Insert addConcrete(std::string_view enc, int64_t parent, bool fabricated,
                                         int64_t lastAbstract) {
    auto ins = cstore_.insert(enc, parent < 0 ? search::StateStore::kNoParent
                                              : static_cast<search::StateStore::Id>(parent));
    if (ins.isNew) {
      lastAbstract_.push_back(static_cast<int32_t>(lastAbstract));
      fabricated_.push_back(fabricated);
    }
    return ins;
  }
  // An error's identity: its kind and source position.
  using ErrorKey = std::tuple<uint8_t, uint32_t, uint32_t>;
  static ErrorKey keyOf(const exec::ExecError& e) {
    return {static_cast<uint8_t>(e.kind), e.loc.line, e.loc.col};
  }
  std::optional<FoundProblem> real_;
  std::vector<PotentialError> potentials_;
  std::vector<std::vector<uint32_t>> potentialFrom_;  // per potential error: abstract state ids
  std::map<ErrorKey, size_t> potentialIndex_;
  std::set<ErrorKey> errorEdges_;  // errors already found by execution
  std::vector<exec::State> initialModels_;
  ProveStats stats_;
  std::string unknownReason_, cut_;
  bool stop_ = false;
  bool gaveUp_ = false;    // ProveOptions::maxAbstractStates
  bool depthCut_ = false;  // an abstract state was not expanded because of --max-depth
};

class Prover::Sink final : public search::SuccessorSink {
 public:
  Sink(Prover& pr, size_t node) : pr_(pr), node_(node) {}
  void successor(std::string_view state, const search::Move&) override {
    ++pr_.stats_.transitions;
    auto ins = pr_.addConcrete(state, static_cast<int64_t>(node_), pr_.fabricated_[node_],
                               pr_.lastAbstract_[node_]);
    if (ins.isNew) fresh.push_back(ins.id);
  }
  // Recorded once successors() has returned: a trace recomputes moves with successors().
  void error(const search::FoundError& e) override { errors.push_back(e); }
  void incomplete(const std::string&) override {}  // execution is a heuristic; checks are sound
  std::vector<size_t> fresh;
  std::vector<search::FoundError> errors;

 private:
  Prover& pr_;
  size_t node_;
};

std::pair<uint32_t, bool> Prover::addAbstract(AbstractState a, bool fabricated, int64_t from) {
  auto it = index_.find(a);
  if (it != index_.end()) return {it->second, false};
  const auto id = static_cast<uint32_t>(nodes_.size());
  byLoc_[a.pcs].push_back(id);
  index_.emplace(a, id);
  const uint32_t depth = from < 0 ? 0 : nodes_[from].depth + 1;
  nodes_.push_back(AbstractNode{std::move(a), fabricated, false, depth});
  return {id, true};
}

ProveTrace Prover::traceTo(size_t node) {
  std::vector<search::StateStore::Id> chain;
  for (auto n = static_cast<search::StateStore::Id>(node); n != search::StateStore::kNoParent;
       n = cstore_.parent(n))
    chain.push_back(n);
  // The move from a state to its child: the first of the parent's successors that is the child.
  struct MoveFinder final : search::SuccessorSink {
    std::string_view target;
    std::optional<search::Move> move;
    void successor(std::string_view state, const search::Move& m) override {
      if (!move && state == target) move = m;
    }
    void error(const search::FoundError&) override {}
    void incomplete(const std::string&) override {}
  };
  ProveTrace tr;
  const search::StateCodec& codec = sys_.codec();
  tr.initial = codec.decode(cstore_.get(chain.back()));
  tr.fabricated = fabricated_[chain.back()];
  for (size_t i = chain.size() - 1; i > 0; --i) {
    MoveFinder finder;
    finder.target = cstore_.get(chain[i - 1]);
    sys_.successors(cstore_.get(chain[i]), finder);
    if (!finder.move) throw std::logic_error("prove: a stored concrete step cannot be recomputed");
    search::TraceStep st;
    st.move = std::move(*finder.move);
    st.before = codec.decode(cstore_.get(chain[i]));
    st.after = codec.decode(finder.target);
    tr.steps.push_back(std::move(st));
  }
  return tr;
}

std::pair<PotentialError*, bool> Prover::notePotential(const exec::ExecError& e, int64_t from) {
  auto [it, isNew] = potentialIndex_.emplace(keyOf(e), potentials_.size());
  if (isNew) {
    potentials_.push_back(PotentialError{FoundProblem{e, {}, true}, {}, {}});
    potentialFrom_.emplace_back();
  }
  std::vector<uint32_t>& from_ = potentialFrom_[it->second];
  if (from >= 0 && std::find(from_.begin(), from_.end(), from) == from_.end())
    from_.push_back(static_cast<uint32_t>(from));
  return {&potentials_[it->second], isNew};
}

// A real error ends the run. A potential one does not: the fixpoint goes on, so every potential
// error is found whatever the order of execution, and a real error found later still wins.
void Prover::recordProblem(size_t node, const exec::ExecError& e, const search::Move* failing) {
  const int64_t lastAbstract = lastAbstract_[node];
  const bool fabricated = fabricated_[node];
  if (lastAbstract >= 0) nodes_[lastAbstract].error = true;
  errorEdges_.insert(keyOf(e));
  PotentialError* potential = nullptr;
  if (fabricated) {
    auto [pe, isNew] = notePotential(e, lastAbstract);
    if (!isNew) return;
    potential = pe;
  } else if (real_) {
    return;
  }
  FoundProblem fp{e, traceTo(node), fabricated};
  if (failing) {
    search::TraceStep st;
    st.move = *failing;
    st.before = sys_.codec().decode(cstore_.get(static_cast<search::StateStore::Id>(node)));
    st.after = st.before;
    fp.trace.steps.push_back(std::move(st));
  }
  if (potential) {
    potential->found = std::move(fp);
  } else {
    real_ = std::move(fp);
    stop_ = true;
  }
}

// One Execute (ISSTA'06, Fig. 2): concrete exploration from the start nodes, abstracting the
// states at cutpoints. A frontier entry's depth is the depth of its abstract state (or of the last
// one on its way), so --max-depth stops execution where it would go deeper into the abstract
// state graph.
class Prover::ExecVisitor final : public search::SearchVisitor {
 public:
  ExecVisitor(Prover& pr, search::Searcher& frontier, const std::vector<size_t>& starts)
      : pr_(pr), frontier_(frontier), startSet_(starts.begin(), starts.end()) {
    for (size_t id : starts) push(id);
  }
  void expand(const search::FrontierEntry& entry) override {
    const size_t id = entry.id;
    ++expanded_;
    ++sinceNew_;
    ++pr_.stats_.concreteStates;
    pr_.budget_.chargeState();
    const std::string_view enc = pr_.cstore_.get(static_cast<search::StateStore::Id>(id));
    exec::State s = pr_.sys_.codec().decode(enc);
    if (pr_.atCutpoint(s)) {
      const int64_t last = pr_.lastAbstract_[id];
      auto [aid, isNew] = pr_.addAbstract(pr_.abs_.alpha(s), pr_.fabricated_[id], last);
      // A fabricated start state was abstracted (and its edge drawn) when it was made.
      if (!(startSet_.count(id) && last == static_cast<int64_t>(aid)))
        pr_.addEdge(last, aid, false);
      pr_.lastAbstract_[id] = static_cast<int32_t>(aid);
      if (isNew) sinceNew_ = 0;
    }
    if (auto inv = pr_.sys_.checkInvariants(enc)) {
      pr_.recordProblem(id, exec::ExecError{inv->kind, inv->loc, inv->message, false}, nullptr);
      return;
    }
    if (pr_.o_.engine != ProveOptions::Engine::Fabricate) return;  // baselines do not execute
    Sink sink(pr_, id);
    const bool moves = pr_.sys_.successors(enc, sink);
    for (const search::FoundError& e : sink.errors)
      pr_.recordProblem(id, exec::ExecError{e.kind, e.loc, e.message, false}, &e.move);
    if (pr_.p_.isClosed() && pr_.o_.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)] &&
        search::deadlocked(pr_.sys_, enc, moves))
      pr_.recordProblem(id, deadlockError(), nullptr);
    for (size_t n : sink.fresh) push(n);
  }
  bool finished() const override {
    return pr_.stop_ || (pr_.o_.executeBound && expanded_ >= *pr_.o_.executeBound) || stalled();
  }
  // Hybrid (Sect. 5.3): execution has stopped finding abstract states; fabrication takes over.
  bool stalled() const { return pr_.o_.stall && sinceNew_ >= *pr_.o_.stall; }
  bool cut(const search::FrontierEntry&) override {
    pr_.depthCut_ = true;
    return true;
  }
  search::ProgressSample progress() const override { return pr_.progressSample(); }

 private:
  void push(size_t id) {
    bool novel = false;
    if (search::usesNovelty(pr_.o_.search))  // only then: decoding costs
      for (const exec::Thread& t :
           pr_.sys_.codec()
               .decode(pr_.cstore_.get(static_cast<search::StateStore::Id>(id)))
               .threads)
        novel = seenLocs_.insert(t.top().pc).second || novel;
    const int64_t last = pr_.lastAbstract_[id];
    const uint32_t depth = last < 0 ? 0 : pr_.nodes_[last].depth;
    frontier_.add(search::FrontierEntry{static_cast<search::StateStore::Id>(id), depth, novel});
  }

  Prover& pr_;
  search::Searcher& frontier_;
  const std::set<size_t> startSet_;
  std::unordered_set<ir::LocId> seenLocs_;
  uint64_t expanded_ = 0;
  uint64_t sinceNew_ = 0;  // concrete states expanded since the last new abstract state
};

void Prover::execute(std::vector<size_t> starts) {
  ++stats_.executions;
  auto frontier = search::makeSearcher(o_.search, o_.seed);
  ExecVisitor visitor(*this, *frontier, starts);
  const search::DriveEnd end = search::drive(*frontier, budget_, progress_, visitor).end;
  if (end == search::DriveEnd::Stopped) outOfBudget();
  if (end == search::DriveEnd::Finished && visitor.stalled()) ++stats_.stalledExecutions;
}

void Prover::startFrom(const exec::State& s, bool fabricated, int64_t fromAbstract,
                       bool mustBeNew) {
  std::string enc;
  sys_.codec().encode(s, enc);
  // A state already stored (execution reached it but stopped before expanding it: --stall) keeps
  // its node; if execution reached it from a real initial state, its errors are real.
  const size_t id = addConcrete(enc, -1, fabricated, fromAbstract).id;
  if (fabricated && atCutpoint(s)) {
    auto [aid, isNew] = addAbstract(abs_.alpha(s), true, fromAbstract);
    if (mustBeNew && !isNew) throw coverageLost(nodes_[aid].state);
    addEdge(fromAbstract, aid, true);  // where it came from
    lastAbstract_[id] = static_cast<int32_t>(aid);
  }
  execute({id});
}

std::logic_error Prover::coverageLost(const AbstractState& a) const {
  return std::logic_error("a fabricated state at " + abs_.locationText(a.pcs) +
                          " has the known abstract state " + abs_.formulaText(a) +
                          ": alpha and gamma disagree (ISSTA'06 Thm 3.3)");
}

smt::CheckResult Prover::query(std::vector<ExprRef> as, bool countUnknown) {
  if (outOfBudget()) return smt::CheckResult::unknown(cut_);  // the run ends; nothing is concluded
  ++stats_.invarianceChecks;
  for (ExprRef a : as) {
    if (a->isFalse()) return smt::CheckResult::unsat();
    // An uninterpreted call would let the model disagree with what the code computes, and the
    // fabricated state would not be the one the query promised.
    if (mentionsCall(a)) throw symbolic::NotImplemented("prove with calls inside expressions");
  }
  try {
    auto r = solver_.check(std::span<const ExprRef>(as));
    if (r.isUnknown() && countUnknown) {
      ++stats_.unknownAnswers;
      if (unknownReason_.empty()) unknownReason_ = r.reason.empty() ? "no reason" : r.reason;
    }
    return r;
  } catch (const smt::SmtUnsupported& e) {
    throw symbolic::NotImplemented(e.what());
  }
}

std::optional<AbstractState> Prover::constantState(const std::vector<ir::LocId>& pcs,
                                                   const abstraction::Abstraction::Valuation& v) {
  auto constBool = [](ExprRef e) -> std::optional<bool> {
    if (e->isTrue()) return true;
    if (e->isFalse()) return false;
    return std::nullopt;
  };
  AbstractState a;
  a.pcs = pcs;
  for (size_t i = 0; i < v.value.size(); ++i) {
    auto d = constBool(v.defined[i]);
    if (!d) return std::nullopt;
    auto t = *d ? constBool(v.value[i]) : std::optional<bool>(false);
    if (!t) return std::nullopt;
    a.truth.push_back(static_cast<uint8_t>(!*d  ? abstraction::Truth::Undefined
                                           : *t ? abstraction::Truth::True
                                                : abstraction::Truth::False));
  }
  for (ExprRef x : v.exact) {
    if (x->op == Op::BoolConst) {
      a.exact.push_back(x->isTrue() ? 1 : 0);
    } else if (x->op == Op::EnumConst) {
      a.exact.push_back(x->payload);
    } else {
      return std::nullopt;
    }
  }
  return a;
}

bool Prover::mentionsCall(ExprRef root) {
  std::vector<ExprRef> todo{root}, seen;
  std::unordered_set<ExprRef> visited;
  while (!todo.empty()) {
    ExprRef e = todo.back();
    todo.pop_back();
    if (callFree_.count(e) || !visited.insert(e).second) continue;
    if (e->op == Op::Call) return true;
    seen.push_back(e);
    for (ExprRef k : e->kids) todo.push_back(k);
  }
  callFree_.insert(seen.begin(), seen.end());
  return false;
}

ExprRef Prover::notCovered(const SymConfig& post) {
  ExprManager& em = *p_.exprs;
  auto it = byLoc_.find(post.pcs);
  if (it == byLoc_.end()) return em.trueExpr();
  auto [cit, isNew] = coverage_.try_emplace(post.pcs);
  Coverage& cv = cit->second;
  if (isNew) {
    const abstraction::Scope& sc = abs_.scopeAt(post.pcs);
    TypeRef boolT = em.types().boolType();
    for (size_t i = 0; i < sc.preds.size(); ++i) {
      cv.symbols.value.push_back(em.freshSymbol("pred" + std::to_string(i), boolT));
      cv.symbols.defined.push_back(em.freshSymbol("defined" + std::to_string(i), boolT));
    }
    for (size_t i = 0; i < sc.exact.size(); ++i)
      cv.symbols.exact.push_back(
          em.freshSymbol("exact" + std::to_string(i), sc.exact[i].expr->type));
    cv.excluded = em.trueExpr();
  }
  for (; cv.counted < it->second.size(); ++cv.counted)
    cv.excluded = em.mkAnd(cv.excluded,
                           em.mkNot(abs_.gamma(nodes_[it->second[cv.counted]].state, cv.symbols)));
  const abstraction::Abstraction::Valuation v = abs_.valuate(post.pcs, post, sev_);
  // Constant values name one abstract state: no query needed to tell whether it is known.
  if (auto a = constantState(post.pcs, v)) return em.boolConst(!index_.count(*a));
  std::vector<ExprRef> links;
  for (size_t i = 0; i < v.value.size(); ++i) {
    links.push_back(em.mkEq(cv.symbols.value[i], v.value[i]));
    links.push_back(em.mkEq(cv.symbols.defined[i], v.defined[i]));
  }
  for (size_t i = 0; i < v.exact.size(); ++i)
    links.push_back(em.mkEq(cv.symbols.exact[i], v.exact[i]));
  links.push_back(cv.excluded);
  return em.mkAnd(std::span<const ExprRef>(links));
}

Prover::Fragments& Prover::fragmentsOf(uint32_t id) {
  auto& slot = frags_[id];
  if (slot) return *slot;
  slot = std::make_unique<Fragments>();
  Fragments& f = *slot;
  const std::vector<ir::LocId>& pcs = nodes_[id].state.pcs;
  auto& sh = shapes_[pcs];
  if (!sh) {
    sh = std::make_unique<Shape>();
    for (SymConfig& pre : frag_.prestates(pcs)) {
      sh->preVal.push_back(abs_.valuate(pcs, pre, sev_));
      sh->ends.push_back(frag_.fragments(pre));
      sh->postVal.emplace_back(sh->ends.back().size());
      sh->pres.push_back(std::move(pre));
    }
  }
  f.shape = sh.get();
  for (size_t i = 0; i < sh->pres.size(); ++i) {
    ExprRef g = abs_.gamma(nodes_[id].state, sh->preVal[i]);
    for (ExprRef fact : sh->pres[i].st.pathCond) g = p_.exprs->mkAnd(g, fact);  // lengths >= 0
    f.gammaPre.push_back(g);
    // A false gamma: a reference combination this abstract state excludes.
    f.closed.emplace_back(sh->ends[i].size(), g->isFalse());
  }
  return f;
}

exec::State Prover::shape() const {
  exec::ScriptedChooser chooser;
  if (o_.classIndex != ir::kNone) {
    std::vector<exec::Value> args;
    for (ir::VarId v : p_.cfas[o_.entry].params)
      args.push_back(exec::defaultValue(p_.vars[v].type));
    auto s = ev_.makeClassInitState(o_.classIndex, std::move(args), chooser,
                                    exec::Evaluator::Inits::Ignore);
    if (!s) throw symbolic::NotImplemented("a state shape (" + s.error().message + ")");
    return std::move(s).value();
  }
  constexpr auto kShape = exec::Evaluator::Inits::Ignore;  // a template: inputs come later
  auto s = o_.entry == ir::kNone ? ev_.makeInitialState(chooser, kShape)
                                 : ev_.makeEntryState(
                                       o_.entry,
                                       [&] {
                                         std::vector<exec::Value> args;
                                         for (ir::VarId v : p_.cfas[o_.entry].params)
                                           args.push_back(exec::defaultValue(p_.vars[v].type));
                                         return args;
                                       }(),
                                       chooser, kShape);
  if (!s) throw symbolic::NotImplemented("a state shape (" + s.error().message + ")");
  return std::move(s).value();
}

bool Prover::checkInvariantsOf(uint32_t id, Fragments& f) {
  if (f.safetyDone) return false;
  f.safetyDone = true;
  if (!o_.tracked[static_cast<size_t>(ir::ErrorKind::Invariant)]) return false;
  ExprManager& em = *p_.exprs;
  bool fabricated = false;
  for (size_t i = 0; i < f.shape->pres.size() && !stop_; ++i) {
    for (const ir::Property& inv : p_.invariants) {
      std::vector<symbolic::Obligation> obls;
      ExprRef v =
          sev_.eval(abs_.foldLocations(inv.expr, f.shape->pres[i].pcs), f.shape->pres[i].st, obls)
              .expr;
      if (v->isTrue()) continue;
      auto r = query({f.gammaPre[i], em.mkNot(v)});
      if (!r.isSat()) continue;
      ++stats_.fabricatedStates;
      startFrom(symbolic::concretize(p_, f.shape->pres[i], solver_.model(), shape()), true, id);
      fabricated = true;
      break;
    }
  }
  return fabricated;
}

bool Prover::closeByCandidates(uint32_t id, Fragments& f, size_t i, size_t j, bool& fabricated) {
  const FragmentEnd& end = f.shape->ends[i][j];
  auto& cached = f.shape->postVal[i][j];
  if (!cached) cached = abs_.valuate(end.post.pcs, end.post, sev_);
  const abstraction::Abstraction::Valuation& postVal = *cached;
  auto cands =
      local_.candidates(nodes_[id].state, f.shape->preVal[i], end, postVal, solver_,
                        [this](std::vector<ExprRef> as) { return query(std::move(as), false); });
  if (!cands) return false;
  for (AbstractState& c : *cands) {
    if (stop_) return true;  // the run ends: whatever it concludes, not `proved`
    if (index_.count(c)) continue;
    // A candidate may be no successor of this abstract state: the full query decides.
    std::vector<ExprRef> as{f.gammaPre[i]};
    as.insert(as.end(), end.pathCond.begin(), end.pathCond.end());
    as.push_back(abs_.gamma(c, postVal));
    if (!query(as).isSat()) continue;
    ++stats_.fabricatedStates;
    startFrom(symbolic::concretize(p_, end.post, solver_.model(), shape()), true, id, true);
    fabricated = true;
  }
  return true;
}

void Prover::releaseIfDone(Fragments& f) {
  if (f.done || !f.safetyDone) return;
  for (const auto& row : f.closed)
    for (bool c : row)
      if (!c) return;
  f.closed = {};
  f.gammaPre = {};
  f.done = true;
}

bool Prover::checkPass() {
  bool fabricated = false;
  for (uint32_t id = 0; id < nodes_.size() && !stop_; ++id) {
    if (outOfBudget()) break;
    progress_.tick([&] { return progressSample(); });
    if (tooDeep(id)) continue;
    Fragments& f = fragmentsOf(id);
    if (f.done) continue;
    fabricated = checkInvariantsOf(id, f) || fabricated;
    for (size_t i = 0; i < f.shape->pres.size() && !stop_; ++i) {
      for (size_t j = 0; j < f.shape->ends[i].size() && !stop_; ++j) {
        if (f.closed[i][j]) continue;
        const FragmentEnd& end = f.shape->ends[i][j];
        if (end.kind == FragmentEnd::Kind::Terminated) {
          f.closed[i][j] = true;
          continue;
        }
        std::vector<ExprRef> as{f.gammaPre[i]};
        as.insert(as.end(), end.pathCond.begin(), end.pathCond.end());
        if (end.kind == FragmentEnd::Kind::Error) {
          const ErrorKey key = keyOf(*end.error);
          f.closed[i][j] = true;
          if (errorEdges_.count(key)) {
            nodes_[id].error = true;
            continue;
          }
          if (o_.engine == ProveOptions::Engine::Fabricate && local_.usable() &&
              local_.errorExcluded(
                  nodes_[id].state, f.shape->preVal[i], end,
                  [this](std::vector<ExprRef> q) { return query(std::move(q), false); }))
            continue;
          auto r = query(as);
          if (!r.isSat()) continue;
          // A state of this abstract state fails: fabricate it and let execution show how.
          ++stats_.fabricatedStates;
          exec::State s = symbolic::concretize(p_, f.shape->pres[i], solver_.model(), shape());
          startFrom(s, true, id);
          if (!errorEdges_.count(key)) {  // execution took another branch (e.g. a havoc)
            nodes_[id].error = true;
            errorEdges_.insert(key);
            auto [pe, isNew] = notePotential(*end.error, id);
            if (isNew) {
              pe->found.trace.initial = s;
              pe->found.trace.fabricated = true;
            }
          }
          fabricated = true;
          continue;
        }
        if (o_.engine == ProveOptions::Engine::Eager) {
          enumerateCandidates(as, end.post, id);
          f.closed[i][j] = true;
          fabricated = true;  // new states may have fragments to check
          continue;
        }
        if (o_.engine == ProveOptions::Engine::Fabricate && local_.usable() &&
            closeByCandidates(id, f, i, j, fabricated)) {
          f.closed[i][j] = true;
          continue;
        }
        as.push_back(notCovered(end.post));
        auto r = query(as);
        if (!r.isSat()) {
          f.closed[i][j] = true;  // unknown answers are counted: the verdict cannot be proved
          continue;
        }
        ++stats_.fabricatedStates;
        startFrom(symbolic::concretize(p_, end.post, solver_.model(), shape()), true, id, true);
        fabricated = true;
      }
    }
    if (!stop_) releaseIfDone(f);
  }
  return fabricated;
}

void Prover::enumerateCandidates(const std::vector<ExprRef>& as, const SymConfig& post,
                                 int64_t fromAbstract) {
  const abstraction::Scope& sc = abs_.scopeAt(post.pcs);
  const abstraction::Abstraction::Valuation val = abs_.valuate(post.pcs, post, sev_);
  // A predicate that can be undefined (an index out of bounds, a division by zero) has a third
  // truth value; leaving it out would leave such states uncovered, and prove vacuously.
  std::vector<uint32_t> radix;
  for (size_t i = 0; i < sc.preds.size(); ++i)
    radix.push_back(val.defined[i] && val.defined[i]->isTrue() ? 2 : 3);
  for (const auto& x : sc.exact) {
    TypeRef t = x.expr->type;
    radix.push_back(t->kind == TypeKind::Bool ? 2 : static_cast<uint32_t>(t->members.size()));
  }
  uint64_t total = 1;
  for (uint32_t r : radix) {
    total *= r;
    if (total > (uint64_t{1} << 16))
      throw symbolic::NotImplemented(
          "the eager engine with more than 65536 candidates per location");
  }
  std::vector<uint32_t> digit(radix.size(), 0);
  for (uint64_t n = 0; n < total && !stop_; ++n) {
    AbstractState c;
    c.pcs = post.pcs;
    for (size_t i = 0; i < sc.preds.size(); ++i) c.truth.push_back(static_cast<uint8_t>(digit[i]));
    for (size_t i = sc.preds.size(); i < radix.size(); ++i) c.exact.push_back(digit[i]);
    for (size_t i = 0; i < radix.size(); ++i) {  // next mixed-radix number
      if (++digit[i] < radix[i]) break;
      digit[i] = 0;
    }
    if (index_.count(c)) continue;
    std::vector<ExprRef> q = as;
    q.push_back(abs_.gamma(c, val));
    if (!query(q).isSat()) continue;
    auto [id, isNew] = addAbstract(c, true, fromAbstract);
    (void)isNew;
    addEdge(fromAbstract, id, true);
  }
}

void Prover::initialErrors(const std::vector<search::FoundError>& concrete) {
  auto found = [&](const exec::ExecError& e) {
    real_ = FoundProblem{e, {}, false};
    stop_ = true;
  };
  if (!concrete.empty()) {
    const search::FoundError& e = concrete.front();
    found(exec::ExecError{e.kind, e.loc, e.message, false});
    return;
  }
  // Inputs the concrete initial states do not enumerate: each failing initialiser symbolically.
  std::vector<ExprRef> initCond;
  std::vector<FragmentEnd> errors;
  frag_.initialConfig(o_.entry, initCond, &errors);
  for (const FragmentEnd& e : errors) {
    if (stop_ || outOfBudget()) return;
    if (query(e.pathCond).isSat()) return found(*e.error);
  }
}

void Prover::initialCheck() {
  std::vector<ExprRef> initCond;
  SymConfig c0 = frag_.initialConfig(o_.entry, initCond);
  if (c0.pcs.empty()) return;  // no initial state: every way to start fails
  if (o_.engine == ProveOptions::Engine::Eager) {
    enumerateCandidates(initCond, c0, -1);
    return;
  }
  for (int guard = 0; guard < 100000 && !stop_; ++guard) {
    std::vector<ExprRef> as = initCond;
    as.push_back(notCovered(c0));
    auto r = query(as);
    if (!r.isSat()) return;
    // A model of the initial condition is a real initial state, not a fabricated one.
    exec::State s0 = symbolic::concretize(p_, c0, solver_.model(), shape());
    if (atCutpoint(s0))
      if (auto known = index_.find(abs_.alpha(s0)); known != index_.end())
        throw coverageLost(known->first);
    initialModels_.push_back(s0);
    startFrom(s0, false, -1);
    if (!atCutpoint(s0) || !index_.count(abs_.alpha(s0)))  // no progress would loop forever
      throw symbolic::NotImplemented("initial states outside the cutpoints");
  }
}

ProveResult Prover::run() {
  struct InitSink final : search::SuccessorSink {
    explicit InitSink(Prover& p) : pr(p) {}
    void successor(std::string_view state, const search::Move&) override {
      auto ins = pr.addConcrete(state, -1, false, -1);
      if (ins.isNew) starts.push_back(ins.id);
    }
    void error(const search::FoundError& e) override { errors.push_back(e); }
    void incomplete(const std::string&) override {}
    Prover& pr;
    std::vector<size_t> starts;
    std::vector<search::FoundError> errors;
  } init(*this);
  if (o_.engine == ProveOptions::Engine::Fabricate) {
    sys_.initialStates(init);
  }
  initialErrors(init.errors);
  if (o_.engine == ProveOptions::Engine::Fabricate && !stop_) execute(init.starts);
  if (!stop_) initialCheck();
  while (!stop_ && checkPass()) {
  }
  // A bound or an interrupt that struck inside the last solver query shows only as its unknown.
  if (!stop_ && budget_.pollNow()) outOfBudget();
  ProveResult r;
  stats_.abstractStates = nodes_.size();
  stats_.solverQueries = solver_.stats().queries;
  stats_.seconds = budget_.elapsed() - start_;
  r.stats = stats_;
  if (real_) {
    r.outcome = ProveResult::Outcome::Error;
    r.problem = std::move(real_);
  } else if (!cut_.empty()) {
    r.outcome = ProveResult::Outcome::Unknown;
    r.reason = cut_;
    r.gaveUp = gaveUp_;
  } else if (!potentials_.empty()) {
    r.outcome = ProveResult::Outcome::PotentialError;
  } else if (stats_.unknownAnswers) {
    r.outcome = ProveResult::Outcome::Unknown;
    r.reason = search::solverUnknownReason(unknownReason_) + " (" +
               std::to_string(stats_.unknownAnswers) + " answers)";
  } else if (depthCut_) {
    r.outcome = ProveResult::Outcome::Unknown;
    r.reason = search::depthBoundReason(*budget_.limits().maxDepth) +
               ": abstract states that deep were not expanded";
  } else {
    r.outcome = ProveResult::Outcome::Proved;
  }
  // The invariant's text only for a proof (the text of a large graph takes a while).
  for (const auto& [pcs, ids] : byLoc_) {
    if (r.outcome != ProveResult::Outcome::Proved) break;
    std::vector<const AbstractState*> states;
    for (uint32_t id : ids) states.push_back(&nodes_[id].state);
    r.invariant.emplace_back(abs_.locationText(pcs), abs_.disjunctionText(states));
  }
  if (o_.classIndex != ir::kNone) {
    std::vector<const AbstractState*> exits;
    for (const AbstractNode& n : nodes_) {
      const ir::Location& l = p_.locs[n.state.pcs.back()];
      if (n.state.pcs.size() == 1 && l.isExit && p_.cfas[l.cfa].classIndex == o_.classIndex)
        exits.push_back(&n.state);
    }
    r.classInvariant = abs_.classInvariantText(o_.classIndex, exits);
  }
  if (!r.problem && !potentials_.empty()) r.problem = potentials_.front().found;
  for (size_t i = 0; i < potentials_.size(); ++i) {
    for (uint32_t id : potentialFrom_[i])
      potentials_[i].from.push_back(
          {abs_.locationText(nodes_[id].state.pcs), abs_.formulaText(nodes_[id].state)});
    potentials_[i].fromNodes = potentialFrom_[i];
    r.potentialErrors.push_back(std::move(potentials_[i]));
  }
  r.initialModels = std::move(initialModels_);
  r.nodes = nodes_;
  r.edges.assign(edges_.begin(), edges_.end());
  return r;
}

std::string Prover::verify(const ProveResult& r) {
  for (const AbstractNode& n : r.nodes) addAbstract(n.state, n.fabricated, -1);
  ExprManager& em = *p_.exprs;
  std::vector<ExprRef> initCond;
  SymConfig c0 = frag_.initialConfig(o_.entry, initCond);
  if (!c0.pcs.empty()) initCond.push_back(notCovered(c0));  // else initCond holds false
  auto res = query(initCond);
  if (!res.isUnsat())
    return "an initial state is not covered (" + std::string(res.isSat() ? "sat" : "unknown") + ")";
  for (uint32_t id = 0; id < nodes_.size(); ++id) {
    Fragments& f = fragmentsOf(id);
    for (size_t i = 0; i < f.shape->pres.size(); ++i) {
      for (const ir::Property& inv : p_.invariants) {
        std::vector<symbolic::Obligation> obls;
        ExprRef v =
            sev_.eval(abs_.foldLocations(inv.expr, f.shape->pres[i].pcs), f.shape->pres[i].st, obls)
                .expr;
        if (!query({f.gammaPre[i], em.mkNot(v)}).isUnsat())
          return "invariant '" + inv.name + "' may fail at " +
                 abs_.locationText(f.shape->pres[i].pcs);
      }
      for (const FragmentEnd& end : f.shape->ends[i]) {
        if (end.kind == FragmentEnd::Kind::Terminated) continue;
        std::vector<ExprRef> as{f.gammaPre[i]};
        as.insert(as.end(), end.pathCond.begin(), end.pathCond.end());
        if (end.kind == FragmentEnd::Kind::Cutpoint) as.push_back(notCovered(end.post));
        if (!query(as).isUnsat())
          return std::string(end.kind == FragmentEnd::Kind::Error ? "an error is reachable"
                                                                  : "not closed") +
                 " from " + abs_.locationText(nodes_[id].state.pcs) + ": " +
                 abs_.formulaText(nodes_[id].state);
      }
    }
  }
  return "";
}

}  // namespace

search::GenericOptions executionOptions(const ir::Program& p, const ProveOptions& o) {
  search::GenericOptions g;
  g.tracked = o.tracked;
  g.entry = o.entry;
  g.entryHasNoInputs = o.entry != ir::kNone && p.cfas[o.entry].params.empty();
  g.classIndex = o.classIndex;
  g.argPool = o.argPool;
  g.initial = o.initial;
  return g;
}

ProveResult prove(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                  const ProveOptions& o) {
  auto prover = std::make_unique<Prover>(p, ev, solver, o);
  ProveResult r = prover->run();
  if (o.keepMemory) (void)prover.release();  // left to the OS at exit (ProveOptions::keepMemory)
  return r;
}

std::string checkProof(const ir::Program& p, exec::Evaluator& ev, smt::Solver& solver,
                       const ProveOptions& o, const ProveResult& r) {
  return Prover(p, ev, solver, o).verify(r);
}

namespace {
constexpr EnumName<ProveOptions::Engine> kEngineNames[] = {
    {ProveOptions::Engine::Fabricate, "fabricate"},
    {ProveOptions::Engine::Models, "models"},
    {ProveOptions::Engine::Eager, "eager"}};
}  // namespace

const char* engineName(ProveOptions::Engine e) { return enumName(kEngineNames, e, "fabricate"); }

std::optional<ProveOptions::Engine> parseEngine(std::string_view name) {
  return enumFromName(kEngineNames, name);
}

std::vector<int64_t> argumentPool(const ir::Program& p, ir::CfaId init) {
  std::set<int64_t> pool{-1, 0, 1};
  for (const ir::Test& t : p.tests) {
    if (t.isState || t.cfa != init) continue;
    for (ExprRef a : t.args)
      if (a->op == Op::IntConst)
        if (auto v = a->value.toInt64(); v && pool.size() < 8) pool.insert(*v);
  }
  return {pool.begin(), pool.end()};
}

}  // namespace tandem::fabricate
