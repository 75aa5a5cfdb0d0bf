// The one solver interface of Tandem. Back ends (Z3, cvc5) and decorators (incremental solving,
// cache, independence slicing, SMT-LIB log, cross-check) implement it; solver_factory.h
// assembles a chain.
//
// Formulas are bool-typed expressions; their leaves (Op::Symbol, Op::Var) are free constants and
// their calls (Op::Call) uninterpreted functions. Assertions live in push scopes, so a
// backtracking explorer pushes when it branches and pops when it backtracks.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/check_result.h"
#include "mc/smt/model.h"
#include "mc/smt/solver_stats.h"

namespace tandem::smt {

struct Capabilities {
  bool incremental = false;  // push/pop keep learned facts instead of re-solving from scratch
  bool quantifiers = false;  // the back end's translator offers mkForall
  bool timeouts = false;     // setTimeout is honoured
};

// What ends a running check early, besides the per-query limit of setTimeout: the run's deadline
// (--timeout) and `stopNow` (SIGINT/SIGTERM, the memory limit), which a watchdog polls while the
// check runs. Such a check answers unknown with reason "timeout" or "interrupted". `stopNow`
// must be safe to call from another thread.
struct QueryStop {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::function<bool()> stopNow;
  bool any() const { return deadline.has_value() || static_cast<bool>(stopNow); }
};

class Solver {
 public:
  Solver() = default;
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  virtual ~Solver() = default;

  virtual std::string name() const = 0;  // e.g. "incremental(z3)"
  virtual Capabilities capabilities() const = 0;

  // Asserts a bool-typed formula in the current scope. Throws SmtUnsupported when the formula
  // is outside the translation (then nothing is asserted) and SmtError when it is not a formula.
  void add(ExprRef formula);
  // Satisfiability of the assertions (and the assumptions, which hold for this check only).
  CheckResult check() { return check(std::span<const ExprRef>{}); }
  CheckResult check(std::span<const ExprRef> assumptions);
  void push() { doPush(); }
  void pop(unsigned levels = 1) { doPop(levels); }  // SmtError when popping below level 0
  virtual unsigned level() const = 0;
  // The model of the last check. Throws SmtError unless that check answered sat.
  virtual const Model& model() const = 0;
  // When the last check answered unsat and this chain can tell: the positions of the assumptions
  // it rests on (an unsat core over them; the assertions hold in any case). Otherwise nullopt.
  virtual std::optional<std::vector<size_t>> unsatAssumptions() const { return std::nullopt; }
  // A limit for each later check, in milliseconds; 0 means none. A check that reaches it
  // answers unknown with reason "timeout".
  virtual void setTimeout(unsigned ms) = 0;
  // Applies to every later check. Decorators pass it down to every back end they hold.
  virtual void setQueryStop(QueryStop stop) { stop_ = std::move(stop); }
  // This solver's check counts plus the counters of every layer below it.
  SolverStats stats() const;
  // The run has stopped or passed its deadline (setQueryStop): every check now answers unknown,
  // so loops of queries may end at once.
  bool stopped() const { return stoppedBeforeCheck().has_value(); }

 protected:
  virtual void doAdd(ExprRef formula) = 0;
  virtual CheckResult doCheck(std::span<const ExprRef> assumptions) = 0;
  virtual void doPush() = 0;
  virtual void doPop(unsigned levels) = 0;
  // Adds the chain counters of this layer and the layers below.
  virtual void addChainStats(SolverStats& into) const = 0;
  // This layer's own check counts (the first group of SolverStats).
  const SolverStats& ownStats() const { return own_; }
  const QueryStop& queryStop() const { return stop_; }
  // The run stopped (or its deadline passed) before a check: its unknown answer, without starting.
  std::optional<CheckResult> stoppedBeforeCheck() const;

 private:
  SolverStats own_;
  QueryStop stop_;
};

}  // namespace tandem::smt
