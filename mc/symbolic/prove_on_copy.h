// What the engine hands down to the analyses that prove variants of the program (`prove
// --annotate`, fabricate/annotate.h; `cover --prove-infeasible`, cover/prove_infeasible.h): a
// prove run on a rewritten copy (Program::clone), which lives above these layers (`prove` is the
// engine's command).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mc/ir/program.h"

namespace tandem::symbolic {

struct ProveOnCopy {
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
