#include "mc/symbolic/dart_explorer.h"

#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>

#include "mc/smt/leaf_key.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/concretizer.h"

namespace tandem::symbolic {

namespace {

// The input symbols of every run (the same ones across runs, so constraints of different runs
// compare) and their current concrete values. A symbol made for the first time gets a random
// value, as DART gives random values to inputs it has no constraint for.
class DartInputs final : public SymbolPool {
 public:
  DartInputs(ExprManager& em, std::mt19937_64& rng) : em_(em), rng_(rng) {}

  ExprRef symbol(Input kind, size_t index, const std::string& name, TypeRef type) override {
    auto key = std::make_tuple(kind, index, type);
    auto it = symbols_.find(key);
    if (it != symbols_.end()) return it->second;
    ExprRef s = em_.freshSymbol(name, type);
    symbols_.emplace(key, s);
    values[s] = randomInput(rng_, type);
    return s;
  }

  // New random values for every input (a restart).
  void randomize() {
    for (auto& [key, s] : symbols_) values[s] = randomInput(rng_, s->type);
  }

  SymbolValues values;

 private:
  ExprManager& em_;
  std::mt19937_64& rng_;
  std::map<std::tuple<Input, size_t, TypeRef>, ExprRef> symbols_;
};

// Decides a path condition by evaluating it on the run's inputs: only the branch they take is
// satisfiable, so the explorer follows exactly the concrete run.
class ConcreteRunSolver final : public PathSolver {
 public:
  explicit ConcreteRunSolver(const SymbolValues& values) : values_(values) {}

  std::string name() const override { return "concrete run"; }

  PcAnswer check(std::span<const ExprRef> pc) override {
    ++stats_.checks;
    smt::Model m = model();
    for (ExprRef c : pc) {
      auto b = m.evalBool(c);
      if (!b) return PcAnswer::of(smt::CheckResult::unknown("a condition the run cannot evaluate"));
      if (!*b) return PcAnswer::of(smt::CheckResult::unsat());
    }
    return PcAnswer::of(smt::CheckResult::sat());
  }

  smt::MinimizedModel inputs(std::span<const ExprRef>, const Certificate&,
                             std::span<const ExprRef>) override {
    return {smt::CheckResult::sat(), model()};
  }

 private:
  smt::Model model() const {
    smt::Model m;
    for (const auto& [s, v] : values_) m.setScalar(smt::LeafKey::of(s), v);
    return m;
  }

  const SymbolValues& values_;
};

// One branch of DART's stack: a conjunct of the run's path constraint, named by where it was
// made (the number of path edges before it and its rank among the conjuncts made there).
struct Branch {
  uint32_t at = 0, rank = 0;
  bool done = false;  // both sides tried (or the other side is infeasible)
  auto key() const { return std::make_pair(at, rank); }
};

std::vector<Branch> branchesOf(const PathEnd& end) {
  std::vector<Branch> out;
  for (size_t i = 0; i < end.pathCond.size(); ++i) {
    Branch b;
    b.at = end.pathCondAt[i];
    b.rank = !out.empty() && out.back().at == b.at ? out.back().rank + 1 : 0;
    out.push_back(b);
  }
  return out;
}

// What a run did at path position `at`: the edge it took there, and whether it failed there.
struct StepOutcome {
  std::optional<ir::EdgeId> edge;
  bool failed = false;
  std::string error;
  bool operator==(const StepOutcome&) const = default;
};

StepOutcome outcomeAt(const PathEnd& end, uint32_t at) {
  StepOutcome o;
  if (at < end.path.size()) o.edge = end.path[at];
  if (end.error && at + 1 == end.path.size()) {
    o.failed = true;
    o.error = end.error->message;
  }
  return o;
}

class Dart {
 public:
  Dart(const ir::Program& p, const exec::Evaluator& concrete, smt::Solver& solver,
       const ExploreOptions& o)
      : p_(p),
        em_(*p.exprs),
        concrete_(concrete),
        solver_(solver),
        o_(o),
        rng_(o.mixed.seed),
        inputs_(em_, rng_),
        concretizer_(concrete, inputs_.values),
        runSolver_(inputs_.values),
        ownBudget_(o.budget ? nullptr : std::make_unique<search::Budget>(o.limits)),
        budget_(o.budget ? *o.budget : *ownBudget_) {
    runOptions_ = o;
    runOptions_.search = search::Strategy::Dfs;
    runOptions_.stopAtError = false;
    runOptions_.endFilter = nullptr;  // asked here, once per distinct run
    runOptions_.budget = &budget_;    // every run draws on the one budget of the search
  }

