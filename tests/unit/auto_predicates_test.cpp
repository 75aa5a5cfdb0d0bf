// Default predicates (abstraction/auto_predicates.h, ISSTA'06 Sect. 4.5): which scope gets which
// predicate (procedures, callers, classes, processes, globals), the linear normal form, and that
// the proofs they are made for go through.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "abstraction/auto_predicates.h"
#include "abstraction/linear_atom.h"
#include "abstraction/predicate_atoms.h"
#include "fabricate/prover.h"
#include "mc/ir/ir_printer.h"
#include "mc/smt/solver_factory.h"
#include "tests/unit/test_programs.h"

using namespace tandem;

namespace {

using test::loadText;

std::vector<std::string> texts(const ir::Program& p, const std::vector<ExprRef>& es) {
  std::vector<std::string> out;
  for (ExprRef e : es) out.push_back(ir::exprToString(p, e));
  return out;
}

bool has(const std::vector<std::string>& xs, const std::string& x) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}

// No predicate of `sp` reads a local, field or process variable from the global scope, and every
// scoped one reads only what its procedure (or class, or process) can see.
void checkScopes(const ir::Program& p, const abstraction::ScopedPredicates& sp) {
  for (ExprRef e : sp.global)
    for (uint32_t v : freeVars(e)) CHECK(p.vars[v].scope == ir::VarScope::Global);
  for (const auto& [c, es] : sp.ofCfa)
    for (ExprRef e : es)
      for (uint32_t v : freeVars(e)) {
        const ir::Variable& var = p.vars[v];
        const bool visible =
            var.scope == ir::VarScope::Global ||
            (var.scope == ir::VarScope::Field && var.owner == p.cfas[c].classIndex) ||
            var.owner == c;
        const std::string where = ir::exprToString(p, e) + " in " + p.cfas[c].name;
        CHECK_MESSAGE(visible, where);
      }
  for (const auto& [k, es] : sp.ofClass)
    for (ExprRef e : es)
      for (uint32_t v : freeVars(e))
        CHECK((p.vars[v].scope == ir::VarScope::Global ||
               (p.vars[v].scope == ir::VarScope::Field && p.vars[v].owner == k)));
}

struct Proof {
  std::unique_ptr<ir::Program> p;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  std::unique_ptr<smt::Solver> solver;
  fabricate::ProveOptions o;
  abstraction::ScopedPredicates defaults;

  explicit Proof(std::unique_ptr<ir::Program> prog, const std::string& entry,
                 const std::string& cls = "")
      : p(std::move(prog)) {
    ev = std::make_unique<exec::Evaluator>(*p, natives);
    solver = smt::makeSolver(smt::SolverOptions{}, smt::programNaming(*p));
    o.cutpoints = ir::CutpointMode::Loops;
    abstraction::DefaultPredicateOptions d;
    if (!cls.empty()) {
      for (uint32_t k = 0; k < p->classes.size(); ++k)
        if (p->classes[k].name == cls) o.classIndex = k;
      REQUIRE(o.classIndex != ir::kNone);
      o.entry = p->classes[o.classIndex].init;
      o.argPool = {-1, 0, 1, 2};
      d.classIndex = o.classIndex;
      d.roots = p->classes[o.classIndex].methods;
    } else if (!entry.empty()) {
      o.entry = p->findCfaId(entry, ir::CfaKind::Proc);
    }
    if (o.entry != ir::kNone) d.roots.push_back(o.entry);
    d.roots.insert(d.roots.end(), p->processes.begin(), p->processes.end());
    defaults = abstraction::defaultPredicates(*p, d);
    o.extraPredicates = defaults;
  }
  fabricate::ProveResult prove() { return fabricate::prove(*p, *ev, *solver, o); }
  std::vector<std::string> of(const std::string& cfa) {
    const ir::Cfa* c = p->findCfa(cfa);
    REQUIRE(c);
    const auto id = static_cast<ir::CfaId>(c - p->cfas.data());
    auto it = defaults.ofCfa.find(id);
    return it == defaults.ofCfa.end() ? std::vector<std::string>{} : texts(*p, it->second);
  }
};

