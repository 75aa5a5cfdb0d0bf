// The two baselines of ISSTA'11 that concretize complex terms during execution (Pasareanu,
// Rungta, Visser compare mixed solving with them, Sect. 2 and 5):
//   ExeConcretizer   EXE-style (Cadar et al., CCS'06): the first time a path evaluates a complex
//                    term, the symbols of its operands are pinned to a (minimised) solution of
//                    the path condition so far; the pins join the path condition and stay for
//                    the rest of the path, so later branches cannot change them.
//   DartConcretizer  DART-style (Godefroid, Klarlund, Sen, PLDI'05): the operands take their
//                    values on the current run's concrete inputs and no constraint is kept, so
//                    the constraint the term was in is simplified by its concrete value.
#pragma once

#include <cstdint>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

// A policy that replaces complex terms' operands by constants, with its counters.
class Concretizer : public ComplexTermPolicy {
 public:
  // Constraints made since the last call (EXE's pins): the explorer adds them to the path
  // condition of the state it just evaluated on.
  virtual std::vector<ExprRef> takeConstraints() { return {}; }
  uint64_t concretizations() const { return concretizations_; }
  uint64_t unknownAnswers() const { return unknown_; }

 protected:
  uint64_t concretizations_ = 0;
  uint64_t unknown_ = 0;
};

class ExeConcretizer final : public Concretizer {
 public:
  ExeConcretizer(smt::Solver& solver, const exec::Evaluator& concrete);
  std::optional<std::vector<ExprRef>> concretize(std::span<const ExprRef> operands, ExprRef guard,
                                                 const SymState& s) override;
  std::vector<ExprRef> takeConstraints() override;

 private:
  smt::Solver& solver_;
  const exec::Evaluator& concrete_;
  ExprManager& em_;
  std::vector<ExprRef> pending_;
};

class DartConcretizer final : public Concretizer {
 public:
  // `inputs`: the values of the run's input symbols (kept up to date by the DART driver).
  DartConcretizer(const exec::Evaluator& concrete, const SymbolValues& inputs);
  std::optional<std::vector<ExprRef>> concretize(std::span<const ExprRef> operands, ExprRef guard,
                                                 const SymState& s) override;

 private:
  const exec::Evaluator& concrete_;
  ExprManager& em_;
  const SymbolValues& inputs_;
};

}  // namespace tandem::symbolic
