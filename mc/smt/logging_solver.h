// SMT-LIB query log (--smt-log FILE): every check that reaches this layer is written, before it
// runs, as a standalone SMT-LIB 2 script ending in (check-sat), followed by the answer as a
// comment and (reset). `z3 FILE` or `cvc5 FILE` replays the whole log.
#pragma once

#include <memory>
#include <string>

#include "mc/smt/solver.h"
#include "mc/smt/term_naming.h"

namespace tandem::smt {

// Throws SmtError when `path` cannot be written.
std::unique_ptr<Solver> makeLoggingSolver(std::unique_ptr<Solver> inner, const std::string& path,
                                          TermNaming naming);

}  // namespace tandem::smt
