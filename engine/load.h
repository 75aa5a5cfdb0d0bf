// The model of a command: a .tdm file through the Tandem front end, or a BEEM .dve model through
// the DVE importer, with the command line's extra invariants (`--invariant EXPR`).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::engine {

// Throws CommandError (input-error) with every diagnostic when the file cannot be read, parsed,
// checked or lowered.
// `testFiles`: files of `test` declarations added to the model's (check --tests).
std::unique_ptr<ir::Program> loadModel(const std::string& path,
                                       const std::vector<std::string>& invariants,
                                       const std::vector<std::string>& testFiles = {});

// `text` (an expression over the program's globals and process locations, as `--invariant` and
// `--predicates` give them) resolved against the lowered program; `where` names it in
// diagnostics ("--invariant", "preds.txt:3"), `what` in messages ("a predicate"). Throws
// CommandError (input-error) with the diagnostics.
ExprRef parseGlobalCondition(ir::Program& p, const std::string& text, const std::string& where,
                             const std::string& what);

}  // namespace tandem::engine
