// Loop unwinding for `tandem cover` (Christ, Hoenicke, Schaef, "Towards Bounded Infeasible Code
// Detection", Sect. 3): the entry procedure and the procedures it calls, inlined and unwound into
// a directed acyclic graph of location copies, without adding executions. A node is one copy of
// a location, named by its call stack (calls are inlined: each frame is its own copy of the
// callee's locals and labels) and by how many iterations each enclosing loop has done. A loop
// head whose K-th iteration ended keeps only its edges that leave the loop (the paper's Fig. 3:
// the last back edge goes to the exit, guarded by the exit condition); a call that would start a
// procedure already active K + 1 times is cut. Both only remove executions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cover/summary.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"

namespace tandem::cover {

// The loops of every procedure: back edges of a depth-first search from each entry, and the
// natural loop of each head (the head and every location that reaches a back edge's source
// without passing the head). Works on unstructured `goto` code as on structured loops.
class Loops {
 public:
  explicit Loops(const ir::Program& p);
  bool isBackEdge(ir::EdgeId e) const { return back_[e]; }
  // The loops containing `l`, by index, ascending.
  const std::vector<uint32_t>& loopsOf(ir::LocId l) const { return loopsOf_[l]; }
  ir::LocId head(uint32_t loop) const { return heads_[loop]; }
  bool contains(uint32_t loop, ir::LocId l) const;
  // The loop whose head `l` is, or ir::kNone.
  uint32_t loopAt(ir::LocId l) const { return loopAt_[l]; }

 private:
  std::vector<bool> back_;
  std::vector<ir::LocId> heads_;
  std::vector<std::vector<uint32_t>> loopsOf_;
  std::vector<uint32_t> loopAt_;
};

struct UnwindNode {
  ir::LocId loc = ir::kNone;      // the location this node copies
  std::vector<uint32_t> key;      // per frame: call edge, location, iteration counts
  std::vector<uint32_t> in, out;  // arcs
  uint32_t depth = 0;             // arcs on the longest path from the entry
};

// A step of the unwound program: edge `edge` out of node `from`, to node `to`, or (to ==
// ir::kNone) the bottom frame's return, which ends an execution.
struct UnwindArc {
  uint32_t from = ir::kNone;
  ir::EdgeId edge = ir::kNone;
  uint32_t to = ir::kNone;
};

class Unwinding {
 public:
  // Unwinds `entry` with at most `k` iterations of every loop and `k` nested recursive calls.
  // The budget's --max-states bounds the nodes and --max-depth the longest path; a bound or an
  // interrupt leaves the unwinding incomplete (stopped()). Throws symbolic::NotImplemented for
  // code the encoding does not express (processes, rendezvous). A call of a procedure that
  // `summaries` holds steps over the call in the caller's frame (the summary stands for it).
  Unwinding(const ir::Program& p, ir::CfaId entry, uint32_t k, search::Budget& budget,
            const SummaryTable* summaries = nullptr);

  const std::vector<UnwindNode>& nodes() const { return nodes_; }
  const std::vector<UnwindArc>& arcs() const { return arcs_; }
  // Every node after all its predecessors (node 0, the entry, first).
  const std::vector<uint32_t>& order() const { return order_; }
  // The procedures the unwinding reached (the entry first).
  const std::vector<ir::CfaId>& procedures() const { return cfas_; }
  bool stopped() const { return stopped_; }
  // Arcs the bound removed: a loop head's edges into its body after K iterations, calls past the
  // recursion bound. Zero means the unwound program has every execution of the original.
  uint64_t cuts() const { return cuts_; }
  // Whether some arc is a call that a summary stands for.
  bool summarised() const { return summarised_; }

 private:
  struct Frame {
    ir::EdgeId callEdge;
    ir::LocId pc;
    std::vector<uint32_t> counts;  // per loop of loopsOf(pc)
  };
  std::vector<Frame> decode(const std::vector<uint32_t>& key) const;
  static std::vector<uint32_t> encode(const std::vector<Frame>& frames);
  // The top frame moves from its location along `e` (to `to`): iteration counts follow.
  std::optional<Frame> move(const Frame& f, ir::EdgeId e, ir::LocId to) const;
  void sort();

  const ir::Program& p_;
  Loops loops_;
  uint32_t k_;
  search::Budget& budget_;
  std::vector<UnwindNode> nodes_;
  std::vector<UnwindArc> arcs_;
  std::vector<uint32_t> order_;
  std::vector<ir::CfaId> cfas_;
  bool stopped_ = false;
  bool summarised_ = false;
  uint64_t cuts_ = 0;
};

}  // namespace tandem::cover
