// The arguments of one cutpoint predicate: every scalar of a symbolic configuration at one
// location vector, in a fixed order (globals, then the frames' locals, bottom first). Fixed-length
// arrays count element by element and references as Int codes (0 is null, k the k-th address the
// prestates give the reference), so the predicates range over Int, Bool and bit-vectors only:
// the sorts every CHC solver takes.
#pragma once

#include <string>
#include <vector>

#include "mc/symbolic/sym_config.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::chc {

using symbolic::SymConfig;

class StateLayout {
 public:
  // `pres`: the prestates of one location vector (one per reference combination). Their
  // fixed-length arrays of scalars are put in element form (one fresh symbol per element), so the
  // clauses need no array theory. Throws symbolic::NotImplemented for objects, dynamic arrays and
  // the like.
  StateLayout(const ir::Program& p, const symbolic::SymEvaluator& sev,
              std::vector<SymConfig>& pres);

  const std::vector<TypeRef>& types() const { return types_; }  // references as int
  const std::vector<std::string>& names() const { return names_; }
  // The arguments for configuration `c` at this layout's locations, one per type.
  std::vector<ExprRef> args(const SymConfig& c) const;

 private:
  // A scalar or reference slot of a configuration, with its source-level name.
  struct Slot {
    std::string name;
    TypeRef type;
    symbolic::SymValue value;
  };
  std::vector<Slot> slots(const SymConfig& c) const;
  void slotsOf(const std::string& name, TypeRef t, const symbolic::SymValue& v,
               std::vector<Slot>& out) const;
  symbolic::SymValue elementForm(const std::string& name, TypeRef t,
                                 const symbolic::SymValue& v) const;
  void toElementForm(SymConfig& c) const;

  const ir::Program& p_;
  const symbolic::SymEvaluator& sev_;
  std::vector<TypeRef> types_;
  std::vector<std::string> names_;
  std::vector<std::vector<symbolic::SymAddress>> refCodes_;  // per reference, in slot order
};

// The initial configuration's array inputs (symbols of fixed-length arrays of scalars) in element
// form: `select(A, i)` in `conds` becomes the element's symbol, so the initial clause needs no
// array theory either. Where A is used otherwise (a symbolic index), `conds` also gets
// A[i] == element.
void inputsToElementForm(const ir::Program& p, const symbolic::SymEvaluator& sev, SymConfig& c,
                         std::vector<ExprRef>& conds);

}  // namespace tandem::chc
