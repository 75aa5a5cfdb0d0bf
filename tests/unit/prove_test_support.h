// Shared helpers of the prove_*_test.cpp files.
#pragma once

#include <set>
#include <string>

#include "fabricate/prover.h"

namespace tandem::test {

// The abstract states of a result as "location: formula" texts, to compare two runs.
inline std::set<std::string> abstractStateTexts(const ir::Program& p, const exec::Evaluator& ev,
                                                const fabricate::ProveResult& r) {
  abstraction::Abstraction abs(p, ev, {});
  std::set<std::string> out;
  for (const auto& n : r.nodes)
    out.insert(abs.locationText(n.state.pcs) + ": " + abs.formulaText(n.state));
  return out;
}

}  // namespace tandem::test
