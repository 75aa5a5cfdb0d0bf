// The symbolic explorer's internals (one class, defined in three files by topic):
// symbolic_explorer.cpp (the search: expanding states, the policy's decisions, rounds, the
// outcome), sym_frames.cpp (entry states, inputs, method calls of the class analysis),
// sym_paths.cpp (ended paths: minimised models and their concrete inputs). What an edge does is
// the transfer relation's (transfer.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mc/search/driver/driver.h"
#include "mc/search/driver/searcher.h"
#include "mc/symbolic/sym_eval.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "mc/symbolic/transfer.h"

namespace tandem::symbolic {

// The explorer is the transfer relation's policy for SPF-style search (the path solver decides
// every condition as it is added, errors fork off as ended paths, inputs are (pooled) symbols)
// and the search driver's visitor.
class Explorer final : private TransferPolicy, private search::SearchVisitor {
 public:
  Explorer(const ir::Program& p, const exec::Evaluator& concrete, smt::Solver& solver,
           const ExploreOptions& o, Strategy strategy);

  ExploreResult run();

 private:
  // --- the search driver's visitor (symbolic_explorer.cpp) ---
  void expand(const search::FrontierEntry& e) override;
  bool finished() const override { return stop_; }
  bool refill() override;  // class analysis: the next round of method calls
  bool cut(const search::FrontierEntry& e) override;
  search::ProgressSample progress() const override;

  // --- symbolic_explorer.cpp ---
  void expand(const SymState& s);
  // The path condition `pc` (and `extra`) decided by the mode's path solver; on sat, the answer
  // certifies the inputs of the path.
  PcAnswer check(const std::vector<ExprRef>& pc, ExprRef extra);
  void noteUnknown(const std::string& reason);
  void noteUnknownCount(uint64_t n, const std::string& reason);
  void queue(std::unique_ptr<SymState> n);
  void finish(const std::string& cut);

  // The TransferPolicy. Errors fork off once per expanded state and check (the same implicit
  // check is met on every edge out of a state whose guards read it).
  bool feasible(SymState& s) override;
  // Adds v to the path condition: false when that makes it infeasible.
  bool assume(SymState& s, ExprRef v);
  void fail(const SymState& s, ExprRef bad, const exec::ExecError& error, ir::EdgeId id) override;
  void successor(SymState&& s, ir::EdgeId id) override;
  // The `invariant`s in state `s` (reached by its last path edge, or the entry state): a state
  // that can violate one ends a path with that error, and they are assumed from there on. False
  // when the path cannot go on.
  bool invariantsHold(SymState& s, bool atEntry);
  // --guide: `assume May` and `tryfirst Must` where `s` arrives in the entry's frame. False when
  // the path does not go on now (pruned, infeasible, or set aside until the others are done).
  bool guide(SymState& s);
  // --guide: `s` took edge `id`; an assertion without its premise or an implicit check makes the
  // execution unverified (SymState::unverified).
  void noteUnverified(SymState& s, ir::EdgeId id);
  void returned(const SymState& s, ir::EdgeId id) override;
  // Constraints the concretizer made (EXE's pins) join the path condition.
  void absorb(SymState& s) override;
  bool stopped() const override { return stop_; }

  // --- sym_frames.cpp ---
  std::unique_ptr<SymState> entryState();
  // The bottom frame of `s` returned: the path ends, or (class analysis) `s` is at a method
  // boundary and every method starts.
  void boundary(const SymState& s);
  std::unique_ptr<SymState> startMethod(const SymState& s, ir::CfaId method);
  // A fresh input (SymEvaluator::freshInput; DART: the pool's symbol of its kind and index),
  // recorded where the path's concrete inputs are read from: the entry's parameters and input
  // globals, SymState::havocs, the arguments of the last method call. The reference
  // evaluator's limit on array lengths goes to the limits of `s`.
  SymValue input(SymState& s, InputKind kind, TypeRef t, const std::string& name) override;

  // --- sym_paths.cpp ---
  void endPath(const SymState& s, std::optional<exec::ExecError> error,
               std::optional<ir::EdgeId> lastEdge, bool atEntry = false);
  exec::Value modelValue(const smt::Model& m, ExprRef sym) const;

  const ir::Program& p_;
  ExprManager& em_;
  const exec::Evaluator& concrete_;
  SymEvaluator ev_;
  Transfer transfer_;
  smt::Solver& solver_;
  PathSolver& pcs_;
  Concretizer* concretizer_;
  SymbolPool* symbols_;
  const ExploreOptions& o_;
  ExploreResult r_;
  std::unique_ptr<search::Budget> ownBudget_;  // when the options give none
  search::Budget& budget_;
  std::unique_ptr<search::Searcher> searcher_;
  std::vector<std::unique_ptr<SymState>> slots_;
  std::vector<std::unique_ptr<SymState>> nextRound_;  // class analysis: states with one call more
  std::vector<std::unique_ptr<SymState>> deferred_;   // --guide: interrupted by `tryfirst`
  std::unordered_set<ir::LocId> seenLocs_;
  std::unordered_set<ExprRef> reported_;  // error conditions forked from the current state
  std::vector<ExprRef> paramSyms_;
  std::vector<std::pair<std::string, ExprRef>> globalSyms_;
  bool classMode_ = false;
  uint32_t classIndex_ = ir::kNone;
  exec::ObjectId self_ = exec::kNoObject;  // class analysis: the object under analysis
  uint64_t round_ = 0;                     // class analysis: method calls of the current round
  bool stop_ = false;
  std::string unknownReason_;
};

}  // namespace tandem::symbolic
