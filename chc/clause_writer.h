// Horn clauses as SMT-LIB2 text in the CHC-COMP format: `(declare-fun P (sorts) Bool)` per
// predicate and `(assert (forall (vars) (=> (and body-atom constraint) head)))` per clause, where
// predicate arguments are pairwise distinct variables (an argument that is not a free symbol gets
// a fresh variable and an equation in the constraint). Terms are encoder.h's encoding, printed by
// smtlib_translate.h with shared subterms let-bound.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mc/smt/smtlib_translate.h"

namespace tandem::chc {

struct Atom {
  std::string pred;
  std::vector<ExprRef> args;
  const std::vector<std::string>* names = nullptr;  // per argument, for fresh variables
};

class ClauseWriter {
 public:
  ClauseWriter(ExprManager& em, smt::TermNaming naming);

  // `comment` goes on the line above, after "; ".
  void declare(const std::string& pred, const std::vector<TypeRef>& types,
               const std::string& comment);
  // body ∧ constraint → head; no head means `false` (a query). A constraint that is constant
  // false gives no clause (false is returned). Throws Unsupported for calls and terms outside the
  // translation.
  bool clause(const std::string& comment, const std::optional<Atom>& body,
              std::vector<ExprRef> constraint, const std::optional<Atom>& head);

  size_t clauses() const { return clauses_.size(); }
  // The text held so far, in bytes (what script() will copy).
  size_t bytes() const { return bytes_; }
  // (set-logic HORN), the declarations, the clauses, and (check-sat) only when `complete`: a
  // system cut short by a bound must not look whole (a solver would answer sat on it). Moves
  // the clauses out (the text is often hundreds of MB), so it is called once.
  std::string script(const std::string& header, bool complete);

 private:
  // Arguments as distinct free symbols; equations for the others go into `constraint`.
  std::vector<ExprRef> variables(const Atom& a, std::vector<ExprRef>& constraint);

  ExprManager& em_;
  smt::SmtLibTranslator translator_;
  std::vector<std::string> declarations_, clauses_;
  size_t bytes_ = 0;
};

}  // namespace tandem::chc
