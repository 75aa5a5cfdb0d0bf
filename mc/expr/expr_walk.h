// The walks over an expression DAG that visit each shared node once (path conditions are DAGs
// whose trees grow exponentially): every "does some node ...", "collect the ... below" and "visit
// below these roots" goes through forEachNode, every "compute a node from its kids' results"
// through postOrder.
#pragma once

#include <cstdint>
#include <iterator>
#include <ranges>
#include <span>
#include <type_traits>
#include <unordered_set>
#include <utility>
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

// Visits each node below `roots` after its kids, without recursion (path conditions are long
// left-nested conjunctions, deeper than the call stack). The caller keeps the memo: `done(n)`
// says a node needs no visit (visited already, or settled by the caller), and `visit(n)` must
// make it true. `enter(n)` runs when the walk first comes to a node, before its kids. Roots and
// kids go on the stack in order, so the last is visited first, unless `leftToRight`. `kidsOf(n)`
// lists a node's kids, so that other DAGs of terms (the SMT-LIB printer's) share the walk.
template <typename Roots, typename KidsOf, typename Done, typename Visit, typename Enter>
void postOrder(const Roots& roots, KidsOf&& kidsOf, Done&& done, Visit&& visit, Enter&& enter,
               bool leftToRight = false) {
  using Node = std::ranges::range_value_t<Roots>;
  std::vector<std::pair<Node, bool>> stack;  // a node, and whether its kids are on the stack
  auto pushUndone = [&](const auto& nodes) {
    if (leftToRight) {
      for (auto it = std::rbegin(nodes); it != std::rend(nodes); ++it)
        if (!done(*it)) stack.emplace_back(*it, false);
    } else {
      for (const Node& n : nodes)
        if (!done(n)) stack.emplace_back(n, false);
    }
  };
  pushUndone(roots);
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    if (done(n)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      enter(n);
      stack.back().second = true;
      pushUndone(kidsOf(n));
      continue;
    }
    stack.pop_back();
    visit(n);
  }
}

// postOrder over expressions and their kids as written; `enter` may be left out.
struct EnterNothing {
  void operator()(ExprRef) const {}
};
template <typename Done, typename Visit, typename Enter = EnterNothing>
void postOrder(std::span<const ExprRef> roots, Done&& done, Visit&& visit, Enter&& enter = {}) {
  postOrder(
      roots, [](ExprRef e) -> const auto& { return e->kids; }, done, visit, enter);
}
template <typename Done, typename Visit, typename Enter = EnterNothing>
void postOrder(ExprRef root, Done&& done, Visit&& visit, Enter&& enter = {}) {
  postOrder(std::span<const ExprRef>(&root, 1), done, visit, enter);
}

}  // namespace tandem
