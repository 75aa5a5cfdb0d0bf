// The static side of partial-order reduction (`check --por`): for a closed system, every
// transition (an edge of one thread: thread t taking edge e, with the rest of its `atomic`
// block) with the shared objects it reads and writes, which transitions depend on which, which
// are visible to the invariants, and the necessary enabling sets of Godefroid's and Valmari's
// stubborn sets (Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems",
// LNCS 1032, ch. 4; Valmari, "Stubborn sets for reduced state space generation", 1990), computed
// from the IR as LTSmin computes them from guards (Laarman, Pater, van de Pol, Hansen, "Guard-based
// partial-order reduction", STTT 2016). The per-state choice is por_reducer.h.
//
// Objects: a global scalar; an element of a global array (the index constant once `pid` is the
// thread's instance), or the whole array; a local of one thread; "thread t is at location L"
// (one object per location, so that a guard or invariant naming P[1]@CS depends only on the
// edges entering or leaving CS); a rendezvous channel. Two transitions are dependent when one
// writes an object the other reads or writes: they then may disable, enable or not commute with
// each other; independent ones commute and never enable or disable each other. What a
// transition reads covers everything its outcome depends on, its errors included (an index out
// of bounds, a division by zero, an overflow, a failing assertion).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::search {

class PorAnalysis {
 public:
  using Trans = uint32_t;  // a transition: one edge of one thread
  static constexpr Trans kNoTrans = UINT32_MAX;

  // The analysis of `p`, or null when the reduction does not apply (`why` says why): an open
  // system, calls, references, objects, dynamic arrays.
  static std::unique_ptr<const PorAnalysis> build(const ir::Program& p, std::string* why);

  uint32_t threadCount() const { return static_cast<uint32_t>(threadCfa_.size()); }
  size_t transitionCount() const { return trans_.size(); }
  // The transition of thread t taking edge e (kNoTrans if e is not an edge of t's CFA).
  Trans transition(uint32_t t, ir::EdgeId e) const;

  struct TransInfo {
    uint32_t thread = 0;
    ir::EdgeId edge = ir::kNone;
    ir::LocId from = ir::kNone, to = ir::kNone;
    bool sync = false;       // a rendezvous end: only ever part of a pair
    bool visible = false;    // writes an object some invariant reads
    uint32_t conjuncts = 0;  // guard conjuncts with their own enabling set (ir::conjuncts)
  };
  const TransInfo& info(Trans x) const { return trans_[x]; }
  // The transitions x depends on (x itself excluded).
  const std::vector<Trans>& dependents(Trans x) const { return dep_[x]; }
  // A necessary enabling set of x when its thread is at its location and guard conjunct k is
  // the first false one: the transitions that write what conjuncts 0..k read (those before k
  // may start to raise an error, which is a move too).
  const std::vector<Trans>& conjunctEnablers(Trans x, uint32_t k) const { return conjNes_[x][k]; }
  // A necessary enabling set of x when its thread is at its location but it did not happen for
  // a reason not pinned on one conjunct: the writers of everything it reads, and for a
  // rendezvous end the ends of the other direction on its channel.
  const std::vector<Trans>& enablers(Trans x) const { return nes_[x]; }
  // The transitions of thread t leaving location l (in edge order).
  const std::vector<Trans>& outOf(uint32_t t, ir::LocId l) const;
  // The index of location l within its CFA, and the number of locations of thread t.
  uint32_t locIndex(ir::LocId l) const { return locIndex_[l]; }
  size_t locationCount(uint32_t t) const { return outs_[t].size(); }
  // Whether location `to` can be reached from location `from` of the same CFA (0 or more edges).
  bool reaches(ir::LocId from, ir::LocId to) const;
  const std::vector<Trans>& visible() const { return visible_; }
  // Whether the transitions of thread t leaving l depend on no other thread's and none is
  // visible (SPIN's "safe" statements): where they are, they alone are a stubborn set.
  bool local(uint32_t t, ir::LocId l) const { return local_[t][locIndex_[l]]; }

 private:
  PorAnalysis() = default;
  class Builder;
  std::vector<ir::CfaId> threadCfa_;
  std::vector<uint32_t> threadFirst_;  // first transition of each thread
  std::vector<uint32_t> edgeIndex_;    // by EdgeId: index among its CFA's edges (or kNone)
  std::vector<TransInfo> trans_;
  std::vector<std::vector<Trans>> dep_, nes_;
  std::vector<std::vector<std::vector<Trans>>> conjNes_;
  std::vector<Trans> visible_;
  std::vector<std::vector<std::vector<Trans>>> outs_;  // by thread, by location index in its CFA
  std::vector<uint32_t> locIndex_;                     // by LocId: its index within its CFA
  std::vector<std::vector<uint64_t>> reach_;           // by LocId: bitset over its CFA's locations
  std::vector<std::vector<char>> local_;               // by thread, by location index
};

}  // namespace tandem::search
