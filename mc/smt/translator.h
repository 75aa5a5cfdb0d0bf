// Tandem expressions as a back end's terms (the encoding is encoder.h's), cached per expression.
// The translator only builds terms; the back end's session owns what is asserted. One class for
// every back end: its terms are `TermType`, made by a `Factory` through `Builder`, encoder.h's
// builder over the back end's API. Each back end instantiates it in its own .cpp, where the
// builder is defined (z3_translate.h, cvc5_translate.h), so that API stays out of this header.
// Models are read back through the same terms (TranslatedModelSource).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/model_extract.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

template <class TermType, class Factory, class Builder>
class Translator {
 public:
  using Term = TermType;

  Translator(Factory& factory, TermNaming naming);
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

// A back end's model read through its translator: a scalar, length or element is the value of
// the term the translator made for it, which the back end reads.
template <class Tr>
class TranslatedModelSource : public ModelSource {
 public:
  explicit TranslatedModelSource(Tr& tr) : tr_(tr) {}

  std::optional<BigInt> scalar(ExprRef e) final { return value(tr_.term(e)); }
  std::optional<BigInt> length(ExprRef array) final {
    auto len = tr_.length(array);
    if (!len) return std::nullopt;
    return value(*len);
  }
  std::optional<BigInt> element(ExprRef array, const BigInt& index) final {
    return value(tr_.selectAt(array, index));
  }

 protected:
  // In the encoding of ModelSource::scalar: bool 0/1, bit-vectors signed, f64 bit patterns.
  virtual std::optional<BigInt> value(const typename Tr::Term& t) = 0;

 private:
  Tr& tr_;
};

}  // namespace tandem::smt
