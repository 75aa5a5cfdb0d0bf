// Which tests `testgen` keeps, in every mode (the symbolic executor, the DSE loop of TACAS'08), as
// KLEE users expect: one test per distinct error unless --all-errors; --max-tests and
// --exit-on-error end the search.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "mc/exec/result.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::testgen {

// Which tests are kept and when there are enough. An error is distinct by its kind and the
// statement (line and column) that raises it.
class TestBudget final : public symbolic::EndFilter {
 public:
  // --all-errors, --exit-on-error, --max-tests.
  TestBudget(bool allErrors, bool exitOnError, std::optional<uint64_t> maxTests)
      : allErrors_(allErrors), exitOnError_(exitOnError), maxTests_(maxTests) {}
  bool keep(const symbolic::PathEnd& end) override { return admit(end.error); }
  std::string enough() const override;
  // A test that ends in `error` (none: it does not fail): kept or, a repeated error, counted.
  bool admit(const std::optional<exec::ExecError>& error);
  uint64_t duplicates() const { return duplicates_; }

 private:
  bool allErrors_, exitOnError_;
  std::optional<uint64_t> maxTests_;
  std::set<std::tuple<int, uint32_t, uint32_t>> errors_;
  uint64_t kept_ = 0, failing_ = 0, duplicates_ = 0;
};

}  // namespace tandem::testgen
