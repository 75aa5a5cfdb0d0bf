#include "mc/horn/clauses.h"

#include <set>

namespace tandem::horn {

namespace {

constexpr size_t kNoAssertion = static_cast<size_t>(-1);

std::string sortName(const z3::sort& s) { return s.to_string(); }

class Reader {
 public:
  Reader(z3::context& ctx, Clauses& out) : ctx_(ctx), out_(out) {}

  void read(const z3::expr& assertion, size_t index) {
    index_ = index;
    Clause c;
    c.assertion = index;
    z3::expr e = instantiate(assertion, false, c);
    std::vector<z3::expr> body;
    std::optional<z3::expr> head;
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_NOT) {
      // `(not (exists (...) body))`: a query.
      body.push_back(instantiate(e.arg(0), true, c));
    } else {
      // `(=> b1 (=> b2 h))` is `(=> (and b1 b2) h)`.
      while (e.is_app() && e.decl().decl_kind() == Z3_OP_IMPLIES) {
        body.push_back(e.arg(0));
        e = instantiate(e.arg(1), false, c);
      }
      head = e;
    }
    std::vector<z3::expr> atoms;
    for (const z3::expr& b : body) flatten(b, atoms, c.constraint);
    if (atoms.size() > 1)
      fail("a clause with " + std::to_string(atoms.size()) +
           " predicates in its body (a nonlinear Horn clause) is not supported");
    if (!atoms.empty()) c.body = atoms[0];
    if (head) {
      if (isPredicate(*head)) {
        c.head = *head;
      } else if (!head->is_false()) {
        // A constraint as the head: the query `body ∧ ¬head → false`.
        checkConstraint(*head);
        c.constraint.push_back(!*head);
      }
    }
    out_.clauses.push_back(std::move(c));
  }

 private:
  [[noreturn]] void fail(const std::string& message) { throw Unsupported(index_, "", message); }

  // Strips the quantifiers (universal or existential, as `exists` says) around `e`, each
  // variable a fresh constant of `c`.
  z3::expr instantiate(z3::expr e, bool exists, Clause& c) {
    while (e.is_quantifier()) {
      if (Z3_is_lambda(ctx_, e)) fail("lambda terms are not supported");
      if (Z3_is_quantifier_exists(ctx_, e) != exists)
        fail(std::string("an ") + (exists ? "universal" : "existential") +
             " quantifier here (quantifier alternation) is not supported");
      const unsigned n = Z3_get_quantifier_num_bound(ctx_, e);
      std::vector<Z3_ast> fresh(n);
      for (unsigned i = 0; i < n; ++i) {
        z3::sort s(ctx_, Z3_get_quantifier_bound_sort(ctx_, e, i));
        const std::string name = z3::symbol(ctx_, Z3_get_quantifier_bound_name(ctx_, e, i)).str();
        if (!supportedSort(s))
          fail("variable '" + name + "' of sort " + sortName(s) +
               " is not supported (only Int and Bool)");
        z3::expr v(ctx_, Z3_mk_fresh_const(ctx_, name.c_str(), s));
        vars_.insert(v.decl().id());
        c.vars.push_back(v);
        // De Bruijn indices: the last bound variable is index 0.
        fresh[n - 1 - i] = v;
      }
      e = z3::expr(ctx_, Z3_substitute_vars(ctx_, e.body(), n, fresh.data()));
    }
    return e;
  }

  bool isPredicate(const z3::expr& e) {
    if (!e.is_app() || e.decl().decl_kind() != Z3_OP_UNINTERPRETED || !e.is_bool()) return false;
    if (vars_.count(e.decl().id())) return false;  // a Bool variable of the clause
    // Every other uninterpreted Bool application, also a 0-ary one (`fail`), is a predicate.
    const z3::func_decl d = e.decl();
    if (!known_.count(d.id())) {
      for (unsigned i = 0; i < d.arity(); ++i)
        if (!supportedSort(d.domain(i)))
          throw Unsupported(kNoAssertion, d.name().str(),
                            "predicate '" + d.name().str() + "' has an argument of sort " +
                                sortName(d.domain(i)) + ": only Int and Bool are supported");
      known_.insert(d.id());
      out_.predicates.push_back(d);
    }
    return true;
  }

  void flatten(const z3::expr& e, std::vector<z3::expr>& atoms, std::vector<z3::expr>& rest) {
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
      for (unsigned i = 0; i < e.num_args(); ++i) flatten(e.arg(i), atoms, rest);
    } else if (e.is_true()) {
    } else if (isPredicate(e)) {
      atoms.push_back(e);
    } else {
      checkConstraint(e);
      rest.push_back(e);
    }
  }

  // A constraint has no predicate and no quantifier (its operators are checked when lowered).
  void checkConstraint(const z3::expr& e) {
    if (e.is_quantifier()) fail("a quantifier inside a constraint is not supported");
    if (!e.is_app()) return;
    if (isPredicate(e))
      fail("predicate '" + e.decl().name().str() +
           "' under a connective (not a conjunct of the body or the head) is not a Horn clause");
    for (unsigned i = 0; i < e.num_args(); ++i) checkConstraint(e.arg(i));
  }

  z3::context& ctx_;
  Clauses& out_;
  size_t index_ = 0;
  std::set<unsigned> vars_, known_;
};

}  // namespace

bool supportedSort(const z3::sort& s) { return s.is_int() || s.is_bool(); }

Clauses readClauses(z3::context& ctx, const z3::expr_vector& assertions) {
  Clauses out;
  Reader r(ctx, out);
  for (unsigned i = 0; i < assertions.size(); ++i) r.read(assertions[i], i);
  return out;
}

}  // namespace tandem::horn
