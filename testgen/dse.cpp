#include "testgen/dse.h"

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "mc/expr/expr_walk.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/model_state.h"

namespace tandem::testgen {

namespace {

constexpr uint32_t kFar = UINT32_MAX;

// Backward distances over the graph of edges and calls (a call steps over its callee and enters
// it). With `returns`, a procedure's return also leads to every place it is called from: an
// over-approximation of the locations from which some location of a set can be reached, which is
// what may be left out of a claim. Without, the locations the code of a procedure, or the code
// it calls, can reach: a target is pursued first from the trees it is reached in, and the
// dangling nodes of callees on the way are explored when a relevant query needs them (TACAS'08's
// demand-driven exploration), not for their own sake.
class Distances {
 public:
  Distances(const ir::Program& p, bool returns) : p_(p), preds_(p.locs.size()) {
    std::vector<std::vector<ir::LocId>> afterCalls(p.cfas.size());
    for (const ir::Edge& e : p.edges)
      if (e.kind == ir::EdgeKind::Call) afterCalls[e.callee].push_back(e.to);
    for (const ir::Edge& e : p.edges) {
      if (e.from == ir::kNone) continue;
      if (e.kind == ir::EdgeKind::Return) {
        if (returns)
          for (ir::LocId to : afterCalls[p.locs[e.from].cfa]) preds_[to].push_back(e.from);
        continue;
      }
      if (e.to != ir::kNone) preds_[e.to].push_back(e.from);
      if (e.kind == ir::EdgeKind::Call && p.cfas[e.callee].entry != ir::kNone)
        preds_[p.cfas[e.callee].entry].push_back(e.from);
    }
  }

  std::vector<uint32_t> to(const std::vector<ir::LocId>& goals) const {
    std::vector<uint32_t> d(p_.locs.size(), kFar);
    std::deque<ir::LocId> todo;
    for (ir::LocId g : goals) {
      d[g] = 0;
      todo.push_back(g);
    }
    while (!todo.empty()) {
      const ir::LocId l = todo.front();
      todo.pop_front();
      for (ir::LocId q : preds_[l])
        if (d[q] == kFar) {
          d[q] = d[l] + 1;
          todo.push_back(q);
        }
    }
    return d;
  }

 private:
  const ir::Program& p_;
  std::vector<std::vector<ir::LocId>> preds_;
};

class Dse {
 public:
  Dse(Forest& f, smt::Solver& solver, const DseOptions& o)
      : f_(f), p_(f.program()), solver_(solver), o_(o), down_(p_, false), any_(p_, true) {
    if (!o.target.empty()) {
      downToTarget_ = down_.to(o.target);
      toTarget_ = any_.to(o.target);
    }
  }

