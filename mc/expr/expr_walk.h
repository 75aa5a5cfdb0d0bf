// Walks over an expression DAG that visit each shared node once.
#pragma once

#include <unordered_set>
#include <vector>

#include "mc/expr/expr.h"

namespace tandem {

// Whether a node with operator `op` occurs in `root`.
inline bool mentionsOp(ExprRef root, Op op) {
  std::vector<ExprRef> todo{root};
  std::unordered_set<ExprRef> seen;
  while (!todo.empty()) {
    ExprRef e = todo.back();
    todo.pop_back();
    if (!seen.insert(e).second) continue;
    if (e->op == op) return true;
    for (ExprRef k : e->kids) todo.push_back(k);
  }
  return false;
}

}  // namespace tandem
