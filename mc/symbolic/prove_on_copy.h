// What the engine hands down to the analyses that prove variants of the program (`prove
// --annotate`, fabricate/annotate.h; `cover --prove-infeasible`, cover/prove_infeasible.h): a
// fresh copy of the program to rewrite, and a prove run on the rewritten copy. Both live above
// these layers (the front ends read the file again; `prove` is the engine's command).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mc/ir/program.h"

namespace tandem::symbolic {

struct ProveOnCopy {
  // A fresh copy of the program, as loaded.
  std::function<std::unique_ptr<ir::Program>()> fresh;
  struct Outcome {
    enum class Kind : uint8_t { Proved, Error, Other };
    Kind kind = Kind::Other;
    std::string verdict;  // the verdict's name
    std::string reason;   // why it is not proved or error (empty when it is)
  };
  // One prove run on `q`, whose assertions are its only checks, within `seconds`.
  std::function<Outcome(ir::Program& q, double seconds)> prove;
};

}  // namespace tandem::symbolic