  DseResult run() {
    Inputs inputs = initialInputs();
    std::optional<Target> promised;
    std::vector<Target> alsoPromised;
    for (;;) {
      if (f_.budget().pollNow()) {
        r_.reason = f_.budget().stopped()->reason;
        break;
      }
      if (r_.tests.size() >= o_.maxExecutions) {
        r_.reason = "execution bound (" + std::to_string(o_.maxExecutions) + ")";
        break;
      }
      DseTest t{execute(f_, inputs), false, true};
      if (promised && !explored(*promised) &&
          std::none_of(alsoPromised.begin(), alsoPromised.end(),
                       [&](Target d) { return explored(d); })) {
        t.mispredicted = true;
        ++r_.mispredictions;
        tried_.insert(*promised);
      }
      // An execution cut by --max-depth (or a condition it could not evaluate) leaves its node
      // open: nothing after it is known, so no completeness can be claimed.
      if (t.run.end == ExecutionResult::End::Cut && !f_.budget().stopped()) {
        ++cutRuns_;
        if (cutReason_.empty()) cutReason_ = t.run.reason;
      }
      concretized_ += t.run.concretized;
      if (!o_.target.empty() && visits(t.run.path.path)) r_.targetReached = true;
      if (o_.endFilter) t.kept = o_.endFilter->keep(t.run.path);
      r_.tests.push_back(std::move(t));
      if (r_.targetReached || f_.budget().stopped()) break;
      if (std::string why = o_.endFilter ? o_.endFilter->enough() : ""; !why.empty()) {
        r_.reason = why;
        break;
      }
      promised.reset();
      alsoPromised.clear();
      // FindTestInput for the chosen target; unreachable targets are marked and the next one
      // is chosen.
      bool found = false;
      while (!found) {
        if (f_.budget().poll()) break;  // an interrupt shows first as unknown answers
        std::optional<Target> d = choose();
        if (!d) break;
        auto in = find(*d, alsoPromised);
        if (f_.budget().stopped()) break;
        if (in) {
          inputs = std::move(*in);
          promised = d;
          found = true;
          ++chosen_[f_.tree(d->cfa).node(d->node).edge];
        }
      }
      if (!found) {
        // A node whose test did not reach it, or whose query was not answered, is still open:
        // no completeness (nor unreachable target) can be claimed.
        if (f_.budget().pollNow()) {
          r_.reason = f_.budget().stopped()->reason;
        } else if (unknown_) {
          r_.reason = unknownReason_;
        } else if (openTried()) {
          r_.reason = std::to_string(r_.mispredictions) +
                      " tests did not reach the node their query promised";
        } else {
          r_.complete = true;
        }
        break;
      }
    }
    if (r_.reason.empty() && f_.budget().stopped()) r_.reason = f_.budget().stopped()->reason;
    if (cutRuns_ && !r_.targetReached) {
      r_.complete = false;
      if (!f_.budget().stopped())
        r_.reason = cutReason_ + ": " + std::to_string(cutRuns_) + " executions cut";
    }
    r_.concretizations = concretized_;
    // Conditions over concretized values prove nothing about other values.
    if (concretized_) r_.unreachable.clear();
    if (concretized_ && r_.complete) {
      // As DART's: a condition whose complex terms took the run's values is a branch only on
      // those values; the paths where they differ may be missing.
      r_.complete = false;
      r_.reason = "DART-style concretization of " + std::to_string(concretized_) +
                  " complex terms (calls inside expressions, non-linear arithmetic): paths may "
                  "be missing";
    }
    if (!o_.target.empty() && !r_.targetReached && r_.complete) r_.targetUnreachable = true;
    for (ir::CfaId c = 0; c < p_.cfas.size(); ++c)
      if (const ExecTree* t = f_.treeOf(c)) {
        r_.treeNodes += t->size();
        r_.danglingLeft += t->dangling();
      }
    return std::move(r_);
  }

 private:
  bool explored(Target d) { return f_.tree(d.cfa).node(d.node).explored; }
  bool openTried() {
    return std::any_of(tried_.begin(), tried_.end(),
                       [&](Target d) { return f_.tree(d.cfa).node(d.node).dangling(); });
  }

  // The execution's path visits a target location.
  bool visits(const std::vector<ir::EdgeId>& path) const {
    auto target = [&](ir::LocId l) {
      return std::find(o_.target.begin(), o_.target.end(), l) != o_.target.end();
    };
    if (target(p_.cfas[f_.entry()].entry)) return true;
    return std::any_of(path.begin(), path.end(), [&](ir::EdgeId e) {
      return target(p_.edges[e].from) || target(p_.edges[e].to);
    });
  }

  // Where the branch of dangling node `d` leads (its edge's target).
  ir::LocId leadsTo(Target d) {
    const TreeNode& n = f_.tree(d.cfa).node(d.node);
    if (n.edge == ir::kNone) return p_.cfas[d.cfa].entry;
    return n.error ? p_.edges[n.edge].from : p_.edges[n.edge].to;
  }

