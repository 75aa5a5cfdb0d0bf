#include "mc/smt/solver.h"

#include <chrono>

#include "mc/smt/smt_error.h"
#include "mc/smt/solver_decorator.h"

namespace tandem::smt {

namespace {

void requireFormula(ExprRef f, const char* what) {
  if (!f) throw SmtError(std::string(what) + ": null formula");
  if (!f->type || f->type->kind != TypeKind::Bool)
    throw SmtError(std::string(what) + ": a formula must be bool-typed, got " +
                   (f->type ? typeToString(f->type) : std::string("an untyped expression")));
}

}  // namespace

void Solver::add(ExprRef formula) {
  requireFormula(formula, "Solver::add");
  doAdd(formula);
}

CheckResult Solver::check(std::span<const ExprRef> assumptions) {
  for (ExprRef a : assumptions) requireFormula(a, "Solver::check");
  const auto start = std::chrono::steady_clock::now();
  // Once the run has stopped, the outermost layer answers: the layers below would first do their
  // own work (an incremental layer's pops of bit-blasted f64 scopes took seconds each, so a run
  // overran --timeout 20 by 95 s, one query after another).
  std::optional<CheckResult> early = stoppedBeforeCheck();
  CheckResult r = early ? *early : doCheck(assumptions);
  own_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++own_.queries;
  ++(r.isSat() ? own_.sat : r.isUnsat() ? own_.unsat : own_.unknown);
  return r;
}

std::optional<CheckResult> Solver::stoppedBeforeCheck() const {
  if (stop_.stopNow && stop_.stopNow()) return CheckResult::unknown("interrupted");
  if (stop_.deadline && std::chrono::steady_clock::now() >= *stop_.deadline)
    return CheckResult::unknown("timeout");
  return std::nullopt;
}

SolverStats Solver::stats() const {
  SolverStats s;
  s.queries = own_.queries;
  s.sat = own_.sat;
  s.unsat = own_.unsat;
  s.unknown = own_.unknown;
  s.seconds = own_.seconds;
  addChainStats(s);
  return s;
}

SolverDecorator::SolverDecorator(std::unique_ptr<Solver> inner) : inner_(std::move(inner)) {
  if (!inner_) throw SmtError("a solver decorator needs a solver to wrap");
}

std::string SolverDecorator::wrappedName(const std::string& decorator) const {
  return decorator + "(" + inner_->name() + ")";
}

void SolverDecorator::addChainStats(SolverStats& into) const {
  into.addChainCounters(inner_->stats());
}

}  // namespace tandem::smt
