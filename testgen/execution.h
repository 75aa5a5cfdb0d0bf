// One execution of the program on concrete inputs, recording intraprocedural paths (the
// "execute" step of Anand, Godefroid, Tillmann, TACAS'08, Algorithm 1). THE symbolic transfer
// relation runs every edge, on the symbols of the procedure running, while a valuation of those
// symbols (the inputs, or a call's arguments and the results of the calls made so far) decides
// each condition: only the branch the concrete run takes goes on, and the conditions of the
// other edges are recorded as dangling nodes. A call of a summarised procedure runs as an
// invocation of its own (on its parameter symbols, valued by the arguments), and the caller
// goes on with the call's result symbol, valued by what the invocation returned. Complex terms
// (natives, non-linear arithmetic) take their values on the run, as DART does.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "mc/exec/value.h"
#include "mc/symbolic/symbolic_explorer.h"
#include "testgen/forest.h"

namespace tandem::testgen {

// Values of the entry's input symbols; a symbol without one takes its type's default.
using Inputs = std::map<ExprRef, exec::Value>;

struct ExecutionResult {
  enum class End : uint8_t { Returned, Failed, Blocked, Cut };
  End end = End::Returned;
  std::string reason;  // Cut: why (a bound, or a condition the run could not evaluate)
  // Complex terms (calls inside expressions, non-linear arithmetic) that took their values on the
  // run: the conditions they were in lost their dependence on the inputs.
  uint64_t concretized = 0;
  // The whole execution's edges (summarised calls spliced in), inputs and error, in the form
  // a concrete replay takes (symbolic/replay.h).
  symbolic::PathEnd path;
};

ExecutionResult execute(Forest& forest, const Inputs& inputs);

}  // namespace tandem::testgen