  // The next target: with --target, the dangling node nearest to it that can reach it;
  // otherwise a fair choice (the branch chosen least often, then the shallowest node).
  std::optional<Target> choose() {
    std::optional<Target> best;
    std::tuple<uint32_t, uint64_t, uint64_t> bestKey{kFar, UINT64_MAX, UINT64_MAX};
    search::Strategy order = o_.order;
    if (order == search::Strategy::Interleaved)
      order = ++choices_ % 2 ? search::Strategy::Coverage : search::Strategy::Random;
    for (ir::CfaId c = 0; c < p_.cfas.size(); ++c) {
      if (!f_.treeOf(c)) continue;
      ExecTree& t = f_.tree(c);
      t.prune();
      for (uint32_t n : t.candidates()) {
        const TreeNode& node = t.node(n);
        if (!node.dangling() || tried_.count(Target{c, n})) continue;
        uint32_t dist = 0;
        if (!o_.target.empty()) {
          if (node.error) continue;  // an error ends the run before the target
          const ir::LocId to = leadsTo(Target{c, n});
          if (toTarget_[to] == kFar) continue;  // cannot lead to it at all
          dist = downToTarget_[to];             // kFar: only by returning (chosen after the others)
        }
        std::tuple<uint32_t, uint64_t, uint64_t> key{dist, 0, 0};
        switch (order) {
          case search::Strategy::Dfs:
            std::get<1>(key) = UINT32_MAX - node.depth;
            break;
          case search::Strategy::Bfs:
            std::get<1>(key) = node.depth;
            break;
          case search::Strategy::Random:
            std::get<1>(key) = rng_();
            break;
          default: {
            auto it = chosen_.find(node.edge);
            std::get<1>(key) = it == chosen_.end() ? 0 : it->second;
            std::get<2>(key) = node.depth;
          }
        }
        if (!best || key < bestKey) {
          best = Target{c, n};
          bestKey = key;
        }
      }
    }
    return best;
  }

  bool reaches(Target d, ir::CfaId callee) {
    auto it = toCalls_.find(callee);
    if (it == toCalls_.end()) {
      std::vector<ir::LocId> sites;
      for (const ir::Edge& e : p_.edges)
        if (e.kind == ir::EdgeKind::Call && e.callee == callee) sites.push_back(e.from);
      it = toCalls_.emplace(callee, any_.to(sites)).first;
    }
    return it->second[leadsTo(d)] != kFar;
  }

  // FindTestInput (Algorithm 2): inputs whose execution reaches `d` (lazy), or passes dangling
  // nodes on a way to it (relevant; those go to `via`). Marks `d` unreachable or tried when there
  // are none.
  std::optional<Inputs> find(Target d, std::vector<Target>& via) {
    auto reach = [this](Target x, ir::CfaId c) { return reaches(x, c); };
    for (Exploration mode : {Exploration::Lazy, Exploration::Relevant}) {
      PathQuery q = buildQuery(f_, d, mode, reach);
      // No dangling node to let in: the relevant query is the lazy one, already unsatisfiable.
      if (mode == Exploration::Relevant && q.guards.empty()) break;
      (mode == Exploration::Lazy ? r_.lazyQueries : r_.relevantQueries)++;
      solver_.push();
      smt::CheckResult res = smt::CheckResult::unknown("unsupported");
      std::optional<smt::Model> model;
      for (ExprRef c : q.conjuncts) solver_.add(c);
      res = solver_.check();
      if (res.isSat()) model = solver_.model();
      solver_.pop();
      if (res.isUnknown()) {
        unknown_ = true;
        ++r_.unknownAnswers;
        if (unknownReason_.empty()) unknownReason_ = search::solverUnknownReason(res.reason);
        tried_.insert(d);
        return std::nullopt;
      }
      if (!model) continue;
      (mode == Exploration::Lazy ? r_.lazySat : r_.relevantSat)++;
      if (mode == Exploration::Relevant)
        for (const auto& [g, node] : q.guards)
          if (model->evalBool(g).value_or(false)) via.push_back(node);
      return inputsOf(q, *model);
    }
    TreeNode& n = f_.tree(d.cfa).node(d.node);
    n.unreachable = true;
    r_.unreachable.push_back(UnreachableBranch{d.cfa, n.edge});
    return std::nullopt;
  }

