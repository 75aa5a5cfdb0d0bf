// Resolving a parsed Tandem expression against an already lowered program, whatever language
// the program came from (a .tdm file or an imported .dve model). This serves expressions given
// outside the model: the CLI's `--invariant EXPR` and `--predicates FILE`.
//
// The scope is the program's global one: global variables, enum members (of the enum types the
// program's variables use), `P@L` / `P[i]@L` (process P is at the location labelled L),
// `P.v` / `P[i].v` (process P's local v; for a DVE model `P.s` with a state s also works), the
// operators of mc/lang/ast.h, array indexing, and the builtins `len`, `abs`, `min`, `max` and the
// conversions `int`, `i32`, `i64`. The type rules are the checker's (mc/lang/checker_expr.cpp):
// conditions are bool, arithmetic and comparisons take integers of one type, an integer literal
// takes the bit-vector type of the other operand. Named constants (`const`) are folded away by
// lowering, so they are not in scope.
#pragma once

#include <string>

#include "mc/expr/expr.h"
#include "mc/ir/program.h"
#include "mc/lang/ast.h"
#include "mc/lang/diagnostics.h"

namespace tandem {

// The IR expression for `e`, or null after reporting errors at `e`'s positions (unknown name,
// process or label, wrong operand types, constructs that have no meaning here).
ExprRef resolveGlobalExpr(const ast::Expr& e, ir::Program& p, Diagnostics& d);

// As resolveGlobalExpr, and the result must be bool ("WHAT must be 'bool', got 'int'").
ExprRef resolveGlobalCondition(const ast::Expr& e, ir::Program& p, Diagnostics& d,
                               const std::string& what = "the expression");

}  // namespace tandem
