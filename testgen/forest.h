// What the dynamic symbolic execution loop keeps across executions (testgen/dse.h): the
// execution tree of the entry and of every summarised procedure, and the symbols their
// conditions are over (the same in every execution, so trees merge).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "mc/search/driver/budget.h"
#include "mc/symbolic/transfer.h"
#include "testgen/exec_tree.h"

namespace tandem::testgen {

class Forest {
 public:
  // `summarised[c]`: calls of CFA c run as invocations of their own, with a tree of their own
  // (all false: the baseline, whole-program paths in the entry's tree).
  Forest(symbolic::SymEvaluator& sev, const symbolic::Transfer& transfer, search::Budget& budget,
         ir::CfaId entry, std::vector<bool> summarised);

  const ir::Program& program() const { return p_; }
  ExprManager& exprs() const { return em_; }
  symbolic::SymEvaluator& evaluator() const { return sev_; }
  const symbolic::Transfer& transfer() const { return transfer_; }
  search::Budget& budget() const { return budget_; }
  ir::CfaId entry() const { return entry_; }
  bool summarised(ir::CfaId c) const { return summarised_[c]; }
  bool anySummarised() const;

  // The tree of the entry or of a summarised procedure (made on first use).
  ExecTree& tree(ir::CfaId c);
  const ExecTree* treeOf(ir::CfaId c) const { return trees_[c].get(); }
  // Parameter `i` of a summarised procedure `c`.
  const symbolic::SymValue& param(ir::CfaId c, size_t i);
  // The result of the `ordinal`-th call of a summarised procedure made by `caller`, by call edge
  // `edge`.
  ExprRef result(ir::CfaId caller, uint32_t ordinal, ir::EdgeId edge, TypeRef t);
  // The entry's `index`-th input of its kind.
  symbolic::SymValue input(symbolic::InputKind kind, size_t index, const std::string& name,
                           TypeRef t, ExprRef& symbol);
  // Every input symbol of the entry made so far, with its value form.
  std::vector<std::pair<ExprRef, symbolic::SymValue>> inputs() const;

 private:
  const ir::Program& p_;
  ExprManager& em_;
  symbolic::SymEvaluator& sev_;
  const symbolic::Transfer& transfer_;
  search::Budget& budget_;
  ir::CfaId entry_;
  std::vector<bool> summarised_;
  std::vector<std::unique_ptr<ExecTree>> trees_;
  std::map<std::pair<ir::CfaId, size_t>, symbolic::SymValue> params_;
  std::map<std::tuple<ir::CfaId, uint32_t, ir::EdgeId>, ExprRef> results_;
  std::map<std::pair<symbolic::InputKind, size_t>, std::pair<symbolic::SymValue, ExprRef>> inputs_;
};

}  // namespace tandem::testgen
