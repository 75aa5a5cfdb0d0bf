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
#pragma once

#include <nlohmann/json.hpp>

#include "engine/request.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"

namespace tandem::engine {

// Writes r.annotate; returns one entry per assertion: {"line", "assertion", "result":
// "verified" | "assumed" | "unverified", "premise", "prove" (the verdict that decided it)}.
nlohmann::json annotateAssertions(const ir::Program& p, const ProveRequest& r,
                                  search::Budget& budget);

}  // namespace tandem::engine
