// Tandem expressions as cvc5 terms (the encoding is encoder.h's), cached per expression. In cvc5
// 1.0 the Solver object also makes the terms, so the translator borrows it, but it never asserts:
// the cvc5 session (cvc5_solver.cpp) owns what is asserted.
#pragma once

#include <cvc5/cvc5.h>

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

class Cvc5Translator {
 public:
  Cvc5Translator(cvc5::Solver& termFactory, TermNaming naming);
  ~Cvc5Translator();
  Cvc5Translator(const Cvc5Translator&) = delete;
  Cvc5Translator& operator=(const Cvc5Translator&) = delete;

  // As Z3Translator (z3_translate.h).
  cvc5::Term term(ExprRef e);
  std::optional<cvc5::Term> length(ExprRef e);
  cvc5::Term selectAt(ExprRef array, const BigInt& index);
  std::vector<cvc5::Term> sideConstraints(std::span<const ExprRef> roots);
  Quantified<cvc5::Term> mkForall(std::span<const ExprRef> vars, ExprRef body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tandem::smt
