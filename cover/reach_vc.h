// The reachability verification condition of an unwound program (Christ, Hoenicke, Schaef,
// Sect. 2 and 4): the program in passive form — every edge of the unwinding is executed once by
// THE symbolic transfer relation (mc/symbolic/transfer.h) from its node's state, and where
// several arcs meet, each differing value becomes a fresh constant equated to its incoming value
// on each arc (the single static assignment's phi) — so the formula is linear in the size of the
// unwound program. Values that no phi can join (references to different places, different
// objects) keep their paths apart: the node gets one copy per kind of state that meets there
// (in the programs of the paper, and without references, exactly one). One boolean `reach` per
// node copy and `taken` per arc:
//   taken(a) => reach(from) /\ cond(a) /\ phi(a) [/\ reach(to)]
//   reach(n) => \/ taken(in-arcs)   and   reach(n) => \/ taken(out-arcs)
// and the root (the entry's initial state) is reached. In every model, the taken arcs from the
// root to an end (a return of the entry, or an error) through any reached node form a path all
// of whose conditions hold: a real execution with the model's inputs. So a node is reachable
// within the bound iff the formula and its `reach` are satisfiable. Errors are arcs to an error
// end (the paper's conditional choice for assertions): a model that takes one is a failing test.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cover/unwind.h"
#include "mc/exec/result.h"
#include "mc/symbolic/transfer.h"

namespace tandem::cover {

// An input of the execution: an entry parameter, an input global or a havoc.
struct VcInput {
  symbolic::InputKind kind = symbolic::InputKind::Param;
  std::string name;
  TypeRef type = nullptr;
  symbolic::SymValue value;  // what the program reads (its model value is the input)
};

// A copy of an unwinding node: the states of the arcs that meet there and can be joined.
struct VcNode {
  uint32_t unwound = 0;  // the unwinding node
  ir::LocId loc = ir::kNone;
  ExprRef reach = nullptr;
};

struct VcArc {
  static constexpr uint32_t kRoot = UINT32_MAX - 1;  // `from`: the initial state
  static constexpr uint32_t kEnd = UINT32_MAX;       // `to`: the entry returns, or the error
  uint32_t from = kRoot;                             // a VcNode, or kRoot
  uint32_t to = kEnd;                                // a VcNode, or kEnd
  ir::EdgeId edge = ir::kNone;   // the IR edge; kNone: entering (or failing on entry)
  ExprRef taken = nullptr;       // the arc's boolean
  std::vector<uint32_t> havocs;  // inputs (indices into ReachVc::inputs()) read on the arc
  std::optional<exec::ExecError> error;
  uint32_t errorGroup = ir::kNone;  // errors: the same error of every unwound copy
  // A summarised call (cover/summary.h): the call edge and the callee's test the arc stands for.
  ir::EdgeId call = ir::kNone;
  const SummaryPair* pair = nullptr;
};

struct VcErrorGroup {
  ir::EdgeId edge = ir::kNone;  // kNone: on entry
  exec::ExecError error;
};
// The same error of the same edge (in any unwound copy, in any verification condition).
bool sameError(const VcErrorGroup& a, const VcErrorGroup& b);

class ReachVc {
 public:
  // Throws symbolic::NotImplemented for what the passive form cannot express (references or
  // objects that differ where paths meet, `old` across a join, processes).
  // The budget's time, memory and interrupt end the construction early (stopped()).
  // `summaries`: those of the unwinding; each summarised call is one arc per test of the callee,
  // or, with `anyResult`, one arc on which the callee returns any value (an over-approximation:
  // its models need not be executions, its unsat answers hold for the program).
  ReachVc(const ir::Program& p, const Unwinding& u, const symbolic::SymEvaluator& ev,
          std::array<bool, ir::kErrorKinds> tracked, ir::CfaId entry, search::Budget& budget,
          const SummaryTable* summaries = nullptr, bool anyResult = false);
  bool stopped() const { return stopped_; }

  // The formula, as clauses to assert.
  const std::vector<ExprRef>& clauses() const { return clauses_; }
  // The node copies, every one after all its predecessors.
  const std::vector<VcNode>& nodes() const { return nodes_; }
  ExprRef reach(uint32_t node) const { return nodes_[node].reach; }
  const std::vector<VcArc>& arcs() const { return arcs_; }
  // Arcs out of (into) a node copy, or out of the root (node kRoot).
  const std::vector<uint32_t>& out(uint32_t node) const;
  const std::vector<uint32_t>& in(uint32_t node) const { return in_[node]; }
  const std::vector<VcErrorGroup>& errorGroups() const { return errorGroups_; }
  // Inputs in the order the transfer asked for them: input globals, the entry's parameters (in
  // declaration order), then havocs.
  const std::vector<VcInput>& inputs() const { return inputs_; }

 private:
  class Policy;
  // The copies of unwinding node `n`, each with its state joined from the states its arcs bring
  // (the phi equations go to the arcs).
  std::vector<std::pair<uint32_t, symbolic::SymState>> join(const Unwinding& u, uint32_t n);
  symbolic::SymState joinStates(std::vector<std::pair<uint32_t, symbolic::SymState>>& incoming);
  void clauses();
  // Gives the arcs of one step (out of a node copy reached by `reachFrom`, or of the root) their
  // `taken` booleans.
  void name(const std::vector<uint32_t>& arcs, ExprRef reachFrom);
  uint32_t errorGroup(ir::EdgeId edge, const exec::ExecError& e);

  const ir::Program& p_;
  ExprManager& em_;
  const symbolic::SymEvaluator& ev_;
  symbolic::Transfer transfer_;
  const SummaryTable* summaries_;
  bool anyResult_;
  std::vector<VcNode> nodes_;
  std::vector<VcArc> arcs_;
  std::vector<ExprRef> cond_;  // per arc: its condition, then the phi equations of its target
  std::vector<std::vector<uint32_t>> in_, out_;
  std::vector<uint32_t> rootOut_;
  // Per unwinding node, until it is joined: the arcs that lead there and their states.
  std::vector<std::vector<std::pair<uint32_t, symbolic::SymState>>> pending_;
  std::vector<VcErrorGroup> errorGroups_;
  std::vector<VcInput> inputs_;
  std::vector<ExprRef> clauses_;
  bool stopped_ = false;
};

}  // namespace tandem::cover
