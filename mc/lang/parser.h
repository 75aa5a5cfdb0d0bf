// The parser: a hand-written recursive descent over the lexer's tokens, building the AST of
// mc/lang/ast.h. Syntax errors go to Diagnostics; after each one the parser skips to the next
// `;` or closing `}` (or top-level keyword) and continues, so one run reports several errors.
// Nesting deeper than kMaxNesting (parentheses, blocks, prefix and postfix operators) is an error.
// A chain of binary operators is no nesting: it is parsed by a loop at any length, and the passes
// that follow its (left-leaning) tree recursively run on the command's large stack (mc/main.cpp).
#pragma once

#include <memory>

#include "mc/lang/ast.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem {

inline constexpr int kMaxNesting = 256;

// A new syntax-tree node (an expression or statement of either front end's AST) of a kind at a
// position: how both parsers make theirs.
template <class Node>
std::unique_ptr<Node> makeNode(typename Node::Kind kind, SourceLoc loc) {
  auto n = std::make_unique<Node>();
  n->kind = kind;
  n->loc = loc;
  return n;
}

// Always returns a program, possibly partial when `diags` has errors.
std::unique_ptr<ast::Program> parseProgram(const SourceFile& file, Diagnostics& diags);

// One expression filling the whole file (e.g. the CLI's `--invariant EXPR`); tokens after it are
// an error. Returns null if there was any error.
ast::ExprPtr parseExpression(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem
