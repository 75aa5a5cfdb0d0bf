// Tandem expressions as SMT-LIB 2 text (the encoding is encoder.h's, the same as the back ends'),
// for the query log and for reports: a formula set becomes a standalone script. `terms` gives the
// pieces without a script around them, for callers that write their own (Horn clauses, chc/).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/smt/smt_ops.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

// "Bool", "Int", "(_ BitVec 32)".
std::string scalarSortText(ScalarSort s);

// Expressions as closed-over pieces: the caller binds `constants` (a forall, a declaration) and
// let-binds `definitions` in order around the terms that use them.
struct SmtLibTerms {
  std::vector<std::pair<std::string, std::string>> constants;    // (name, sort) of the leaves
  std::vector<std::pair<std::string, std::string>> definitions;  // (name, term), in order
  std::vector<std::string> sides;  // side constraints of the roots (enum ranges)
  std::vector<std::string> roots;  // one per root, in order
};

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
  // The roots (formulas or scalar terms) as pieces. Leaf names stay the same across calls on one
  // translator. Throws SmtUnsupported for uninterpreted functions and quantifiers, which a
  // caller's binding could not cover.
  SmtLibTerms terms(std::span<const ExprRef> roots);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tandem::smt