using Outcome = fabricate::ProveResult::Outcome;

// A loop whose body calls a procedure that indexes an array (issue #11: this crashed when the
// callee's predicates were global and read in the caller's frame).
const char* kLoopCall =
    "proc get(a: int[], i: int): int {\n  return a[i];\n}\n"
    "proc main(n: int) {\n  var a: int[] = new int[0];\n  var i: int = 0;\n  var s: int = 0;\n"
    "  if (n < 0) { return; }\n  a := new int[n];\n"
    "  while (i < n) {\n    s := get(a, i);\n    i := i + 1;\n  }\n}\n";

// The returned value of a callee in a loop (this fabricated forever when `i < n` and `i >= 0`
// were global predicates read in inc's frame: alpha and gamma disagreed).
const char* kIncLoop =
    "proc inc(x: int): int {\n  return x + 1;\n}\n"
    "proc main(n: int) {\n  var i: int = 0;\n  while (i < n) {\n    i := inc(i);\n  }\n"
    "  assert i >= 0;\n}\n";

}  // namespace

TEST_CASE("default predicates: a callee's checks are its own, and its caller's on the arguments") {
  Proof pr(loadText(kLoopCall), "main");
  checkScopes(*pr.p, pr.defaults);
  CHECK(pr.defaults.global.empty());
  auto get = pr.of("get"), main = pr.of("main");
  CHECK(has(get, "0 <= i"));
  CHECK(has(get, "i < len(a)"));
  CHECK(has(main, "i < n"));
  CHECK(has(main, "i < len(a)"));   // get's check, on main's arguments
  CHECK(has(main, "n <= len(a)"));  // the guard i < n in front of it, without i
  auto r = pr.prove();
  CHECK(r.outcome == Outcome::Proved);
  CHECK(r.stats.fabricatedStates <= r.stats.abstractStates);

  Proof inc(loadText(kIncLoop), "main");
  checkScopes(*inc.p, inc.defaults);
  CHECK(has(inc.of("main"), "i >= 0"));
  CHECK(has(inc.of("inc"), "x + 1 >= 0"));  // main's i >= 0 on inc's returned value
  auto ri = inc.prove();
  CHECK(ri.outcome == Outcome::Proved);
  CHECK(ri.stats.fabricatedStates <= ri.stats.abstractStates);
}

TEST_CASE("default predicates: a class's fields in its scope, a method's locals in the method") {
  // BoundedStack (ISSTA'06 Sect. 5.1) with pop's fix and no predicate of its own.
  Proof pr(loadText(R"(
class BoundedStack {
  var elems: int[];
  var size: int;
  var max: int;
  init(capacity: int) { size := 0; max := capacity; elems := new int[max]; }
  method pop() { if (size > 0) { size := size - 1; } }
  method push(k: int) {
    var index: int = 0;
    var j: int = 0;
    var alreadyMember: bool = false;
    while (index < size) {
      if (k == elems[index]) { alreadyMember := true; break; }
      index := index + 1;
    }
    if (alreadyMember) {
      j := index;
      while (j < size - 1) { elems[j] := elems[j + 1]; j := j + 1; }
      elems[size - 1] := k;
    } else {
      if (size < max) { elems[size] := k; size := size + 1; return; } else { return; }
    }
  }
}
)"),
           "", "BoundedStack");
  checkScopes(*pr.p, pr.defaults);
  pr.o.tracked.fill(false);  // as --check index-out-of-bounds: init(-1) fails to allocate
  pr.o.tracked[static_cast<size_t>(ir::ErrorKind::IndexOutOfBounds)] = true;
  CHECK(pr.defaults.global.empty());
  REQUIRE(pr.defaults.ofClass.count(pr.o.classIndex));
  auto cls = texts(*pr.p, pr.defaults.ofClass.at(pr.o.classIndex));
  CHECK(has(cls, "0 <= size"));
  CHECK(has(cls, "max <= len(elems)"));  // size < max in front of elems[size]
  auto push = pr.of("BoundedStack.push");
  CHECK(has(push, "index < size"));
  CHECK(has(push, "0 <= index"));
  for (const auto& [k, es] : pr.defaults.ofClass) CHECK(es.size() <= 16);
  for (const auto& [c, es] : pr.defaults.ofCfa) CHECK(es.size() <= 16);
  auto r = pr.prove();
  CHECK(r.outcome == Outcome::Proved);
  CHECK(r.stats.fabricatedStates <= r.stats.abstractStates);
}

