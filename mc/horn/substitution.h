// The variables of one clause on their way to the IR: the body's arguments bind them to the
// predicate's locals, equalities that define one are substituted (`y = x + 1`, also solved for a
// variable with coefficient ±1: `x = y - 1`), and what remains is havocked.
#pragma once

#include <z3++.h>

#include <functional>
#include <map>
#include <set>
#include <vector>

namespace tandem::horn {

// Calls f once on each distinct subterm of e (e included).
void forEachSubterm(const z3::expr& e, const std::function<void(const z3::expr&)>& f);

class Substitution {
 public:
  Substitution(z3::context& ctx, const std::vector<z3::expr>& vars);

  // Binds `t` to `to` when `t` is a variable of the clause not bound yet.
  bool bind(const z3::expr& t, const z3::expr& to);
  // Applies the bindings to the guard's conjuncts and the head's arguments, then substitutes
  // each variable that a conjunct of the guard defines (removing the conjunct).
  void eliminate(std::vector<z3::expr>& guard, std::vector<z3::expr>& heads);
  // The clause's variables still read by the guard or the head, in the clause's order.
  std::vector<z3::expr> freeVars(const std::vector<z3::expr>& guard,
                                 const std::vector<z3::expr>& heads) const;
  // Whether `e` reads one of the constants whose declaration ids are the keys of `ids`.
  template <class Map>
  static bool reads(const z3::expr& e, const Map& ids) {
    bool found = false;
    forEachSubterm(e, [&](const z3::expr& n) {
      found = found || (n.is_const() && !n.is_numeral() && ids.count(n.decl().id()));
    });
    return found;
  }

 private:
  bool isFree(const z3::expr& e) const;
  // Defines `v` as `t` when `v` is a free variable that `t` does not read.
  bool define(const z3::expr& v, const z3::expr& t, std::vector<z3::expr>& guard,
              std::vector<z3::expr>& heads, size_t skip);
  bool solve(const z3::expr& eq, std::vector<z3::expr>& guard, std::vector<z3::expr>& heads,
             size_t skip);

  std::vector<z3::expr> vars_;
  std::set<unsigned> free_;  // declaration ids of the variables neither bound nor defined
  z3::expr_vector from_, to_;
};

}  // namespace tandem::horn
