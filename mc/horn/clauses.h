// Horn clauses as Z3 parsed them: each `(assert ...)` of a CHC-COMP file becomes one clause
// `body ∧ constraint → head` over fresh constants for its universally quantified variables.
// Only linear clauses over Int and Bool are read (at most one predicate in a body); anything
// else is an Unsupported error naming the assertion or the predicate.
#pragma once

#include <z3++.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tandem::horn {

struct Clause {
  size_t assertion = 0;              // 0-based index of its `(assert ...)`
  std::vector<z3::expr> vars;        // the clause's variables (fresh constants)
  std::optional<z3::expr> body;      // the body's predicate application, if any
  std::vector<z3::expr> constraint;  // the body's other conjuncts
  std::optional<z3::expr> head;      // the head's predicate application; none: a query
};

struct Clauses {
  std::vector<z3::func_decl> predicates;  // in the order of their first use
  std::vector<Clause> clauses;
};

// Input the front end does not read: at assertion `assertion` (or, when that is npos, at the
// declaration of `symbol`).
struct Unsupported : std::runtime_error {
  Unsupported(size_t assertion, std::string symbol, const std::string& message)
      : std::runtime_error(message), assertion(assertion), symbol(std::move(symbol)) {}
  size_t assertion;
  std::string symbol;
};

// The clauses of the parsed assertions; throws Unsupported.
Clauses readClauses(z3::context& ctx, const z3::expr_vector& assertions);

// Whether `e` is a sort the front end reads (Int, Bool).
bool supportedSort(const z3::sort& s);

}  // namespace tandem::horn
