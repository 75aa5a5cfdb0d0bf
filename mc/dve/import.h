// The DVE importer: a BEEM/DiVinE `.dve` model becomes a closed ir::Program, one Process CFA per
// DVE process (see mc/dve/lower.h for the mapping and the byte/int semantics). The supported
// subset is the one of shared/external/NOTES.md: byte/int globals, 1-D arrays, `const`,
// processes with locals, `state`, `init`, `trans` with `guard` and `effect`, `system async;`.
#pragma once

#include <memory>

#include "mc/ir/program.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem {

// Null after reporting errors in `diags` (syntax errors; unsupported constructs such as
// channels, `sync`, `commit`, `accept`, `assert`, `system sync`, `property`; unknown names).
std::unique_ptr<ir::Program> importDve(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem
