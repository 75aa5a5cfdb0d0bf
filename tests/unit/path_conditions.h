// Random path conditions for the tests of incremental solving, the counterexample cache and
// sliced minimisation: the queries a depth-first symbolic executor makes.
#pragma once

#include <random>
#include <vector>

#include "smt_test_support.h"

namespace smt_test {

// Random branch conditions over a few int and i32 symbols and the elements of an int array:
// comparisons of a leaf, or a sum of two, with a small constant, sometimes negated.
class Conditions {
 public:
  Conditions(Ctx& c, uint32_t seed) : c_(c), rng_(seed) {
    ints_ = {c.sym("x", c.intT()), c.sym("y", c.intT()), c.sym("z", c.intT())};
    bvs_ = {c.sym("p", c.i32T()), c.sym("q", c.i32T())};
    ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), 4));
    for (int i = 0; i < 4; ++i) ints_.push_back(c.select(a, c.num(i)));
  }

  ExprRef next() {
    static const Op cmps[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    const bool bv = pick(4) == 0;
    const std::vector<ExprRef>& leaves = bv ? bvs_ : ints_;
    ExprRef lhs = leaves[pick(leaves.size())];
    if (pick(3) == 0) lhs = c_.add(lhs, leaves[pick(leaves.size())]);
    ExprRef f = c_.bin(cmps[pick(6)], lhs, c_.num(pick(21) - 10, bv ? c_.i32T() : c_.intT()));
    return pick(4) == 0 ? c_.em.mkNot(f) : f;
  }

  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

 private:
  Ctx& c_;
  std::mt19937 rng_;
  std::vector<ExprRef> ints_, bvs_;
};

// The queries of a depth-first search: a path condition extended by one condition at a time,
// cut back by a few conditions now and then (backtracking to a sibling branch).
inline std::vector<std::vector<ExprRef>> depthFirstQueries(Conditions& gen, size_t count) {
  std::vector<std::vector<ExprRef>> queries;
  std::vector<ExprRef> pc;
  while (queries.size() < count) {
    if (!pc.empty() && (pc.size() > 8 || gen.pick(4) == 0)) {
      pc.resize(pc.size() - 1 - gen.pick(pc.size()));
      continue;
    }
    pc.push_back(gen.next());
    queries.push_back(pc);
  }
  return queries;
}

}  // namespace smt_test
