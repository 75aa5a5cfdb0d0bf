// Graphviz output of --dot: the state graph `check` explored, with the error path highlighted,
// the error drawn as a node of its own, edges labelled with process and statement, and a size
// limit; the abstract state graph of `prove`. Each graph carries a legend.
#pragma once

#include <iosfwd>
#include <string>

#include "abstraction/abstraction.h"
#include "fabricate/prover.h"
#include "mc/ir/program.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/state_codec.h"
#include "mc/search/trace.h"

namespace tandem::report {

struct CheckGraph {
  const ir::Program& program;
  const search::StateStore& store;
  const search::ExploreResult& result;  // its `graph`: the recorded transitions
  const search::StateCodec& codec;      // of the system that explored (decodes the store)
  const search::Trace* trace;           // the replayed counterexample, if any
  size_t limit;                         // states drawn at most (the error path besides)
};
void writeCheckDot(std::ostream& out, const CheckGraph& g);

void writeProveDot(std::ostream& out, const fabricate::ProveResult& r,
                   const abstraction::Abstraction& abs);

// --dot FILE: the graph into `path` (an input error when it cannot be written). `check`'s says on
// `diag` when it was cut at `limit` states.
void writeCheckDotFile(const std::string& path, const CheckGraph& g, std::ostream* diag);
void writeProveDotFile(const std::string& path, const fabricate::ProveResult& r,
                       const abstraction::Abstraction& abs);

}  // namespace tandem::report
