// Intraprocedural execution trees (Anand, Godefroid, Tillmann, TACAS'08, Sect. 3): one per
// procedure the compositional search keeps apart (the entry, and every summarised procedure),
// over that procedure's own symbols: its parameters, and one symbol per call it makes of a
// summarised procedure (the k-th call along the path gets the procedure's k-th result symbol,
// standing for the uninterpreted application callee(args)). The symbols are the same in every
// execution, so the conditions of executions that share a prefix are the same expressions and
// their paths merge into one tree.
//
// A node is reached from its parent by one condition. A node some execution went through is
// explored; a node recorded only as the other side of a branch an execution did not take is
// dangling (TACAS'08's dangling nodes: the targets of the search); a dangling node proved
// unreachable by a query is marked so. An error branch (an implicit check or assertion that can
// fail) is a node whose condition is the failure. Calls of summarised procedures are made at the
// node where the path stands when it makes them; an execution ends at a node by returning (with
// the result as an expression over the procedure's symbols), failing, blocking (no edge could be
// taken) or being cut by a bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mc/exec/result.h"
#include "mc/expr/expr.h"
#include "mc/ir/program.h"

namespace tandem::testgen {

inline constexpr uint32_t kNoNode = UINT32_MAX;

// A call of a summarised procedure on an intraprocedural path.
struct CallSite {
  ir::CfaId callee = ir::kNone;
  ir::EdgeId edge = ir::kNone;
  std::vector<ExprRef> args;  // over the caller's symbols (arrays as array terms)
  ExprRef result = nullptr;   // the caller's result symbol (null: the call has no result)
  uint32_t ordinal = 0;       // the k-th call of summarised procedures along the path
};

struct TreeNode {
  ExprRef cond = nullptr;  // from the parent (null at the root)
  uint32_t parent = kNoNode;
  uint32_t depth = 0;           // conditions from the root
  ir::EdgeId edge = ir::kNone;  // the edge whose guard or check the condition is
  bool explored = false;
  bool unreachable = false;              // a query proved no execution reaches it
  bool tried = false;                    // a test was generated for it and did not reach it
  std::optional<exec::ExecError> error;  // an error branch: taking it raises this error
  std::vector<CallSite> calls;           // made at this node, in order
  std::vector<uint32_t> kids;
  // How executions ended here.
  bool returned = false, failed = false, blocked = false, cut = false;
  ExprRef ret = nullptr;  // returned: the result (null: no result)

  bool dangling() const { return !explored && !unreachable; }
};

class ExecTree {
 public:
  explicit ExecTree(ir::CfaId cfa) : cfa_(cfa), nodes_(1) { nodes_[0].explored = true; }

  ir::CfaId cfa() const { return cfa_; }
  const TreeNode& node(uint32_t n) const { return nodes_[n]; }
  TreeNode& node(uint32_t n) { return nodes_[n]; }
  size_t size() const { return nodes_.size(); }
  // The child of `n` reached by `cond`, made (dangling) if there is none.
  uint32_t child(uint32_t n, ExprRef cond, ir::EdgeId edge);
  // The conditions from the root to `n`, in order.
  std::vector<ExprRef> pathTo(uint32_t n) const;
  // Adds the call to node `n` unless it is there (every execution through `n` makes it).
  void addCall(uint32_t n, CallSite c);
  uint64_t dangling() const;
  // The nodes made dangling so far (some since explored or proved unreachable: check), in order.
  const std::vector<uint32_t>& candidates() const { return candidates_; }
  // Drops the entries of candidates() that are no longer dangling.
  void prune();

 private:
  ir::CfaId cfa_;
  std::vector<TreeNode> nodes_;
  std::vector<uint32_t> candidates_;
};

}  // namespace tandem::testgen
