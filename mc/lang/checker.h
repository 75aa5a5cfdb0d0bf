// Name resolution and type checking. Annotates the AST in place (types, what each name refers
// to, variables with their scope and slot) and reports every error it finds to Diagnostics.
// Lowering (mc/ir) runs only on a program that checked without errors.
#pragma once

#include "mc/expr/types.h"
#include "mc/lang/ast.h"
#include "mc/lang/diagnostics.h"

namespace tandem {

// Returns true when the program has no errors.
bool checkProgram(ast::Program& program, TypeTable& types, Diagnostics& diags);

// Checks a standalone expression (e.g. `--invariant EXPR`) in the global scope of a program
// that has already been checked: globals, constants, enum members, processes.
bool checkGlobalExpr(ast::Expr& expr, ast::Program& program, TypeTable& types, Diagnostics& diags);

// Checks `test` declarations of another file (check --tests FILE) against a program that has
// already been checked.
bool checkTests(std::vector<ast::TestDecl>& tests, ast::Program& program, TypeTable& types,
                Diagnostics& diags);

}  // namespace tandem
