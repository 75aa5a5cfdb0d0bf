// Prints an AST back as Tandem source in one canonical layout: 2-space indentation, one
// statement per line, labels in front of their statement, minimal parentheses (from operator
// precedence), comments dropped. Parsing the output gives the same tree again, so printing is
// idempotent: print(parse(print(parse(src)))) == print(parse(src)).
#pragma once

#include <string>

#include "mc/lang/ast.h"

namespace tandem {

std::string printProgram(const ast::Program& prog);
std::string printExpr(const ast::Expr& e);
std::string printType(const ast::TypeExpr& t);
// One statement (with its labels), each line indented by 2*indent spaces and ending in '\n'.
std::string printStmt(const ast::Stmt& s, int indent = 0);

}  // namespace tandem
