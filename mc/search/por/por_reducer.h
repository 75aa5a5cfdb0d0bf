// The dynamic side of partial-order reduction: given an expanded state's successors (all of
// them, computed as usual, with their moves), it keeps those of a stubborn set and drops the
// others. One object per exploring thread (it holds scratch space); the analysis is shared.
//
// The set T of transitions is closed under (Valmari's strong stubborn sets, as Godefroid's
// persistent sets are computed from them):
//   D1  an enabled transition in T brings every transition it depends on;
//   D2  a disabled one brings a necessary enabling set: its thread's moves towards its location
//       when the thread is elsewhere, else the writers of one false guard conjunct (the rendezvous
//       ends of the other direction, for a rendezvous);
//   V   an enabled visible one (writing what an invariant reads) brings every visible one;
// and it starts from one enabled transition (D0). The successors kept are those of the enabled
// transitions of T. The candidates are one per thread with an enabled transition: first the
// threads whose transitions where they are are local (por_analysis.h: no closure needed, SPIN's
// case), then a closure from each thread's first enabled transition, given up as soon as it
// brings an enabled transition of another thread or has looked at kWorkBudget transitions. Sets
// spanning several threads rarely paid off on BEEM and cost several times the successor
// computation (measured: docs/performance.md); of the candidates, the smallest that passes C3
// wins.
//
// C3, the cycle proviso: a candidate one of whose successors is a state already expanded (or the
// state itself) is refused; the state is fully expanded when every candidate is. On every cycle
// of the reduced graph, the state expanded last found its successor on the cycle expanded, so
// every cycle has a fully expanded state, whatever the search order (DFS, BFS, random: the
// "closed set" proviso of Evangelista and Pajault, "Solving the ignoring problem for partial
// order reduction", STTT 2010; a successor merely stored, waiting in the frontier, is no cycle).
//
// What it preserves (the states where an invariant fails, errors of steps, deadlocks). Let s be
// expanded, with a path s -w-> s' in the full graph and at s' an invariant false or an edge e
// that fails. If w (or e) has a transition of T, its first one x is enabled at s (D2: the ones
// before it cannot enable it) and commutes to the front (D1: they are independent of it), so
// s -x-> s1 -> ... s' is one shorter, and x's successor is kept. If none is in T, take any
// enabled x in T: it is independent of w and of e (D1), so from s1 = x(s) the same w leads to
// x(s'), where e still fails (it reads nothing x writes) and the invariant is still false (x is
// invisible: else by V every visible transition, one of them in w, would be in T). The length
// does not grow, and C3 forbids doing this forever around a cycle (the fully expanded state on
// it takes the first case). By induction the reduced search reaches a state where the violation
// is found; an edge's error is found at any expanded state where the edge runs, since every
// successor is computed before the reduction drops any. A deadlock is the case e = none: some
// transition of w is in T, since an enabled one in T stays enabled along w.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "mc/search/por/por_analysis.h"
#include "mc/search/por/successor_reducer.h"
#include "mc/search/transition_system.h"

namespace tandem::search {

class PorReducer final : public SuccessorReducer {
 public:
  explicit PorReducer(const PorAnalysis& a);

  // What the reduction asks of the expanded state.
  struct State {
    const std::vector<ir::LocId>* locations;  // of each thread
    // Whether guard conjunct k of thread t's edge e holds (nullopt: unknown).
    std::function<std::optional<bool>(uint32_t t, ir::EdgeId e, uint32_t k)> conjunct;
    // Whether successor i is a state already expanded (or the state at hand).
    std::function<bool(size_t i)> expanded;
  };
  // Marks in `keep` the successors to explore; returns whether some were dropped.
  bool select(const State& s, const std::vector<PorMove>& moves, std::vector<char>& keep);
  // select() at a state `sys` has just expanded.
  bool selectAt(TransitionSystem& sys, std::string_view state, const std::vector<PorMove>& moves,
                const std::function<bool(size_t)>& expanded, std::vector<char>& keep) override {
    sys.locations(state, locations_);
    const State s{&locations_,
                  [&](uint32_t t, ir::EdgeId e, uint32_t k) { return sys.guardConjunct(t, e, k); },
                  expanded};
    return select(s, moves, keep);
  }

 private:
  static constexpr uint32_t kAll = UINT32_MAX;  // no conjunct known false: all it reads
  // Transitions a closure looks at before it gives up (the state is then expanded in full).
  static constexpr size_t kWorkBudget = 64;
  // A closure from a thread at a location where, after kTrials tries, fewer than one in
  // kRareWin gave a set is not tried again (fischer's closures never succeed and doubled its
  // time). Skipping a candidate only forgoes a reduction.
  static constexpr uint32_t kTrials = 256, kRareWin = 64;
  struct Odds {
    uint32_t tries = 0, wins = 0;
  };
  bool enabled(PorAnalysis::Trans x) const { return enabled_[x] == stamp_; }
  void push(PorAnalysis::Trans y);
  const std::vector<PorAnalysis::Trans>* falseConjunct(const State& s, PorAnalysis::Trans x);
  size_t cost(const std::vector<PorAnalysis::Trans>& set) const;
  bool provisoHolds(const State& s, const std::vector<PorMove>& moves);
  // The stubborn set grown from `seed`: its enabled transitions into `out`, whose size it
  // returns; it stops once there are more than `bound` (such a set cannot win).
  size_t closure(const State& s, PorAnalysis::Trans seed, size_t bound,
                 std::vector<PorAnalysis::Trans>& out);

  const PorAnalysis& a_;
  // Stamps, so that nothing is cleared per state: in T (this closure), enabled (this state),
  // in the candidate under test, and the conjunct picked for a transition (this state).
  std::vector<uint32_t> mark_, enabled_, chosen_, conjStamp_, conjPick_;
  uint32_t epoch_ = 0, stamp_ = 0, chosenStamp_ = 0;
  uint32_t seedThread_ = 0;
  bool foreign_ = false;  // the closure brought an enabled transition of another thread
  std::vector<PorAnalysis::Trans> work_, seeds_, moveTrans_, candidate_, towards_;
  std::vector<char> keep_;
  std::vector<ir::LocId> locations_;     // selectAt's
  std::vector<std::vector<Odds>> odds_;  // by thread, by location index
};

}  // namespace tandem::search
