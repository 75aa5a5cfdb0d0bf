// The tests of `testgen` and `cover` in their report, in every mode (the symbolic executor, the DSE
// loop of TACAS'08): each test with its inputs, result and divergence; line and branch coverage
// next to the labels; and the --tests-out files.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/exec/result.h"
#include "mc/ir/program.h"
#include "mc/symbolic/replay.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "report/report.h"

namespace tandem::report {

// Labels, source lines (of the statements) and branches (the guarded edges out of a location
// with several) of the entry and every procedure it calls, and which the tests' paths took.
class Coverage {
 public:
  Coverage(const ir::Program& p, ir::CfaId entry);
  void addPath(const std::vector<ir::EdgeId>& path);
  void addLabels(const std::vector<std::string>& labels);
  // The covered and uncovered labels, and the lines and branches, into `k`.
  void report(TestsKeys& k) const;
  const std::vector<std::string>& labels() const { return labels_; }

 private:
  const ir::Program& p_;
  std::vector<std::string> labels_, coveredLabels_;
  std::set<uint32_t> lines_, coveredLines_;
  std::vector<ir::EdgeId> branches_;
  std::vector<bool> taken_;  // per edge of the program
};

// One entry of a tests file: the entry's call with the test's arguments.
struct TestDeclLine {
  std::string call;    // `f(1, 2)`
  std::string result;  // pass, error, unknown
  size_t otherInputs;  // havocs and input globals, which a `test` declaration cannot give
};
// `test f(...);` per test, headed by `header` (a comment line); throws when it cannot write.
void writeTestDecls(const std::string& path, const std::string& header,
                    const std::vector<TestDeclLine>& tests);
// testgen --tests-out of the run on `file` from `entry`: declarations, or the tests' JSON when the
// name ends in `.json`.
void writeTestgenTests(const std::string& path, const std::string& file, const std::string& entry,
                       const std::vector<TestRecord>& tests,
                       const std::vector<TestDeclLine>& decls);

// The tests of one testgen run, recorded the same way in every mode (the symbolic executor, the
// DSE loop): each end is replayed concretely (the first failing one again with its states, for
// the trace) and becomes a test with its inputs, labels, result and divergence. A test fails
// only when the concrete run raises the error (difftest found a diverged replay that failed on
// the way while its path said pass). Coverage, the counts, the first error and the --tests-out
// lines follow.
class TestRecorder {
 public:
  TestRecorder(const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry, std::ostream* diag,
               std::string followed)
      : p_(p),
        ev_(ev),
        entry_(entry),
        diag_(diag),
        followed_(std::move(followed)),
        coverage_(p, entry) {}
  struct Recorded {
    TestRecord& test;
    const symbolic::Replay& replay;
  };
  // `cut`: an execution a bound cut off, with no end to compare with (its result is unknown).
  Recorded record(const symbolic::PathEnd& end, bool cut = false);
  // tests, coverage and the first failing test's error into the report; the counts into stats.
  void report(Report& rep) const;
  uint64_t failing() const { return failing_; }
  size_t size() const { return tests_.size(); }
  const std::vector<TestRecord>& tests() const { return tests_; }
  const std::vector<TestDeclLine>& decls() const { return decls_; }

 private:
  const ir::Program& p_;
  const exec::Evaluator& ev_;
  ir::CfaId entry_;
  std::ostream* diag_;
  std::string followed_;  // what a test follows, in warnings: "path", "execution"
  Coverage coverage_;
  std::vector<TestRecord> tests_;
  std::vector<TestDeclLine> decls_;
  symbolic::Replay last_;
  std::optional<ErrorInfo> error_;
  uint64_t divergences_ = 0, failing_ = 0;
};

}  // namespace tandem::report
