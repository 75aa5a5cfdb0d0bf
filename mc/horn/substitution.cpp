#include "mc/horn/substitution.h"

#include <unordered_set>

namespace tandem::horn {

namespace {

z3::expr_vector one(const z3::expr& e) {
  z3::expr_vector v(e.ctx());
  v.push_back(e);
  return v;
}

z3::expr replace(const z3::expr& e, const z3::expr& v, const z3::expr& by) {
  z3::expr_vector from = one(v), to = one(by);
  z3::expr copy = e;
  return copy.substitute(from, to);
}

bool occurs(const z3::expr& e, const z3::expr& v) {
  bool found = false;
  forEachSubterm(e, [&](const z3::expr& n) { found = found || z3::eq(n, v); });
  return found;
}

// `e` is a sum of terms in which `v` occurs at most as `c * v` for numerals c.
bool linearIn(const z3::expr& e, const z3::expr& v) {
  if (!occurs(e, v) || z3::eq(e, v)) return true;
  if (!e.is_app()) return false;
  const Z3_decl_kind k = e.decl().decl_kind();
  if (k == Z3_OP_ADD || k == Z3_OP_SUB || k == Z3_OP_UMINUS) {
    for (unsigned i = 0; i < e.num_args(); ++i)
      if (!linearIn(e.arg(i), v)) return false;
    return true;
  }
  if (k != Z3_OP_MUL) return false;
  unsigned withV = 0;
  for (unsigned i = 0; i < e.num_args(); ++i) {
    if (occurs(e.arg(i), v)) {
      if (++withV > 1 || !linearIn(e.arg(i), v)) return false;
    } else if (!e.arg(i).is_numeral()) {
      return false;
    }
  }
  return true;
}

}  // namespace

Substitution::Substitution(z3::context& ctx, const std::vector<z3::expr>& vars)
    : vars_(vars), from_(ctx), to_(ctx) {
  for (const z3::expr& v : vars) free_.insert(v.decl().id());
}

void forEachSubterm(const z3::expr& e, const std::function<void(const z3::expr&)>& f) {
  std::vector<z3::expr> todo{e};
  std::unordered_set<unsigned> seen;
  while (!todo.empty()) {
    z3::expr n = todo.back();
    todo.pop_back();
    if (!seen.insert(n.id()).second) continue;
    f(n);
    if (n.is_app())
      for (unsigned i = 0; i < n.num_args(); ++i) todo.push_back(n.arg(i));
  }
}

bool Substitution::isFree(const z3::expr& e) const {
  return e.is_const() && !e.is_numeral() && free_.count(e.decl().id());
}

bool Substitution::bind(const z3::expr& t, const z3::expr& to) {
  if (!isFree(t)) return false;
  free_.erase(t.decl().id());
  from_.push_back(t);
  to_.push_back(to);
  return true;
}

bool Substitution::define(const z3::expr& v, const z3::expr& t, std::vector<z3::expr>& guard,
                          std::vector<z3::expr>& heads, size_t skip) {
  if (!isFree(v) || occurs(t, v)) return false;
  free_.erase(v.decl().id());
  guard.erase(guard.begin() + static_cast<std::ptrdiff_t>(skip));
  for (z3::expr& g : guard) g = replace(g, v, t);
  for (z3::expr& h : heads) h = replace(h, v, t);
  return true;
}

// `eq` (an equality of Int terms, a = b) solved for a free variable whose coefficient in a - b
// is 1 or -1.
bool Substitution::solve(const z3::expr& eq, std::vector<z3::expr>& guard,
                         std::vector<z3::expr>& heads, size_t skip) {
  const z3::expr d = eq.arg(0) - eq.arg(1);
  z3::context& ctx = eq.ctx();
  for (const z3::expr& v : vars_) {
    if (!isFree(v) || !v.is_int() || !occurs(d, v) || !linearIn(d, v)) continue;
    const z3::expr d0 = replace(d, v, ctx.int_val(0));
    const z3::expr coef = (replace(d, v, ctx.int_val(1)) - d0).simplify();
    int c = 0;
    if (!coef.is_numeral() || !coef.is_numeral_i(c) || (c != 1 && c != -1)) continue;
    // d = c * v + d0 = 0, so v = -d0 / c.
    const z3::expr t = (c == 1 ? -d0 : d0).simplify();
    if (define(v, t, guard, heads, skip)) return true;
  }
  return false;
}

void Substitution::eliminate(std::vector<z3::expr>& guard, std::vector<z3::expr>& heads) {
  if (!from_.empty()) {
    for (z3::expr& g : guard) g = g.substitute(from_, to_);
    for (z3::expr& h : heads) h = h.substitute(from_, to_);
  }
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t i = 0; i < guard.size() && !progress; ++i) {
      const z3::expr g = guard[i];
      if (isFree(g)) {  // a Bool variable as a conjunct
        progress = define(g, g.ctx().bool_val(true), guard, heads, i);
      } else if (g.is_not() && isFree(g.arg(0))) {
        progress = define(g.arg(0), g.ctx().bool_val(false), guard, heads, i);
      } else if (g.is_eq() && g.num_args() == 2) {
        progress = define(g.arg(0), g.arg(1), guard, heads, i) ||
                   define(g.arg(1), g.arg(0), guard, heads, i) ||
                   (g.arg(0).is_int() && solve(g, guard, heads, i));
      }
    }
  }
}

std::vector<z3::expr> Substitution::freeVars(const std::vector<z3::expr>& guard,
                                             const std::vector<z3::expr>& heads) const {
  std::set<unsigned> read;
  auto note = [&](const z3::expr& n) {
    if (isFree(n)) read.insert(n.decl().id());
  };
  for (const z3::expr& g : guard) forEachSubterm(g, note);
  for (const z3::expr& h : heads) forEachSubterm(h, note);
  std::vector<z3::expr> out;
  for (const z3::expr& v : vars_)
    if (read.count(v.decl().id())) out.push_back(v);
  return out;
}

}  // namespace tandem::horn
