// prove --certificate (engine/prove_certificate.h): the definitions it writes satisfy every
// clause they speak of (the .smt2 input's, or export-chc's), checked here through Z3's API as
// scripts/validate-certificate checks them with the z3 and cvc5 binaries.
#include <doctest/doctest.h>
#include <z3++.h>

#include <fstream>
#include <sstream>

#include "chc/certificate.h"
#include "chc/unsupported.h"
#include "mc/expr/expr.h"
#include "mc/expr/types.h"
#include "tests/unit/cli_run.h"

using namespace tandem;

namespace {

using test::runTandem;
using test::TempDir;

// Whether every assertion of `clauses` holds under the definitions of `certificate` (each
// `(declare-fun` line of the clauses is dropped: the definitions take its place).
bool validates(const std::string& clauses, const std::string& certificate) {
  std::istringstream in(clauses);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.rfind("(declare-fun", 0) != 0 && line.rfind("(check-sat", 0) != 0) kept += line + "\n";
  z3::context ctx;
  z3::expr_vector asserts = ctx.parse_string((certificate + kept).c_str());
  REQUIRE(asserts.size() > 0);
  for (unsigned i = 0; i < asserts.size(); ++i) {
    z3::solver s(ctx);
    s.add(!asserts[i]);
    if (s.check() != z3::unsat) return false;
  }
  return true;
}

// A fact into p, an unguarded step p -> q (p alone is then a local step, no cutpoint of its
// own unless the front end keeps it), and a loop back while x < 10. Safe: x never goes negative.
const char* const kChain = R"((set-logic HORN)
(declare-fun p (Int) Bool)
(declare-fun |q#1| (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (p x) (|q#1| (+ x 1)))))
(assert (forall ((x Int)) (=> (and (|q#1| x) (< x 10)) (p x))))
(assert (forall ((x Int)) (=> (and (|q#1| x) (< x 0)) false)))
(check-sat)
)";

}  // namespace

TEST_CASE("certificate: a CHC input's own predicates, every one a cutpoint") {
  TempDir tmp;
  const std::string in = tmp.write("chain.smt2", kChain).string(), cert = tmp.file("cert.smt2");
  test::CliResult r = runTandem({"prove", in, "--certificate", cert});
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("certificate: " + cert + " (2 definitions)") != std::string::npos);
  const std::string text = tmp.read("cert.smt2");
  CHECK(text.find("(define-fun p (") != std::string::npos);
  CHECK(text.find("(define-fun |q#1| (") != std::string::npos);  // quoted as declared
  CHECK(validates(kChain, text));
}

TEST_CASE("certificate: a .tdm model's, over export-chc's clauses (arrays in element form)") {
  const std::string model = std::string(TANDEM_SHARED_DIR) + "/conformance/peterson2.tdm";
  TempDir tmp;
  REQUIRE(runTandem({"prove", model, "--certificate", tmp.file("cert.smt2")}).rc == 0);
  REQUIRE(runTandem({"export-chc", model, "-o", tmp.file("clauses.smt2")}).rc == 0);
  const std::string text = tmp.read("cert.smt2"), clauses = tmp.read("clauses.smt2");
  CHECK(validates(clauses, text));
  // The control: the same definitions all false fail the initial clause.
  std::string allFalse;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("(define-fun", 0) == 0) allFalse += line + " false)\n";
  CHECK_FALSE(validates(clauses, allFalse));
}

TEST_CASE("certificate: only for a proof; not with --class") {
  TempDir tmp;
  const std::string cert = tmp.file("none.smt2");
  const std::string in = tmp.write("unsafe.smt2", R"((set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (< x 3)) (p (+ x 1)))))
(assert (forall ((x Int)) (=> (and (p x) (= x 3)) false)))
(check-sat)
)")
                             .string();
  test::CliResult r = runTandem({"prove", in, "--certificate", cert});
  CHECK(r.rc == 1);
  CHECK(r.out.find("certificate: not written: nothing was proved") != std::string::npos);
  CHECK_FALSE(std::ifstream(cert).good());
  r = runTandem({"prove", std::string(TANDEM_SHARED_DIR) + "/conformance/peterson2.tdm", "--class",
                 "C", "--certificate", cert});
  CHECK(r.rc == 2);
  CHECK(r.err.find("--certificate does not apply to prove --class") != std::string::npos);
}

TEST_CASE("certificate writer: leaves that are not parameters are quantified existentially") {
  TypeTable types;
  ExprManager em(types);
  ExprRef x = em.freshSymbol("x", types.intType()), y = em.freshSymbol("y", types.intType());
  chc::CertificateWriter w(smt::exprNaming(em));
  w.define("P", {x}, em.mk(Op::Lt, types.boolType(), {x, y}), "x below some y");
  const std::string text = w.text("");
  CHECK(text.find("; x below some y\n(define-fun P ((") != std::string::npos);
  CHECK(text.find("(exists ((") != std::string::npos);
  CHECK_THROWS_AS(w.define("Q", {em.intConst(BigInt(1))}, em.trueExpr(), ""), chc::Unsupported);
}
