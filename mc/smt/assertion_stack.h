// The formulas asserted in each push scope, as the solver layers that keep their own copy (the
// back ends for model extraction, the cache for its keys, the log for its scripts) see them.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "mc/expr/expr.h"

namespace tandem::smt {

class AssertionStack {
 public:
  void add(ExprRef formula) { formulas_.push_back(formula); }
  void push() { marks_.push_back(formulas_.size()); }
  // Throws SmtError when asked to pop more scopes than were pushed.
  void pop(unsigned levels);
  unsigned level() const { return static_cast<unsigned>(marks_.size()); }
  std::span<const ExprRef> formulas() const { return formulas_; }
  // The formulas followed by `extra` (a check's assumptions).
  std::vector<ExprRef> with(std::span<const ExprRef> extra) const;
  // Rebuilds the stack elsewhere: add(formula) and push() in the original order.
  template <class Add, class Push>
  void replay(Add add, Push push) const {
    size_t next = 0;
    for (size_t mark : marks_) {
      for (; next < mark; ++next) add(formulas_[next]);
      push();
    }
    for (; next < formulas_.size(); ++next) add(formulas_[next]);
  }

 private:
  std::vector<ExprRef> formulas_;
  std::vector<size_t> marks_;
};

}  // namespace tandem::smt
