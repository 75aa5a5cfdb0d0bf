// The one walk over an expression DAG that visits each shared node once (path conditions are
// DAGs whose trees grow exponentially): every "does some node ...", "collect the ... below" and
// "visit below these roots" goes through forEachNode.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "mc/expr/expr.h"

namespace tandem {

// What a visit says of the walk: go into the node's kids, pass over them, or stop.
enum class Walk : uint8_t { Into, Over, Stop };

// Visits each node below `roots` once, depth first: `visit(e)` returns nothing (Into), a bool
// (true: Into, false: Over) or a Walk. Roots and kids are visited last to first, unless
// `leftToRight` (the kids in pre-order as written). False when a visit stopped the walk.
template <typename Visit>
bool forEachNode(std::span<const ExprRef> roots, Visit&& visit, bool leftToRight = false) {
  std::vector<ExprRef> todo(roots.begin(), roots.end());
  std::unordered_set<ExprRef> seen;
  while (!todo.empty()) {
    ExprRef e = todo.back();
    todo.pop_back();
    if (!seen.insert(e).second) continue;
    using R = std::invoke_result_t<Visit&, ExprRef>;
    if constexpr (std::is_void_v<R>) {
      visit(e);
    } else if constexpr (std::is_same_v<R, bool>) {
      if (!visit(e)) continue;
    } else {
      const Walk w = visit(e);
      if (w == Walk::Stop) return false;
      if (w == Walk::Over) continue;
    }
    if (leftToRight)
      for (size_t i = e->kids.size(); i-- > 0;) todo.push_back(e->kids[i]);
    else
      for (ExprRef k : e->kids) todo.push_back(k);
  }
  return true;
}

template <typename Visit>
bool forEachNode(ExprRef root, Visit&& visit, bool leftToRight = false) {
  return forEachNode(std::span<const ExprRef>(&root, 1), std::forward<Visit>(visit), leftToRight);
}

// Whether some node of `root` satisfies `pred`.
template <typename Pred>
bool anyNode(ExprRef root, Pred&& pred) {
  return !forEachNode(root, [&](ExprRef e) { return pred(e) ? Walk::Stop : Walk::Into; });
}

// Whether a node with operator `op` occurs in `root`.
inline bool mentionsOp(ExprRef root, Op op) {
  return anyNode(root, [op](ExprRef e) { return e->op == op; });
}

}  // namespace tandem
