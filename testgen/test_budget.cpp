#include "testgen/test_budget.h"

namespace tandem::testgen {

std::string TestBudget::enough() const {
  if (exitOnError_ && failing_) return "--exit-on-error: stopped at the first failing test";
  if (maxTests_ && kept_ >= *maxTests_)
    return "--max-tests " + std::to_string(*maxTests_) + ": the search stopped at that many tests";
  return "";
}

bool TestBudget::admit(const std::optional<exec::ExecError>& error) {
  if (error && !allErrors_ &&
      !errors_.emplace(static_cast<int>(error->kind), error->loc.line, error->loc.col).second) {
    ++duplicates_;
    return false;
  }
  ++kept_;
  failing_ += error.has_value();
  return true;
}

}  // namespace tandem::testgen
