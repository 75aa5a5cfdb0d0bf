// minimizeModel for a conjunction given as a list of formulas: the same values, with far fewer
// queries. Constraints that do not mention a term cannot change its least value, so
//   - the formulas and the pinned values (scalar terms, array lengths, array elements) are split
//     into independent groups (slice_keys.h: leaves, callees, and the elements of an array read
//     only at constant indices);
//   - a value no formula constrains is the zero of its type (what the search would find), with
//     no query;
//   - a value whose group constrains nothing else, by comparisons with constants only, is the
//     first of 0 and the constants' neighbours (the only places where such a condition changes)
//     that satisfies the group, found by evaluation, with no query;
//   - a `t == c` conjunct fixes t without a query;
//   - every other group is minimised by minimizeModel's search on its own formulas only, starting
//     from `known` (a model the caller has, e.g. a cached model of the path condition) when it
//     satisfies them, so at most one query per group just to get started.
// A group without values to pin is checked once, unless `known` satisfies it.
#pragma once

#include <span>

#include "mc/smt/minimize_model.h"

namespace tandem::smt {

MinimizedModel minimizeFormulas(Solver& solver, ExprManager& exprs,
                                std::span<const ExprRef> formulas, std::span<const ExprRef> terms,
                                const Model* known = nullptr);

}  // namespace tandem::smt
