// Tandem expressions as SMT-LIB 2 text (the encoding is encoder.h's, the same as the back ends'),
// for the query log and for reports: a formula set becomes a standalone script.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "mc/expr/expr.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

class SmtLibTranslator {
 public:
  explicit SmtLibTranslator(TermNaming naming);
  ~SmtLibTranslator();
  SmtLibTranslator(const SmtLibTranslator&) = delete;
  SmtLibTranslator& operator=(const SmtLibTranslator&) = delete;

  // A standalone script checking the conjunction of `formulas` and their side constraints:
  // (set-logic ALL), declarations, definitions of shared or deep subterms, one assert per
  // formula, (check-sat). Throws SmtUnsupported for formulas outside the translation.
  std::string script(std::span<const ExprRef> formulas);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tandem::smt
