// Complex terms of a path condition (Pasareanu, Rungta, Visser, ISSTA'11, Sect. 3): the parts a
// decision procedure cannot, or should not, reason about. They are
//   - calls (Op::Call) of natives, @concrete procedures and pure procedures, kept as
//     uninterpreted functions by the symbolic evaluator, and
//   - non-linear arithmetic: Mul, Div or Mod whose two operands are both non-constant (the
//     symbolic evaluator folds constants first, so `2 * x` and `x / 3` are linear).
// Mixed solving evaluates them concretely on solutions of the rest; EXE-style and DART-style
// concretization replace them by concrete values during execution. This file holds what those
// share: finding complex terms and their symbols, and evaluating terms on concrete values.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/exec/value.h"
#include "mc/expr/expr.h"

namespace tandem::symbolic {

// Values of symbols (Op::Symbol leaves), as BigInt: bool 0/1, enum member index, i32/i64 signed.
using SymbolValues = std::map<ExprRef, BigInt>;

// A non-linear operator node: Mul, Div or Mod with two non-constant operands.
bool isNonLinear(ExprRef e);
// A complex term itself: any call, or a non-linear node.
bool isComplexTerm(ExprRef e);
// `e` contains a complex term.
bool hasComplexTerm(ExprRef e);
// The maximal complex subterms of `e` (not inside another complex term), without duplicates, in
// the order they are first met.
void collectComplexTerms(ExprRef e, std::vector<ExprRef>& out);
// The symbols of `e`, appended to `out` without duplicates, in the order they are first met.
void collectSymbols(ExprRef e, std::vector<ExprRef>& out);
// The conjuncts of `e` (And nodes flattened), appended to `out`; constant `true` is dropped.
void flattenConjuncts(ExprRef e, std::vector<ExprRef>& out);

// `e` with every node found in `map` replaced by its image (the images are not visited). A node
// whose kids changed is rebuilt by `rebuild(node, kids)` when given (e.g. to fold constants),
// else as it was with the new kids.
using Rebuild = std::function<ExprRef(ExprRef, std::vector<ExprRef>)>;
ExprRef substitute(ExprManager& em, ExprRef e, const std::map<ExprRef, ExprRef>& map,
                   const Rebuild& rebuild = {});

// The constant expression of a scalar value of type `t`, and back (nullopt for non-constants).
ExprRef constantOf(ExprManager& em, const exec::Value& v, TypeRef t);
std::optional<exec::Value> valueOf(ExprRef constant);
// The constant of type `t` for a model value (bool 0/1, enum index, integers, an f64 bit pattern).
ExprRef constantFor(ExprManager& em, TypeRef t, const BigInt& v);

// The value of `e` when its symbols take `values`, computed by the concrete evaluator (so calls
// run their code): a constant expression, or nullopt when a symbol has no value or the concrete
// evaluation fails (an error of the called code, a call reading globals, a limit).
std::optional<ExprRef> evalConcretely(const exec::Evaluator& concrete, ExprManager& em, ExprRef e,
                                      const SymbolValues& values);

// Values that `conjuncts` fix: every conjunct `s == c` or `c == s` for a symbol s and constant c
// (as added when an input is pinned).
SymbolValues fixedValues(std::span<const ExprRef> conjuncts);

}  // namespace tandem::symbolic
