// The CHC-COMP front end: the scan of command positions, the IR that linear clauses lower to
// (locations, arguments, bindings, havocs) and the refusals.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "mc/horn/import.h"
#include "mc/horn/positions.h"
#include "mc/ir/ir_printer.h"

namespace tandem {
namespace {

struct HornImport {
  std::unique_ptr<ir::Program> prog;
  std::vector<std::string> errors;  // "LINE:COL: message"
};

HornImport importClauses(const std::string& text) {
  SourceFile file("t.smt2", text);
  Diagnostics diags(&file);
  HornImport out;
  out.prog = importHorn(file, diags);
  for (const Diagnostic& d : diags.errors())
    out.errors.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
                         d.message);
  return out;
}

// The edges out of the location labelled `label`, as `tandem ir` prints them.
std::vector<std::string> hornEdgesOf(const ir::Program& p, const std::string& label) {
  std::vector<std::string> out;
  for (ir::EdgeId e : p.locs[*p.findLabel(label)].out) out.push_back(p.edges[e].text);
  return out;
}

TEST_CASE("horn: the positions of top-level commands skip comments, strings and |symbols|") {
  const auto at = horn::scanCommands(
      "; (assert x)\n(declare-fun |a (b| (Int) Bool)\n  (assert \"(assert\" (a 1))\n(assert\n"
      "(=> (a 2) false))");
  REQUIRE(at.asserts.size() == 2);
  CHECK(at.asserts[0].loc == SourceLoc{3, 3});
  CHECK(at.asserts[1].loc == SourceLoc{4, 1});
  CHECK(at.declarationOf("a (b") == SourceLoc{2, 1});
  CHECK(at.assertAt(7) == SourceLoc{1, 1});
}

TEST_CASE("horn: a predicate per location, its arguments as locals, a clause per edge") {
  auto r = importClauses(
      "(set-logic HORN)\n(declare-fun inv (Int Int) Bool)\n"
      "(assert (forall ((x Int)) (=> (= x 0) (inv x x))))\n"
      "(assert (forall ((x Int) (y Int) (z Int)) (=> (and (inv x y) (< x 10) (= z (+ x 1)))"
      " (inv z y))))\n"
      "(assert (forall ((x Int)) (=> (inv x x) false)))\n");
  REQUIRE(r.errors.empty());
  const ir::Program& p = *r.prog;
  REQUIRE(p.processes.size() == 1);
  CHECK(p.cfas[p.processes[0]].name == "chc");
  CHECK(hornEdgesOf(p, "init") == std::vector<std::string>{"clause 1: inv_0 := 0, inv_1 := 0"});
  // z is defined by its equality; the repeated x of the query is an equality of the arguments.
  CHECK(hornEdgesOf(p, "inv") ==
        std::vector<std::string>{"clause 2: [inv_0 < 10] inv_0 := inv_0 + 1",
                                 "clause 3: [inv_1 == inv_0]"});
  for (ir::LocId l = 0; l < p.locs.size(); ++l) CHECK(p.endLabelled(l));  // never a deadlock
}

TEST_CASE("horn: variables that no equality defines are havocked first") {
  auto r = importClauses(
      "(declare-fun p (Int) Bool)\n"
      "(assert (forall ((x Int) (n Int)) (=> (and (p x) (> n x) (> x 0)) (p n))))\n");
  REQUIRE(r.errors.empty());
  const ir::Program& p = *r.prog;
  CHECK(hornEdgesOf(p, "p") == std::vector<std::string>{"clause 1: [p_0 > 0] havoc n"});
  CHECK(hornEdgesOf(p, "clause1") == std::vector<std::string>{"clause 1: [n > p_0] p_0 := n"});
}

TEST_CASE("horn: unsupported input is refused at its assertion or declaration") {
  CHECK(importClauses("(declare-fun p (Int) Bool)\n(declare-fun q (Int) Bool)\n"
                      "(assert (forall ((x Int)) (=> (and (p x) (q x)) false)))")
            .errors == std::vector<std::string>{"3:1: a clause with 2 predicates in its body (a "
                                                "nonlinear Horn clause) is not supported"});
  CHECK(importClauses("(declare-fun p (Real) Bool)\n(assert (p 1.0))").errors ==
        std::vector<std::string>{
            "1:1: predicate 'p' has an argument of sort Real: only Int and Bool are supported"});
  CHECK(importClauses(
            "(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (p (div x x)) false)))")
            .errors ==
        std::vector<std::string>{"2:1: div by a non-constant or zero is not supported"});
  CHECK(importClauses("(assert (p 1))").errors.size() == 1);  // Z3: unknown constant
}

}  // namespace
}  // namespace tandem