TEST_CASE("default predicates: a process's variables in its scope, read per instance") {
  auto p = loadText(R"(
var x: int = 0;
process P[2] {
  var t: int = 0;
  A: t := x;
  B: if (t < 10) {
  C:   x := t + 1;
     }
  D: assert x >= 0;
     goto A;
}
)");
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  abstraction::DefaultPredicateOptions d;
  d.roots = p->processes;
  auto sp = abstraction::defaultPredicates(*p, d);
  checkScopes(*p, sp);
  const ir::CfaId proc = p->processes.at(0);
  REQUIRE(sp.ofCfa.count(proc));
  auto local = texts(*p, sp.ofCfa.at(proc));
  CHECK(has(local, "t < 10"));
  CHECK(has(local, "t + 1 >= 0"));  // x >= 0 through x := t + 1
  auto global = texts(*p, sp.global);
  CHECK(has(global, "x >= 0"));
  CHECK(has(global, "x < 10"));  // t < 10 through t := x
  // The abstraction reads P's predicates once per instance, each in its own thread, where t is
  // live (at B); at A, where `t := x` overwrites it, the predicates over t are left out.
  abstraction::Abstraction abs(*p, ev, sp);
  const ir::LocId a = *p->findLabel("A"), b = *p->findLabel("B");
  auto count = [&](const std::vector<ir::LocId>& pcs, exec::ThreadId t) {
    size_t n = 0;
    for (const auto& pred : abs.scopeAt(pcs).preds)
      n += pred.expr == sp.ofCfa.at(proc).front() && pred.thread == t;
    return n;
  };
  CHECK(count({b, b}, 0) == 1);
  CHECK(count({b, b}, 1) == 1);
  CHECK(count({a, b}, 0) == 0);
  CHECK(count({a, b}, 1) == 1);
}

TEST_CASE("default predicates: --max-predicates bounds every scope, the closest ones first") {
  Proof pr(loadText(kLoopCall), "main");
  abstraction::DefaultPredicateOptions d;
  d.roots = {pr.o.entry};
  d.limit = 2;
  auto sp = abstraction::defaultPredicates(*pr.p, d);
  for (const auto& [c, es] : sp.ofCfa) CHECK(es.size() <= 2);
  auto main = texts(*pr.p, sp.ofCfa.at(pr.o.entry));
  CHECK(main == std::vector<std::string>{"n < 0", "i < n"});  // conditions before consequences
}

TEST_CASE("abstraction: a global predicate over a local, or a local read in another frame") {
  Proof pr(loadText(kIncLoop), "main");
  const ir::Cfa& main = *pr.p->findCfa("main");
  ExprManager& em = *pr.p->exprs;
  ir::VarId i = ir::kNone;
  for (ir::VarId v : main.locals)
    if (pr.p->vars[v].name == "i") i = v;
  REQUIRE(i != ir::kNone);
  ExprRef overLocal =
      em.mk(Op::Ge, em.types().boolType(), {em.var(i, pr.p->vars[i].type), em.intConst(BigInt(0))});
  abstraction::ScopedPredicates wrong;
  wrong.global = {overLocal};
  CHECK_THROWS_AS(abstraction::Abstraction(*pr.p, *pr.ev, wrong), std::invalid_argument);
  // A predicate of main attached to inc: inc's frame has no `i`. The symbolic side refuses to
  // read it (as the concrete one does) instead of reading whatever inc's frame holds there.
  const auto inc = static_cast<ir::CfaId>(pr.p->findCfa("inc") - pr.p->cfas.data());
  pr.o.extraPredicates = {};
  pr.o.extraPredicates.ofCfa[inc] = {overLocal};
  CHECK_THROWS_AS(pr.prove(), std::logic_error);
}

