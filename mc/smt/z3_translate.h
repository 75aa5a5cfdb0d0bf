// Tandem expressions as Z3 terms (the encoding is encoder.h's), cached per expression. The
// translator only builds terms; the Z3 session (z3_solver.cpp) owns what is asserted.
#pragma once

#include <z3++.h>

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

class Z3Translator {
 public:
  Z3Translator(z3::context& ctx, TermNaming naming);
  ~Z3Translator();
  Z3Translator(const Z3Translator&) = delete;
  Z3Translator& operator=(const Z3Translator&) = delete;

  // The term of a scalar expression or the array part of an array expression. Throws
  // SmtUnsupported for expressions outside the translation.
  z3::expr term(ExprRef e);
  // The Int length of an array expression; nullopt for scalars.
  std::optional<z3::expr> length(ExprRef e);
  z3::expr selectAt(ExprRef array, const BigInt& index);
  // Enum ranges and lengths >= 0 of the leaves below already translated roots.
  std::vector<z3::expr> sideConstraints(std::span<const ExprRef> roots);
  // forall vars. body, over scalar leaves `vars`.
  Quantified<z3::expr> mkForall(std::span<const ExprRef> vars, ExprRef body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tandem::smt
