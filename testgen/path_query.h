// The queries of FindTestInput (Anand, Godefroid, Tillmann, TACAS'08, Sect. 4, Algorithm 2):
// an interprocedural path to a target node of some tree, as one quantifier-free formula.
//
//   path     the conditions from the root of the target's tree to the target, and for every
//            call made on the way, the callee's summary at that call;
//   summary  D_g(args, r): the disjunction over g's tree of its explored paths that return
//            (path condition over the arguments, r = the returned value, and the summaries of
//            g's own calls on the path), encoded as the tree itself (each node's condition and
//            calls once, its subtrees as a disjunction), plus, in relevant mode, for each
//            dangling node d a disjunct G_d && pc_d with the result left free;
//   context  C_f, for a target in a summarised procedure f: some explored path of a caller
//            (itself in context) reaches a call of f whose arguments are f's parameters, or (in
//            relevant mode) G_d && pc_d for a dangling node d of a caller from which a call of
//            f can be reached.
// Lazy mode (every G_d false) combines only paths already explored; relevant mode lets the
// solver pick dangling nodes on the way, whose inputs then explore them. An unsatisfiable
// relevant query proves the target unreachable: the explored paths and the dangling nodes of
// a tree cover every input of its procedure.
//
// The summaries stand for uninterpreted functions: TACAS'08 asserts forall x. D_g(x, g(x)) and
// lets the solver instantiate it. The only applications of g a query holds are its calls on the
// paths the query is built from, so the axiom is instantiated at exactly those (sound and
// complete for the query), and g itself is eliminated by Ackermann's reduction: each call gets
// a constant for g(args), and two calls of g with scalar arguments get the congruence
// args == args' -> r == r'. Both back ends then answer quantifier-free queries, and calls with
// array arguments (which the solver translation has no function symbols for) work the same.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "testgen/forest.h"

namespace tandem::testgen {

struct Target {
  ir::CfaId cfa = ir::kNone;
  uint32_t node = kNoNode;
  bool operator<(const Target& o) const { return cfa != o.cfa ? cfa < o.cfa : node < o.node; }
  bool operator==(const Target&) const = default;
};

enum class Exploration : uint8_t { Lazy, Relevant };

struct PathQuery {
  std::vector<ExprRef> conjuncts;
  std::map<ExprRef, Target> guards;  // G_d -> d (relevant mode)
};

// `reaches(d, f)`: a call of f may be reachable from dangling node d (relevant contexts).
PathQuery buildQuery(Forest& forest, Target t, Exploration mode,
                     const std::function<bool(Target, ir::CfaId)>& reaches);

}  // namespace tandem::testgen
