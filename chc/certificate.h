// prove --certificate: a proof's invariant as SMT-LIB definitions of the predicates of Horn
// clauses, in CHC-COMP's model format (`(define-fun P ((x Int) ...) Bool body)` per predicate),
// which z3 and cvc5 check against the clauses independently of Tandem
// (scripts/validate-certificate).
#pragma once

#include <string>
#include <vector>

#include "mc/smt/smtlib_translate.h"

namespace tandem::chc {

class CertificateWriter {
 public:
  explicit CertificateWriter(smt::TermNaming naming);

  // P's definition: `params` are its arguments (distinct symbols), in order; leaves of `body`
  // that are not among them are existentially quantified. `comment` goes on the line above.
  // Throws Unsupported for terms outside the translation.
  void define(const std::string& pred, const std::vector<ExprRef>& params, ExprRef body,
              const std::string& comment);
  // `header` (comment lines), then the definitions.
  std::string text(const std::string& header) const;
  size_t definitions() const { return defs_.size(); }

 private:
  smt::SmtLibTranslator translator_;
  std::vector<std::string> defs_;
};

}  // namespace tandem::chc
