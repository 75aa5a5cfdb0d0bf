#include "testgen/exec_tree.h"

#include <algorithm>

namespace tandem::testgen {

uint32_t ExecTree::child(uint32_t n, ExprRef cond, ir::EdgeId edge) {
  for (uint32_t k : nodes_[n].kids)
    if (nodes_[k].cond == cond) return k;
  TreeNode t;
  t.cond = cond;
  t.parent = n;
  t.depth = nodes_[n].depth + 1;
  t.edge = edge;
  const auto id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(std::move(t));
  nodes_[n].kids.push_back(id);
  candidates_.push_back(id);
  return id;
}

std::vector<ExprRef> ExecTree::pathTo(uint32_t n) const {
  std::vector<ExprRef> out;
  for (; n != 0 && n != kNoNode; n = nodes_[n].parent) out.push_back(nodes_[n].cond);
  std::reverse(out.begin(), out.end());
  return out;
}

void ExecTree::addCall(uint32_t n, CallSite c) {
  for (const CallSite& old : nodes_[n].calls)
    if (old.ordinal == c.ordinal) return;
  nodes_[n].calls.push_back(std::move(c));
}

void ExecTree::prune() {
  std::erase_if(candidates_, [this](uint32_t n) { return !nodes_[n].dangling(); });
}

uint64_t ExecTree::dangling() const {
  return static_cast<uint64_t>(
      std::count_if(nodes_.begin(), nodes_.end(), [](const TreeNode& t) { return t.dangling(); }));
}

}  // namespace tandem::testgen
