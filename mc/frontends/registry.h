// The input languages Tandem reads, each registered once: the files it takes (by extension),
// what it accepts besides the model, and its loader from text to ir::Program. The engine asks
// here which front end reads a file; adding a language adds one entry to registry.cpp (and its
// own folder beside mc/lang and mc/dve, lexing with mc/lang/scanner.h).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mc/ir/frontend.h"
#include "mc/ir/program.h"
#include "mc/lang/source.h"

namespace tandem::frontends {

struct LoadOptions {
  std::vector<std::string> invariants;  // --invariant EXPR: extra safety properties
  std::vector<std::string> testFiles;   // check --tests FILE (languages with `test` files)
};

struct FrontEnd {
  std::string_view name;         // "tdm", "dve"
  std::string_view description;  // for messages: "a DVE model"
  // Whole suffixes (".dve"); empty: every file no other front end takes.
  std::vector<std::string_view> extensions;
  // The model is in Tandem's own language: `test` files and `prove --annotate` apply to it.
  bool tandemSyntax = false;
  // The program, or null after printing the diagnostics to `err` (and appending them to
  // `collected` when given).
  std::unique_ptr<ir::Program> (*load)(const SourceFile& file, const LoadOptions& opts,
                                       std::ostream& err,
                                       std::vector<FileDiagnostic>* collected) = nullptr;
};

const std::vector<FrontEnd>& frontEnds();
// The front end that reads `path`.
const FrontEnd& frontEndFor(const std::string& path);

// `text` (an expression over the program's globals and process locations, as `--invariant` and
// `--predicates` give them) resolved against the lowered program; `where` names it in
// diagnostics ("--invariant", "preds.txt:3"), `what` in messages ("a predicate"). Null after
// printing the diagnostics.
ExprRef parseGlobalCondition(ir::Program& p, const std::string& text, const std::string& where,
                             const std::string& what, std::ostream& err,
                             std::vector<FileDiagnostic>* collected);

}  // namespace tandem::frontends
