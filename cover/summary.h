// Procedure summaries for `tandem cover --summaries` (Christ, Hoenicke, Schaef, Sect. 6): a
// callee's tests, each kept as the path it takes. A call of a summarised procedure is not
// inlined: the unwinding steps over it, and the verification condition takes one arc per test,
// whose condition is that test's path run from the caller's state (the path condition over the
// arguments and the havocs, and the result as a term of them). That is the disjunction of the
// callee's input/output relation over the paths its tests cover: every model is a real
// execution (the test's path is spliced into the caller's), and what the paths leave out is
// asked again with the callee inlined (cover/modular.h).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "mc/exec/result.h"
#include "mc/ir/program.h"

namespace tandem::cover {

// One test of the callee, run from its entry.
struct SummaryPair {
  std::optional<exec::ExecError> error;  // the test fails
  ir::EdgeId errorEdge = ir::kNone;      // the callee's edge that raised `error` (kNone: on entry)
  std::vector<ir::EdgeId> edges;         // the callee's path: its return or failing edge last
  std::vector<ir::LocId> locs;           // the locations it visits
};

struct Summary {
  std::vector<SummaryPair> pairs;
  // The callee's own locations that no execution from its entry reaches within the bound, for
  // any arguments: infeasible in every calling context too.
  std::vector<ir::LocId> infeasible;
  // The procedures its analysis reached (itself first).
  std::vector<ir::CfaId> procedures;
};

// The summaries by procedure; null: the procedure is inlined.
struct SummaryTable {
  std::vector<std::unique_ptr<Summary>> byCfa;
  const Summary* of(ir::CfaId c) const { return c < byCfa.size() ? byCfa[c].get() : nullptr; }
};

}  // namespace tandem::cover