TEST_CASE("linear atoms: one key per predicate up to arithmetic, sides and negation") {
  auto prog = loadText("proc f(x: int, n: int, p: ref int) {\n  skip;\n}\n");
  ExprManager& em = *prog->exprs;
  const ir::Cfa& f = *prog->findCfa("f");
  TypeRef it = em.types().intType(), b = em.types().boolType();
  ExprRef x = em.var(f.params[0], it), n = em.var(f.params[1], it);
  auto k = [&](int64_t v) { return em.intConst(BigInt(v), it); };
  auto cmp = [&](Op op, ExprRef l, ExprRef r) { return em.mk(op, b, {l, r}); };
  using abstraction::atomKey;
  using abstraction::simplify;
  // x < n, n > x, x + 1 <= n, n <= x (its negation) and x - n < 0 are one predicate.
  const auto key = atomKey(cmp(Op::Lt, x, n));
  CHECK(atomKey(cmp(Op::Gt, n, x)) == key);
  CHECK(atomKey(cmp(Op::Le, em.mk(Op::Add, it, {x, k(1)}), n)) == key);
  CHECK(atomKey(cmp(Op::Le, n, x)) == key);
  CHECK(atomKey(cmp(Op::Lt, em.mk(Op::Sub, it, {x, n}), k(0))) == key);
  CHECK_FALSE(atomKey(cmp(Op::Le, x, n)) == key);
  CHECK(atomKey(cmp(Op::Eq, x, n)) == atomKey(cmp(Op::Ne, n, x)));
  // (x + 1) - 1 < n is x < n; n <= n is true; len(new int[n]) is n.
  ExprRef shifted = cmp(Op::Lt, em.mk(Op::Sub, it, {em.mk(Op::Add, it, {x, k(1)}), k(1)}), n);
  CHECK(simplify(em, shifted) == cmp(Op::Lt, x, n));
  CHECK(simplify(em, cmp(Op::Le, n, n))->isTrue());
  ExprRef arr = em.mk(Op::NewArray, em.types().arrayOf(it, -1), {n});
  CHECK(simplify(em, em.mk(Op::Len, it, {arr})) == n);
  // Distinct places: &x == &n and &x == null are false. A weakest precondition through
  // x := x + 1 leaves &x alone (the address of x, not its value).
  TypeRef ref = em.types().refTo(it);
  ExprRef ax = em.mk(Op::AddrOf, ref, {x}), an = em.mk(Op::AddrOf, ref, {n});
  CHECK(simplify(em, cmp(Op::Eq, ax, an))->isFalse());
  CHECK(simplify(em, cmp(Op::Eq, ax, em.nullConst(ref)))->isFalse());
  CHECK(simplify(em, cmp(Op::Ne, ax, an))->isTrue());
  ExprRef p = em.var(f.params[2], ref);
  ExprRef pointsAtX = cmp(Op::Eq, p, ax);
  CHECK(abstraction::substituteVars(em, pointsAtX, {{x, em.mk(Op::Add, it, {x, k(1)})}}) ==
        pointsAtX);
  // Through p := &x (a call's argument, say), *p < n reads x.
  ExprRef viaP = cmp(Op::Lt, em.mk(Op::Deref, it, {p}), n);
  CHECK(abstraction::substituteVars(em, viaP, {{p, ax}}) == cmp(Op::Lt, x, n));
}
