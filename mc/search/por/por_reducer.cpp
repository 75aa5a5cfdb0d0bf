#include "mc/search/por/por_reducer.h"

#include <algorithm>

namespace tandem::search {

using Trans = PorAnalysis::Trans;

PorReducer::PorReducer(const PorAnalysis& a)
    : a_(a),
      mark_(a.transitionCount(), 0),
      enabled_(a.transitionCount(), 0),
      chosen_(a.transitionCount(), 0),
      conjStamp_(a.transitionCount(), 0),
      conjPick_(a.transitionCount(), 0),
      odds_(a.threadCount()) {
  for (uint32_t t = 0; t < a.threadCount(); ++t) odds_[t].resize(a.locationCount(t));
}

void PorReducer::push(Trans y) {
  if (mark_[y] == epoch_) return;
  mark_[y] = epoch_;
  work_.push_back(y);
  // An enabled transition of another thread: the candidate is given up (see the header).
  if (enabled(y) && a_.info(y).thread != seedThread_) foreign_ = true;
}

// The writers of what the guard of x reads up to its first false conjunct (once per state), or
// null when no conjunct is known false.
const std::vector<Trans>* PorReducer::falseConjunct(const State& s, Trans x) {
  const PorAnalysis::TransInfo& info = a_.info(x);
  if (info.conjuncts == 0 || !s.conjunct) return nullptr;
  if (conjStamp_[x] != stamp_) {
    conjStamp_[x] = stamp_;
    conjPick_[x] = kAll;
    for (uint32_t k = 0; k < info.conjuncts; ++k) {
      const auto holds = s.conjunct(info.thread, info.edge, k);
      if (!holds) break;  // unknown (or an error): the conjuncts after it prove nothing
      if (!*holds) {
        conjPick_[x] = k;
        break;
      }
    }
  }
  return conjPick_[x] == kAll ? nullptr : &a_.conjunctEnablers(x, conjPick_[x]);
}

// How much a necessary enabling set would add: its enabled transitions not yet in T, then the
// others (LTSmin's heuristic: enabled ones are what the reduction pays for).
size_t PorReducer::cost(const std::vector<Trans>& set) const {
  size_t c = 0;
  for (Trans y : set)
    if (mark_[y] != epoch_) c += enabled(y) ? set.size() + 1 : 1;
  return c;
}

size_t PorReducer::closure(const State& s, Trans seed, size_t bound, std::vector<Trans>& out) {
  if (++epoch_ == 0) {  // the stamps wrapped: start afresh
    std::fill(mark_.begin(), mark_.end(), 0);
    epoch_ = 1;
  }
  out.clear();
  work_.clear();
  seedThread_ = a_.info(seed).thread;
  foreign_ = false;
  push(seed);
  size_t popped = 0;
  bool visibleAdded = false;
  const std::vector<ir::LocId>& locs = *s.locations;
  while (!work_.empty()) {
    if (foreign_ || ++popped > kWorkBudget) return bound + 1;
    const Trans x = work_.back();
    work_.pop_back();
    const PorAnalysis::TransInfo& info = a_.info(x);
    if (enabled(x)) {
      out.push_back(x);
      if (out.size() > bound) return bound + 1;
      if (info.visible && !visibleAdded) {
        visibleAdded = true;
        for (Trans y : a_.visible()) push(y);
      }
      for (Trans y : a_.dependents(x)) push(y);
      continue;
    }
    // Disabled: one necessary enabling set. A guard conjunct false now stays false until what it
    // (or a conjunct before it) reads is written, wherever the thread is; a thread elsewhere must
    // first move towards the transition, by one of its transitions where it is now.
    const ir::LocId at = locs[info.thread];
    if (at != info.from) {
      towards_.clear();
      for (Trans y : a_.outOf(info.thread, at))
        if (a_.reaches(a_.info(y).to, info.from)) towards_.push_back(y);
      const size_t c = cost(towards_);
      const std::vector<Trans>* conj = c ? falseConjunct(s, x) : nullptr;
      if (!conj || c <= cost(*conj)) {
        for (Trans y : towards_) push(y);
        continue;
      }
      for (Trans y : *conj) push(y);
      continue;
    }
    const std::vector<Trans>* conj = falseConjunct(s, x);
    for (Trans y : conj ? *conj : a_.enablers(x)) push(y);
  }
  return out.size();
}

bool PorReducer::select(const State& s, const std::vector<PorMove>& moves,
                        std::vector<char>& keep) {
  keep.assign(moves.size(), 1);
  if (moves.size() < 2 || s.locations->size() != a_.threadCount()) return false;
  if (++stamp_ == 0) {
    std::fill(enabled_.begin(), enabled_.end(), 0);
    std::fill(conjStamp_.begin(), conjStamp_.end(), 0);
    std::fill(chosen_.begin(), chosen_.end(), 0);
    stamp_ = 1;
  }
  // The enabled transitions (both ends of a rendezvous), and one seed per thread.
  size_t total = 0;
  seeds_.clear();
  moveTrans_.clear();
  for (const PorMove& m : moves) {
    const Trans x = a_.transition(m.thread, m.edge);
    if (x == PorAnalysis::kNoTrans) return false;  // not a move of the analysed threads
    moveTrans_.push_back(x);
    Trans ends[2] = {x, PorAnalysis::kNoTrans};
    if (m.partner != kNoPartner) {
      ends[1] = a_.transition(m.partner, m.partnerEdge);
      if (ends[1] == PorAnalysis::kNoTrans) return false;
    }
    for (Trans y : ends) {
      if (y == PorAnalysis::kNoTrans || enabled_[y] == stamp_) continue;
      enabled_[y] = stamp_;
      ++total;
      if (seeds_.empty() || a_.info(seeds_.back()).thread != a_.info(y).thread) seeds_.push_back(y);
    }
  }
  if (total < 2) return false;
  // A thread whose transitions are all local where it is: they are a stubborn set by themselves
  // (the closure would add nothing), the cheap case SPIN reduces.
  const std::vector<ir::LocId>& locs = *s.locations;
  for (Trans seed : seeds_) {
    const uint32_t t = a_.info(seed).thread;
    if (!a_.local(t, locs[t])) continue;
    candidate_.clear();
    for (Trans x : a_.outOf(t, locs[t]))
      if (enabled(x)) candidate_.push_back(x);
    if (candidate_.size() < total && provisoHolds(s, moves)) {
      keep.assign(keep_.begin(), keep_.end());
      return true;
    }
  }
  // One candidate per seed, each smaller than the best so far; the smallest that passes the
  // proviso wins.
  size_t best = total;
  for (Trans seed : seeds_) {
    const PorAnalysis::TransInfo& info = a_.info(seed);
    Odds& odds = odds_[info.thread][a_.locIndex(info.from)];
    if (odds.tries >= kTrials && odds.wins * kRareWin < odds.tries) continue;  // hopeless here
    ++odds.tries;
    if (closure(s, seed, best - 1, candidate_) >= best || !provisoHolds(s, moves)) continue;
    ++odds.wins;
    best = candidate_.size();
    for (size_t i = 0; i < moves.size(); ++i) keep[i] = keep_[i];
    if (best == 1) break;
  }
  if (best == total) keep.assign(moves.size(), 1);
  return best < total;
}

// Marks in keep_ the successors of candidate_; false when one of them fails C3 (already
// expanded).
bool PorReducer::provisoHolds(const State& s, const std::vector<PorMove>& moves) {
  if (++chosenStamp_ == 0) {
    std::fill(chosen_.begin(), chosen_.end(), 0);
    chosenStamp_ = 1;
  }
  for (Trans x : candidate_) chosen_[x] = chosenStamp_;
  keep_.resize(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    const bool kept =
        chosen_[moveTrans_[i]] == chosenStamp_ ||
        (moves[i].partner != kNoPartner &&
         chosen_[a_.transition(moves[i].partner, moves[i].partnerEdge)] == chosenStamp_);
    keep_[i] = kept;
    if (kept && s.expanded(i)) return false;
  }
  return true;
}

}  // namespace tandem::search