  ExploreResult run();

 private:
  // One concrete run on the current inputs; its first ended path (nullopt: none).
  std::optional<PathEnd> execute();
  // DART's solve_path_constraint: negates the last branch not done, solves for new inputs.
  // The index of the negated branch, or nullopt when the directed search is over.
  std::optional<size_t> nextInputs(const PathEnd& end, std::vector<Branch>& stack);
  bool outOfBudget();
  void record(const PathEnd& end);

  const ir::Program& p_;
  ExprManager& em_;
  const exec::Evaluator& concrete_;
  smt::Solver& solver_;
  const ExploreOptions& o_;
  ExploreOptions runOptions_;
  std::mt19937_64 rng_;
  DartInputs inputs_;
  DartConcretizer concretizer_;
  ConcreteRunSolver runSolver_;
  std::unique_ptr<search::Budget> ownBudget_;
  search::Budget& budget_;
  ExploreResult r_;
  double start_ = budget_.elapsed();
  std::string cut_;
  std::string unknownReason_;
  std::set<std::pair<std::vector<ir::EdgeId>, bool>> seen_;
  bool stop_ = false;
  uint64_t blockedRuns_ = 0;
};

bool Dart::outOfBudget() {
  if (!budget_.poll() && !budget_.statesExhausted()) return false;
  if (!budget_.stopped()) budget_.stop(search::StopKind::States);
  cut_ = budget_.stopped()->reason;
  return true;
}

std::optional<PathEnd> Dart::execute() {
  ++r_.solving.runs;
  ExploreResult run = runExplorer(p_, concrete_, solver_, runOptions_,
                                  Strategy{&runSolver_, &concretizer_, &inputs_});
  r_.states += run.states;
  r_.maxDepth = std::max(r_.maxDepth, run.maxDepth);
  r_.depthCuts += run.depthCuts;
  if (run.unknownAnswers) {
    r_.unknownAnswers += run.unknownAnswers;
    if (unknownReason_.empty()) unknownReason_ = run.reason;
  }
  // The shared budget bounds each run too (a run may not terminate).
  if (budget_.stopped() && cut_.empty()) cut_ = budget_.stopped()->reason;
  if (run.ends.empty()) return std::nullopt;
  return std::move(run.ends.front());
}

void Dart::record(const PathEnd& end) {
  if (!seen_.emplace(end.path, end.error.has_value()).second) return;
  ++r_.paths;
  if (o_.endFilter && !o_.endFilter->keep(end)) return;
  r_.ends.push_back(end);
  if (end.error && o_.stopAtError) stop_ = true;
  if (std::string why = o_.endFilter ? o_.endFilter->enough() : ""; !why.empty()) {
    if (cut_.empty()) cut_ = why;
    stop_ = true;
  }
}

std::optional<size_t> Dart::nextInputs(const PathEnd& end, std::vector<Branch>& stack) {
  for (size_t j = stack.size(); j-- > 0;) {
    if (stack[j].done) continue;
    stack[j].done = true;
    std::vector<ExprRef> f(end.pathCond.begin(), end.pathCond.begin() + static_cast<long>(j));
    f.push_back(em_.mkNot(end.pathCond[j]));
    std::vector<ExprRef> syms;
    for (ExprRef c : f) collectSymbols(c, syms);
    smt::MinimizedModel mm = minimizeOver(solver_, em_, f, syms);
    if (!mm.model) {
      if (mm.result.isUnknown()) {
        ++r_.unknownAnswers;
        if (unknownReason_.empty()) unknownReason_ = mm.result.reason;
      }
      continue;
    }
    // Inputs the negated constraint does not mention keep their values (as in DART).
    for (ExprRef s : syms) inputs_.values[s] = mm.model->evalInt(s).value_or(BigInt(0));
    stack.resize(j + 1);
    return j;
  }
  return std::nullopt;
}

ExploreResult Dart::run() {
  bool complete = false;
  for (uint64_t restart = 0; restart <= o_.mixed.maxTries && !stop_; ++restart) {
    if (restart > 0) {
      ++r_.solving.restarts;
      inputs_.randomize();
    }
    const uint64_t concretizedBefore = concretizer_.concretizations();
    bool mispredicted = false, ended = false, blocked = false;
    std::vector<Branch> stack;
    std::optional<PathEnd> last;
    std::optional<size_t> flipped;
    while (!stop_) {
      if (outOfBudget()) break;
      std::optional<PathEnd> end = execute();
      if (!end) break;  // no path ended (a bound cut it, or the inputs violate an `init`)
      std::vector<Branch> now = branchesOf(*end);
      if (flipped) {
        // The prediction: the same edges up to the negated branch, another outcome there.
        const Branch& b = stack[*flipped];
        bool ok = end->path.size() >= b.at && last->path.size() >= b.at &&
                  std::equal(last->path.begin(), last->path.begin() + b.at, end->path.begin()) &&
                  !(outcomeAt(*end, b.at) == outcomeAt(*last, b.at));
        if (!ok) {
          ++r_.solving.mispredictions;
          record(*end);
          mispredicted = true;
          break;
        }
        // Branches before the negated one keep their flags; the negated one is done.
        std::map<std::pair<uint32_t, uint32_t>, bool> done;
        for (const Branch& old : stack) done[old.key()] = old.done;
        for (Branch& nb : now) {
          if (nb.key() < b.key())
            nb.done = done.count(nb.key()) ? done[nb.key()] : false;
          else if (nb.key() == b.key())
            nb.done = true;
        }
      }
      // A run stopped by a failed `assume` leaves the other side of that condition untried, and
      // the directed search cannot reach it (found by scripts/difftest: `assume p == 21` on
      // random inputs made DART say verified for a model with an error past the assume).
      if (end->blocked) {
        blocked = true;
        ++blockedRuns_;
      }
      record(*end);
      stack = std::move(now);
      last = std::move(end);
      flipped = nextInputs(*last, stack);
      if (!flipped) {
        ended = true;
        break;
      }
    }
    if (ended && !mispredicted && !blocked && concretizer_.concretizations() == concretizedBefore) {
      complete = true;  // every constraint was symbolic: every feasible path was run
      break;
    }
    if (!cut_.empty()) break;
  }
  // A bound or an interrupt that struck inside a solver query shows only as its unknown answer.
  if (cut_.empty() && budget_.pollNow()) cut_ = budget_.stopped()->reason;
  r_.seconds = budget_.elapsed() - start_;
  r_.solverQueries = solver_.stats().queries;
  r_.solving.checks += runSolver_.stats().checks;
  r_.solving.concretizations = concretizer_.concretizations();
  bool hasError = false;
  for (const PathEnd& pe : r_.ends) hasError = hasError || pe.error.has_value();
  if (hasError) {
    r_.outcome = Outcome::ErrorFound;
    r_.reason = cut_;
  } else if (!cut_.empty()) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = cut_;
  } else if (r_.depthCuts) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = search::depthBoundReason(*budget_.limits().maxDepth) + ": " +
                std::to_string(r_.depthCuts) + " runs cut";
  } else if (r_.unknownAnswers) {
    r_.outcome = Outcome::Incomplete;
    // A run's reason is already worded; the solver's own reasons are not.
    r_.reason = unknownReason_.rfind("solver unknown", 0) == 0
                    ? unknownReason_
                    : search::solverUnknownReason(unknownReason_) + " (" +
                          std::to_string(r_.unknownAnswers) + " answers)";
  } else if (!complete) {
    r_.outcome = Outcome::Incomplete;
    r_.reason =
        "DART concretized " + std::to_string(r_.solving.concretizations) +
        " complex terms and mispredicted " + std::to_string(r_.solving.mispredictions) + " runs" +
        (blockedRuns_ ? ", and " + std::to_string(blockedRuns_) + " runs stopped at a failed assume"
                      : std::string()) +
        " (paths may be missing after " + std::to_string(r_.solving.restarts) + " restarts)";
  }
  return std::move(r_);
}

}  // namespace

ExploreResult exploreDart(const ir::Program& program, const exec::Evaluator& concrete,
                          smt::Solver& solver, const ExploreOptions& options) {
  return Dart(program, concrete, solver, options).run();
}

}  // namespace tandem::symbolic
