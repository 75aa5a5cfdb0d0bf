// Lowering: a type-checked AST becomes the control-flow IR (mc/ir/program.h), with exactly the
// step semantics of LANGUAGE.md: every statement, including the condition of an `if`/`while`,
// is one step; `goto L`, `break`, `continue`, a bare `return;`, labels and block boundaries are
// jumps and take none.
#pragma once

#include <memory>
#include <string>

#include "mc/ir/program.h"
#include "mc/lang/ast.h"
#include "mc/lang/diagnostics.h"

namespace tandem {

// `types` is the table the checker used; the program takes ownership of it.
std::unique_ptr<ir::Program> lowerProgram(const ast::Program& ast, std::unique_ptr<TypeTable> types,
                                          Diagnostics& diags);

}  // namespace tandem
