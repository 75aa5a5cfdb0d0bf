// Tandem expressions as a back end's terms (the encoding is encoder.h's), cached per expression.
// The translator only builds terms; the back end's session owns what is asserted. One class for
// every back end: `Terms` names the back end's Term, the Factory that makes terms, and the Builder
// (encoder.h) over its API. Each back end instantiates it in its own .cpp, where the builder is
// defined (z3_translate.h, cvc5_translate.h), so its API stays out of this header.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

template <class Terms>
class Translator {
 public:
  using Term = typename Terms::Term;

  Translator(typename Terms::Factory& factory, TermNaming naming);
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // The term of a scalar expression or the array part of an array expression. Throws
  // SmtUnsupported for expressions outside the translation.
  Term term(ExprRef e);
  // The Int length of an array expression; nullopt for scalars.
  std::optional<Term> length(ExprRef e);
  Term selectAt(ExprRef array, const BigInt& index);
  // Enum ranges and lengths >= 0 of the leaves below already translated roots.
  std::vector<Term> sideConstraints(std::span<const ExprRef> roots);
  // forall vars. body, over scalar leaves `vars`.
  Quantified<Term> mkForall(std::span<const ExprRef> vars, ExprRef body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tandem::smt
