// The DVE parser: a hand-written recursive descent over the DVE tokens (mc/dve/lexer.h) for the
// subset of NOTES.md. Operator precedence is C's, loosest first: `imply` (also `->` inside an
// expression), `||`/`or`, `&&`/`and`, `|`, `^`, `&`, `== !=`, `< <= > >=`, `<< >>`, `+ -`,
// `* / %`, then the prefix operators `! not - ~`; all binary operators are left-associative.
// Unsupported constructs (channels, `sync`, `commit`, `accept`, `assert`, `system sync`,
// `property`) are reported once each and skipped, so a syntax error after one still shows. A
// syntax error stops the parse (DVE files are generated; one precise error is enough).
#pragma once

#include <memory>

#include "mc/dve/ast.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem::dve {

// The model, or null after a syntax error. Unsupported constructs leave errors in `diags` but
// still return the (partial) model.
std::unique_ptr<Model> parse(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem::dve
