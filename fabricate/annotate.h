// `prove --annotate OUT.tdm` (beyond Christakis, Mueller, Wuestholz, ICSE'16, where the
// annotations come from an outside analyzer): the program written back with annotations from
// Tandem's own partial results, so that `testgen --guide may-must` on OUT.tdm tests what the
// proof did not cover.
//
// Each assertion of the code the run covers (the entry and what it calls; every process of a
// closed system) is proved on its own, on a fresh copy of the program where it is the only check
// (the other assertions are assumed, implicit checks end executions silently: an execution that
// fails one never reaches the assertion):
// - proved: `verified true`;
// - else, proved once the wrapping i32/i64 `+` and `*` of its procedure are assumed not to
//   overflow (CBMC's and Clousot's usual unchecked assumption): `assumed no_overflow_add(x, y) as
//   tN;` before each such statement and `verified tK && ...`;
// - else `verified false`.
// The file is the source text with those edits (comments and layout kept). Each prove run gets
// what is left of the command's time (30 s without --timeout).
//
// The engine supplies the two steps outside this layer: a fresh copy of the program (the file read
// again) and a prove run on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"
#include "mc/symbolic/prove_on_copy.h"

namespace tandem::fabricate {

struct AnnotatedAssertion {
  enum class Result : uint8_t { Verified, Assumed, Unverified };
  uint32_t line = 0;
  std::string assertion;  // as written
  Result result = Result::Unverified;
  std::string premise;  // after `verified`
  std::string prove;    // the verdict of the first prove run ("not run": the budget ended first)
  std::optional<std::string> proveAssumingNoOverflow;  // the second run's, when there was one
  std::string reason;                                  // why no run was made
};
const char* resultName(AnnotatedAssertion::Result r);

struct Annotation {
  std::string text;  // the source with the edits
  std::vector<AnnotatedAssertion> assertions;
};

// `lines`: the model's source text, line by line; `entry`: the entry procedure (kNone for a
// closed system).
Annotation annotateAssertions(const ir::Program& p, ir::CfaId entry, std::vector<std::string> lines,
                              const symbolic::ProveOnCopy& hooks, search::Budget& budget);

}  // namespace tandem::fabricate