  // The first inputs satisfy every `init` (KLEE and SPF start inside the precondition too):
  // inputs that `init` excludes end the first run before any branch, leaving nothing to flip.
  // An unsatisfiable or unanswered precondition leaves the defaults (the run then says so).
  Inputs initialInputs() {
    if (p_.inits.empty()) return {};
    class Precondition final : public symbolic::TransferPolicy {
     public:
      explicit Precondition(Forest& f) : f_(f) {}
      bool feasible(symbolic::SymState&) override { return true; }
      void fail(const symbolic::SymState&, ExprRef, const exec::ExecError&, ir::EdgeId) override {}
      symbolic::SymValue input(symbolic::SymState&, symbolic::InputKind kind, TypeRef t,
                               const std::string& name) override {
        ExprRef symbol = nullptr;
        return f_.input(kind, count_[kind]++, name, t, symbol);
      }
      void successor(symbolic::SymState&&, ir::EdgeId) override {}
      void returned(const symbolic::SymState&, ir::EdgeId) override {}

     private:
      Forest& f_;
      std::map<symbolic::InputKind, size_t> count_;
    } pre(f_);
    symbolic::SymState s;
    f_.transfer().enter(s, f_.entry(), pre);
    PathQuery q;
    q.conjuncts = s.pathCond;
    solver_.push();
    for (ExprRef c : q.conjuncts) solver_.add(c);
    const smt::CheckResult res = solver_.check();
    std::optional<smt::Model> model;
    if (res.isSat()) model = solver_.model();
    solver_.pop();
    return model ? inputsOf(q, *model) : Inputs{};
  }

  Inputs inputsOf(const PathQuery& q, const smt::Model& m) {
    std::vector<ExprRef> mentioned;
    for (ExprRef c : q.conjuncts) symbolic::collectSymbols(c, mentioned);
    // As DART does, inputs the query does not constrain keep their values: symbols it does not
    // mention, and the elements of an array it does not read (not the solver's default for them).
    Inputs in = last_;
    for (const auto& [sym, v] : f_.inputs()) {
      if (std::find(mentioned.begin(), mentioned.end(), sym) == mentioned.end()) continue;
      exec::Value x = symbolic::modelValue(v, sym->type, m);
      auto old = in.find(sym);
      if (x.kind() == exec::ValueKind::Array && sym->type->isFixedArray()) {
        const exec::Value before = old != in.end() ? old->second : exec::defaultValue(sym->type);
        std::set<BigInt> read;
        for (ExprRef c : q.conjuncts) readIndices(c, sym, m, read);
        std::vector<exec::Value> xs;
        for (size_t i = 0; i < x.length(); ++i) {
          const bool set = read.count(BigInt(static_cast<int64_t>(i))) > 0;
          xs.push_back(set || i >= before.length() ? x.at(i) : before.at(i));
        }
        x = exec::Value::array(std::move(xs));
      }
      in[sym] = std::move(x);
    }
    last_ = in;
    return in;
  }

  // The indices (under `m`) at which `e` reads the array symbol `sym`.
  static void readIndices(ExprRef e, ExprRef sym, const smt::Model& m, std::set<BigInt>& out) {
    forEachNode(e, [&](ExprRef x) {
      if (x->op != Op::Select) return;
      ExprRef base = x->kid(0);
      while (base->op == Op::Store) base = base->kid(0);
      if (base == sym)
        if (auto i = m.evalInt(x->kid(1))) out.insert(*i);
    });
  }

  Forest& f_;
  const ir::Program& p_;
  smt::Solver& solver_;
  const DseOptions& o_;
  Distances down_, any_;
  std::vector<uint32_t> downToTarget_, toTarget_;
  std::map<ir::CfaId, std::vector<uint32_t>> toCalls_;
  std::set<Target> tried_;
  std::map<ir::EdgeId, uint64_t> chosen_;
  Inputs last_;
  std::mt19937_64 rng_{o_.seed};
  uint64_t choices_ = 0;
  uint64_t cutRuns_ = 0;
  uint64_t concretized_ = 0;
  std::string cutReason_;
  bool unknown_ = false;
  std::string unknownReason_;
  DseResult r_;
};

}  // namespace

DseResult runDse(Forest& forest, smt::Solver& solver, const DseOptions& options) {
  return Dse(forest, solver, options).run();
}

}  // namespace tandem::testgen
