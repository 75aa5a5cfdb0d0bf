#include "mc/symbolic/concretizer.h"

#include "mc/symbolic/path_solver.h"

namespace tandem::symbolic {

namespace {

// The operands as constants under `values`, or nullopt.
std::optional<std::vector<ExprRef>> constants(const exec::Evaluator& concrete, ExprManager& em,
                                              std::span<const ExprRef> operands,
                                              const SymbolValues& values) {
  std::vector<ExprRef> out;
  for (ExprRef op : operands) {
    auto c = evalConcretely(concrete, em, op, values);
    if (!c) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

}  // namespace

ExeConcretizer::ExeConcretizer(smt::Solver& solver, const exec::Evaluator& concrete)
    : solver_(solver), concrete_(concrete), em_(*concrete.program().exprs) {}

std::optional<std::vector<ExprRef>> ExeConcretizer::concretize(std::span<const ExprRef> operands,
                                                               ExprRef guard, const SymState& s) {
  std::vector<ExprRef> syms;
  for (ExprRef op : operands) collectSymbols(op, syms);
  SymbolValues known = fixedValues(s.pathCond);
  for (auto& [sym, v] : fixedValues(pending_)) known.emplace(sym, v);
  std::vector<ExprRef> unfixed;
  for (ExprRef sym : syms)
    if (!known.count(sym)) unfixed.push_back(sym);
  if (!unfixed.empty()) {
    // A solution of the path condition so far, where the term is reached.
    std::vector<ExprRef> formulas = s.pathCond;
    formulas.insert(formulas.end(), pending_.begin(), pending_.end());
    if (!guard->isTrue()) formulas.push_back(guard);
    smt::MinimizedModel mm = minimizeOver(solver_, em_, formulas, unfixed);
    if (!mm.model) {
      if (mm.result.isUnknown()) ++unknown_;
      return std::nullopt;  // unknown, or never reached here: the term stays symbolic
    }
    for (ExprRef sym : unfixed) {
      BigInt v = mm.model->evalInt(sym).value_or(BigInt(0));
      ExprRef pin = em_.mkEq(sym, constantFor(em_, sym->type, v));
      // Under a short-circuit context the term is evaluated only where the context holds.
      pending_.push_back(guard->isTrue() ? pin : em_.mkOr(em_.mkNot(guard), pin));
      known.emplace(sym, std::move(v));
    }
  }
  auto out = constants(concrete_, em_, operands, known);
  if (out) ++concretizations_;
  return out;
}

std::vector<ExprRef> ExeConcretizer::takeConstraints() { return std::exchange(pending_, {}); }

DartConcretizer::DartConcretizer(const exec::Evaluator& concrete, const SymbolValues& inputs)
    : concrete_(concrete), em_(*concrete.program().exprs), inputs_(inputs) {}

std::optional<std::vector<ExprRef>> DartConcretizer::concretize(std::span<const ExprRef> operands,
                                                                ExprRef, const SymState&) {
  auto out = constants(concrete_, em_, operands, inputs_);
  if (out) ++concretizations_;
  return out;
}

}  // namespace tandem::symbolic
