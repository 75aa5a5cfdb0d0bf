// What a search asks of a partial-order reduction at each expanded state: given all its
// successors (with the moves that made them), which to explore. PorReducer (por_reducer.h) is
// the one the CLI uses; the multi-core explorer knows only this interface, so that its tests can
// run it with a reduction of their own.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "mc/search/transition_system.h"

namespace tandem::search {

// A successor as the reduction sees it: the transition(s) that produced it.
struct PorMove {
  uint32_t thread = 0;
  ir::EdgeId edge = ir::kNone;  // the first edge of the move
  uint32_t partner = kNoPartner;
  ir::EdgeId partnerEdge = ir::kNone;
  static PorMove of(const Move& m) {
    return {m.thread, m.edges.empty() ? ir::kNone : m.edges[0], m.partner, m.partnerEdge};
  }
};

class SuccessorReducer {
 public:
  virtual ~SuccessorReducer() = default;
  // Marks in `keep` the successors of `state` to explore (sys has just expanded it into
  // successors made by `moves`); `expanded(i)`: whether successor i is a state already expanded
  // (or `state` itself). Returns whether some were dropped.
  virtual bool selectAt(TransitionSystem& sys, std::string_view state,
                        const std::vector<PorMove>& moves,
                        const std::function<bool(size_t)>& expanded, std::vector<char>& keep) = 0;
};

}  // namespace tandem::search
