// The symbolic explorer's internals (one class, defined in three files by topic):
// symbolic_explorer.cpp (the search: expanding states, steps, obligations, rounds, the outcome),
// sym_frames.cpp (entry states, call frames, objects, method calls of the class analysis),
// sym_paths.cpp (ended paths: minimised models and their concrete inputs).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mc/search/driver.h"
#include "mc/search/searcher.h"
#include "mc/symbolic/sym_eval.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::symbolic {

class Explorer final : private search::SearchVisitor {
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
  // Executes edge `id` on a copy of `s`; queues the successor if it is feasible.
  void step(const SymState& s, ir::EdgeId id);
  // Forks the tracked errors of `obls` off `n` (once per state and obligation) and assumes the
  // obligations hold. `id` is the edge that evaluates them, or ir::kNone for the entry of the
  // top frame (its field initialisers and entry declarations). False when `n` became infeasible
  // or undecided.
  bool require(SymState& n, const std::vector<Obligation>& obls, ir::EdgeId id);
  // Adds `cond` to the path condition; false when that is infeasible or undecided.
  bool assume(SymState& n, ExprRef cond);
  // The path condition `pc` (and `extra`) decided by the mode's path solver; on sat, the answer
  // certifies the inputs of the path.
  PcAnswer check(const std::vector<ExprRef>& pc, ExprRef extra);
  void noteUnknown(const std::string& reason);
  void noteUnknownCount(uint64_t n, const std::string& reason);
  // Evaluation on `n`; constraints the concretizer made (EXE's pins) join n's path condition.
  SymValue eval(SymState& n, ExprRef e, std::vector<Obligation>& obls);
  SymLvalue lvalue(SymState& n, ExprRef e, std::vector<Obligation>& obls);
  void absorb(SymState& n);
  void queue(std::unique_ptr<SymState> n);
  void finish(const std::string& cut);

  // --- sym_frames.cpp ---
  std::unique_ptr<SymState> entryState();
  void initGlobals(SymState& s);
  // A frame of `cfa` at its entry, every local at its default value.
  SymFrame makeFrame(ir::CfaId cfa, exec::ObjectId self, ir::EdgeId callEdge) const;
  std::shared_ptr<const SymSnapshot> snapshot(const SymState& s) const;
  // Allocates an object of the class with default fields; its id.
  exec::ObjectId allocate(SymState& s, uint32_t classIndex) const;
  // Runs the field initialisers of the object the top frame (a class initialiser) constructs.
  bool initFields(SymState& s, ir::EdgeId id);
  // A Call edge: pushes the callee's frame (allocating the object of `new C(...)`).
  bool pushCall(SymState& n, const ir::Edge& edge, ir::EdgeId id, std::vector<SymValue> args);
  // Assignments in parallel (a command) or one after another (entry declarations).
  bool runAssignments(SymState& n, const std::vector<ir::Assignment>& as, bool parallel,
                      ir::EdgeId id);
  // Class analysis: `s` is at a method boundary; starts every method (or ends the path).
  void methodBoundary(const SymState& s);
  std::unique_ptr<SymState> startMethod(const SymState& s, ir::CfaId method);
  // A fresh input (SymEvaluator::freshInput); the reference evaluator's limit on array lengths
  // goes to the limits of `s`.
  // `pooled`: the input's kind and index, for a SymbolPool (DART keeps symbols across runs).
  SymValue input(SymState& s, TypeRef t, const std::string& name, ExprRef& symbol,
                 std::optional<std::pair<SymbolPool::Input, size_t>> pooled = std::nullopt);

  // --- sym_paths.cpp ---
  void endPath(const SymState& s, std::optional<exec::ExecError> error,
               std::optional<ir::EdgeId> lastEdge, bool atEntry = false);
  exec::Value modelValue(const smt::Model& m, ExprRef sym) const;

  const ir::Program& p_;
  ExprManager& em_;
  const exec::Evaluator& concrete_;
  SymEvaluator ev_;
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
  std::unordered_set<ir::LocId> seenLocs_;
  std::unordered_set<ExprRef> reported_;  // obligations forked to errors from the current state
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
