#include "mc/smt/assertion_stack.h"

#include <string>

#include "mc/smt/smt_error.h"

namespace tandem::smt {

void AssertionStack::pop(unsigned levels) {
  if (levels > marks_.size())
    throw SmtError("pop(" + std::to_string(levels) + ") at push level " +
                   std::to_string(marks_.size()));
  if (levels == 0) return;
  const size_t keep = marks_[marks_.size() - levels];
  marks_.resize(marks_.size() - levels);
  formulas_.resize(keep);
}

std::vector<ExprRef> AssertionStack::with(std::span<const ExprRef> extra) const {
  std::vector<ExprRef> all(formulas_.begin(), formulas_.end());
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

}  // namespace tandem::smt
