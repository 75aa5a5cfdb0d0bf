// Mixed concrete-symbolic solving (Pasareanu, Rungta, Visser, ISSTA'11) and the baselines it is
// compared with: the split into simplePC and complexPC, extraPC's soundness, each heuristic, EXE
// concretization and DART re-execution. Everything that solves runs under every back end.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
#include "mc/expr/float64.h"
#include "mc/ir/frontend.h"
#include "mc/ir/ir_printer.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/complex_terms.h"
#include "mc/symbolic/concretizer.h"
#include "mc/symbolic/mixed_solver.h"
#include "mc/symbolic/replay.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/test_programs.h"

using namespace tandem;
using namespace tandem::symbolic;

namespace {

using tandem::test::loadShared;
using tandem::test::loadText;

// A program, its evaluator and symbols x, y to build path conditions by hand.
struct Fixture {
  std::unique_ptr<ir::Program> p;
  exec::NativeRegistry natives;
  std::unique_ptr<exec::Evaluator> ev;
  ExprManager* em = nullptr;
  ExprRef x = nullptr, y = nullptr;

  explicit Fixture(const std::string& text) : p(loadText(text)) {
    ev = std::make_unique<exec::Evaluator>(*p, natives);
    em = p->exprs.get();
    x = em->freshSymbol("x", em->types().intType());
    y = em->freshSymbol("y", em->types().intType());
  }
  TypeRef intT() const { return em->types().intType(); }
  TypeRef boolT() const { return em->types().boolType(); }
  ExprRef num(int64_t v) const { return em->intConst(BigInt(v)); }
  ExprRef bin(Op op, ExprRef a, ExprRef b) const {
    const bool pred = op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le ||
                      op == Op::Gt || op == Op::Ge;
    return em->mk(op, pred ? boolT() : intT(), {a, b});
  }
  ExprRef call(const std::string& name, std::vector<ExprRef> args) const {
    for (uint32_t i = 0; i < p->callees.size(); ++i)
      if (p->calleeName(i) == name) return em->mk(Op::Call, intT(), std::move(args), i);
    FAIL("no callee " << name);
    return nullptr;
  }
  std::unique_ptr<smt::Solver> solver(smt::Backend b) const {
    smt::SolverOptions so;
    so.backend = b;
    return smt::makeSolver(so, smt::programNaming(*p));
  }
};

// hash of ISSTA'11 Fig. 1, with the partitions of mixed_partition.tdm.
const char* const kHash = R"(
@concrete proc hash(x: int): int partition(x > 3, x <= 3) {
  if (0 <= x && x <= 10) { return 10 * x; }
  return 0;
}
@concrete proc plain(x: int): int {
  if (0 <= x && x <= 10) { return 10 * x; }
  return 0;
}
native isqrt(x: int): int;
proc test(x: int, y: int): int { return hash(x) + plain(y) + isqrt(x); }
)";

// Random solving alone, `rounds` rounds of tries, seeded.
MixedOptions randomOptions(uint64_t rounds, uint64_t seed) {
  MixedOptions o;
  o.heuristics = {Heuristic::Random};
  o.maxTries = rounds;
  o.seed = seed;
  return o;
}

PcAnswer mixedCheck(const Fixture& f, smt::Solver& s, const std::vector<ExprRef>& pc,
                    MixedOptions o, SolvingStats* stats = nullptr) {
  auto pcs = makeMixedPathSolver(s, *f.ev, o);
  PcAnswer a = pcs->check(pc);
  if (stats) *stats = pcs->stats();
  return a;
}

// Every formula of the certificate holds in `m`, and so does the path condition once the complex
// terms take their concrete values on m's inputs (`inputs`: the symbols, by default x and y).
void checkWitness(const Fixture& f, smt::Solver& s, const std::vector<ExprRef>& pc,
                  const PcAnswer& a, std::vector<ExprRef> inputs = {}) {
  REQUIRE(a.isSat());
  REQUIRE(a.certificate);
  if (inputs.empty()) inputs = {f.x, f.y};
  auto pcs = makeMixedPathSolver(s, *f.ev, {});
  smt::MinimizedModel mm = pcs->inputs(pc, a.certificate, inputs);
  REQUIRE(mm.model);
  SymbolValues values;
  for (ExprRef in : inputs) values.emplace(in, *mm.model->evalInt(in));
  for (ExprRef c : pc) {
    auto v = evalConcretely(*f.ev, *f.em, c, values);
    REQUIRE(v);
    CHECK((*v)->isTrue());
  }
}

struct Run {
  int exit = -1;
  nlohmann::json report;
  std::string err;
};

Run command(const ir::Program& p, test::Args o) {
  o.flag("--json");
  o.flag("--quiet");
  o.file("t.tdm");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  r.err = err.str();
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

test::Args testgen(const std::string& entry, const std::string& solving, smt::Backend b) {
  test::Args o;
  o.command("testgen");
  o.set("--entry", entry);
  o.set("--solving", symbolic::solvingName(*parseSolving(solving)));
  o.set("--solver", smt::backendName(b));
  return o;
}

bool has(const nlohmann::json& list, const std::string& label) {
  for (const auto& l : list)
    if (l == label) return true;
  return false;
}

// A back end that answers unknown to every query with more than `limit` assertions and
// assumptions in total, and sat (with an empty model) otherwise.
class UnknownAbove final : public smt::Solver {
 public:
  explicit UnknownAbove(size_t limit) : limit_(limit) {}
  std::string name() const override { return "unknown-above"; }
  smt::Capabilities capabilities() const override { return {}; }
  unsigned level() const override { return static_cast<unsigned>(scopes_.size()); }
  const smt::Model& model() const override { return model_; }
  void setTimeout(unsigned) override {}

 protected:
  void doAdd(ExprRef) override { ++added_; }
  smt::CheckResult doCheck(std::span<const ExprRef> as) override {
    if (added_ + as.size() > limit_) return smt::CheckResult::unknown("simulated");
    return smt::CheckResult::sat();
  }
  void doPush() override { scopes_.push_back(added_); }
  void doPop(unsigned n) override {
    for (; n > 0; --n) {
      added_ = scopes_.back();
      scopes_.pop_back();
    }
  }
  void addChainStats(smt::SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
  }

 private:
  size_t limit_, added_ = 0;
  std::vector<size_t> scopes_;
  smt::Model model_;
};

}  // namespace

TEST_CASE("mixed: an unknown answer is counted, never taken as unsat") {
  Fixture f(kHash);
  std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(0)), f.bin(Op::Eq, f.y, f.call("hash", {f.x}))};
  // simplePC (one conjunct) is known; every larger query is not.
  UnknownAbove s(1);
  SolvingStats st;
  PcAnswer a = mixedCheck(f, s, pc, {}, &st);
  CHECK_FALSE(a.isUnsat());
  CHECK(a.isUnknown());
  CHECK(st.unknown > 0);
  // simplePC itself unknown: the answer is the solver's unknown, not undecided.
  UnknownAbove none(0);
  a = mixedCheck(f, none, pc, {}, &st);
  CHECK(a.isUnknown());
  CHECK_FALSE(a.undecided);
  CHECK(a.reason == "simulated");
  // Through the explorer: the outcome is incomplete and the unknown answers are reported.
  ExploreOptions eo;
  eo.solving = Solving::Mixed;
  auto p = loadShared("mixed_hash.tdm");
  exec::NativeRegistry natives;
  exec::Evaluator ev(*p, natives);
  eo.entry = p->findCfaId("test", ir::CfaKind::Proc);
  UnknownAbove two(2);
  ExploreResult r = exploreSymbolic(*p, ev, two, eo);
  CHECK(r.outcome == Outcome::Incomplete);
  CHECK(r.unknownAnswers > 0);
  CHECK(r.reason.find("unknown") != std::string::npos);
}

TEST_CASE("mixed: partition(...) conditions stay in the IR and are printed") {
  auto p = loadText(R"(
native isqrt(x: int): int partition(x >= 10000, x < 10000);
@concrete proc hash(x: int): int partition(x > 3, x <= 3) { return x; }
proc test(x: int): int { return isqrt(x) + hash(x); }
)");
  int found = 0;
  for (uint32_t i = 0; i < p->callees.size(); ++i) {
    ir::CalleePartitions parts = p->partitionsOf(i);
    if (p->calleeName(i) == "isqrt" || p->calleeName(i) == "hash") {
      ++found;
      CHECK(parts.conditions.size() == 2);
      REQUIRE(parts.params.size() == 1);
      CHECK(freeVars(parts.conditions[0]) == std::vector<uint32_t>{parts.params[0]});
    }
  }
  CHECK(found == 2);
  std::string ir = ir::programToString(*p);
  CHECK(ir.find("partition(x >= 10000, x < 10000)") != std::string::npos);
  CHECK(ir.find("partition(x > 3, x <= 3)") != std::string::npos);
}

TEST_CASE("mixed: complex terms and the split into simplePC and complexPC") {
  Fixture f(kHash);
  ExprRef h = f.call("hash", {f.x});
  CHECK(isComplexTerm(h));
  CHECK(isNonLinear(f.bin(Op::Mul, f.x, f.y)));
  CHECK(isNonLinear(f.bin(Op::Mul, f.x, f.x)));
  CHECK(isNonLinear(f.bin(Op::Div, f.x, f.y)));
  CHECK(isNonLinear(f.bin(Op::Mod, f.y, f.x)));
  CHECK_FALSE(isNonLinear(f.bin(Op::Mul, f.num(3), f.x)));
  CHECK_FALSE(isNonLinear(f.bin(Op::Div, f.x, f.num(2))));
  CHECK_FALSE(isComplexTerm(f.bin(Op::Add, f.x, f.y)));

  ExprRef xPos = f.bin(Op::Gt, f.x, f.num(0));
  ExprRef yHash = f.bin(Op::Eq, f.y, h);
  ExprRef cube = f.bin(Op::Gt, f.bin(Op::Mul, f.bin(Op::Mul, f.x, f.x), f.x), f.num(0));
  ExprRef lin = f.bin(Op::Lt, f.bin(Op::Mul, f.num(2), f.y), f.num(5));
  // Conjunctions are flattened first: `x > 0 && y == hash(x)` splits too.
  SplitPc s = splitPathCondition(std::vector<ExprRef>{f.em->mkAnd(xPos, yHash), cube, lin});
  CHECK(s.simple == std::vector<ExprRef>{xPos, lin});
  CHECK(s.complex == std::vector<ExprRef>{yHash, cube});
  // Maximal complex terms only: x*x inside (x*x)*x is not listed on its own.
  REQUIRE(s.complexTerms.size() == 2);
  CHECK(s.complexTerms[0] == h);
  CHECK(s.complexTerms[1] == cube->kid(0));
  // Only the symbols inside complex terms are pinned by extraPC (y is not).
  CHECK(s.complexSymbols == std::vector<ExprRef>{f.x});
}

TEST_CASE("mixed: extraPC keeps the solution sound (ISSTA'11 Sect. 3.2, mixed_unsound)") {
  Fixture f(kHash);
  // x >= 0 && x > y && y == x*x has no solution. Substituting x*x by its value on the first
  // solution of simplePC (x = 0) without x == 0 would give y == 0, satisfiable with x = 1.
  ExprRef sq = f.bin(Op::Mul, f.x, f.x);
  std::vector<ExprRef> pc{f.bin(Op::Ge, f.x, f.num(0)), f.bin(Op::Gt, f.x, f.y),
                          f.bin(Op::Eq, f.y, sq)};
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    std::vector<ExprRef> unsound{pc[0], pc[1], f.bin(Op::Eq, f.y, f.num(0))};
    CHECK(s->check(unsound).isSat());  // what dropping extraPC would conclude
    SolvingStats st;
    PcAnswer a = mixedCheck(f, *s, pc, {}, &st);
    CHECK_FALSE(a.isSat());
    CHECK(a.undecided);  // never unsat: x ranges over infinitely many candidates
    CHECK(st.undecided == 1);
    CHECK(st.tries == 11);  // the first solution and --max-tries 10 more
  }
  // Through testgen: S0 is never claimed, the dropped path is counted, and the verdict is
  // unknown (a dropped path may fail: ../shared/reported/testgen_mixed_drops_error.tdm).
  auto p = loadShared("mixed_unsound.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    Run r = command(*p, testgen("test", "mixed", b));
    CHECK(r.exit == 4);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(has(r.report["covered_labels"], "S1"));
    CHECK(has(r.report["uncovered_labels"], "S0"));
    CHECK(r.report["stats"]["undecided"] == 1);
    CHECK(r.report["stats"]["divergences"] == 0);
    CHECK(r.report["reason"].get<std::string>().find("could not decide") != std::string::npos);
  }
}

TEST_CASE("mixed: the certificate's models follow the path concretely") {
  Fixture f(kHash);
  // x > 3 && y > 10 && y == hash(x): x = 4 (simplePC's least), hash(4) = 40, y = 40.
  std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(3)), f.bin(Op::Gt, f.y, f.num(10)),
                          f.bin(Op::Eq, f.y, f.call("hash", {f.x}))};
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    PcAnswer a = mixedCheck(f, *s, pc, {});
    checkWitness(f, *s, pc, a);
    // The certificate is simplePC, extraPC (x == 4) and complexPC' (y == 40).
    const auto& cert = *a.certificate;
    CHECK(std::find(cert.begin(), cert.end(), f.em->mkEq(f.x, f.num(4))) != cert.end());
    CHECK(std::find(cert.begin(), cert.end(), f.bin(Op::Eq, f.y, f.num(40))) != cert.end());
    // No complex part: the query goes to the solver as it is (no certificate needed).
    PcAnswer plain = mixedCheck(f, *s, {pc[0], pc[1]}, {});
    CHECK(plain.isSat());
    CHECK_FALSE(plain.certificate);
    // simplePC unsat: PC unsat, whatever the complex part.
    PcAnswer unsat = mixedCheck(f, *s, {f.bin(Op::Lt, f.x, f.num(0)), pc[0], pc[2]}, {});
    CHECK(unsat.isUnsat());
  }
}

TEST_CASE("mixed: incremental heuristic negates extraPC and retries") {
  Fixture f(kHash);
  // x > 0 && y == hash(x) && y > 10 (mixed_partition's S0 and S3): x = 1 gives hash 10.
  std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(0)), f.bin(Op::Eq, f.y, f.call("hash", {f.x})),
                          f.bin(Op::Gt, f.y, f.num(10))};
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    MixedOptions o;
    o.heuristics = {Heuristic::Incremental};
    o.maxTries = 0;
    SolvingStats st;
    PcAnswer a = mixedCheck(f, *s, pc, o, &st);
    CHECK(a.undecided);
    CHECK(st.tries == 1);
    o.maxTries = 10;
    a = mixedCheck(f, *s, pc, o, &st);
    checkWitness(f, *s, pc, a);
    CHECK(st.tries == 2);  // x = 1 refuted, then x != 1 gives x = 2, hash 20
    CHECK(st.heuristicSuccesses == 1);
    CHECK(std::find(a.certificate->begin(), a.certificate->end(), f.em->mkEq(f.x, f.num(2))) !=
          a.certificate->end());
    // When the excluded solutions cover simplePC, PC is unsat (decided, not undecided):
    // 0 <= x <= 3 && y == hash(x) && y == 15 (hash gives 0, 10, 20, 30).
    std::vector<ExprRef> small{f.bin(Op::Ge, f.x, f.num(0)), f.bin(Op::Le, f.x, f.num(3)),
                               f.bin(Op::Eq, f.y, f.call("hash", {f.x})),
                               f.bin(Op::Eq, f.y, f.num(15))};
    a = mixedCheck(f, *s, small, o, &st);
    CHECK(a.isUnsat());
    CHECK(st.exhausted == 1);
    CHECK(st.tries == 5);  // four candidates, then no solution left
    // Candidates whose concrete run fails (isqrt is undefined below 0) refute nothing.
    std::vector<ExprRef> failing{f.bin(Op::Ge, f.x, f.num(-3)), f.bin(Op::Le, f.x, f.num(-1)),
                                 f.bin(Op::Eq, f.y, f.call("isqrt", {f.x}))};
    a = mixedCheck(f, *s, failing, o, &st);
    CHECK(a.undecided);
    CHECK(st.exhausted == 0);
    CHECK(st.tries == 4);
  }
}

TEST_CASE("mixed: partition heuristic adds the partition conditions one at a time") {
  Fixture f(kHash);
  for (std::string callee : {"hash", "plain"}) {
    CAPTURE(callee);
    std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(0)), f.bin(Op::Eq, f.y, f.call(callee, {f.x})),
                            f.bin(Op::Gt, f.y, f.num(10))};
    for (auto b : smt::allBackends()) {
      CAPTURE(smt::backendName(b));
      auto s = f.solver(b);
      MixedOptions o;
      o.heuristics = {Heuristic::Partition};
      SolvingStats st;
      PcAnswer a = mixedCheck(f, *s, pc, o, &st);
      if (callee == "plain") {  // no partitions: nothing to try after x = 1
        CHECK(a.undecided);
        CHECK(st.tries == 1);
        continue;
      }
      checkWitness(f, *s, pc, a);
      CHECK(st.tries == 2);  // x = 1, then the partition x > 3 gives x = 4, hash 40
      CHECK(std::find(a.certificate->begin(), a.certificate->end(), f.em->mkEq(f.x, f.num(4))) !=
            a.certificate->end());
    }
  }
  // A native's partitions: isqrt(x) == 100 needs x >= 10000, which no small try reaches.
  auto p = loadText(R"(
native isqrt(x: int): int partition(x >= 10000, x < 10000);
proc test(x: int) { if (isqrt(x) == 100) { A: skip; } else { B: skip; } }
)");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    test::Args o = testgen("test", "mixed", b);
    o.set("--heuristic", "partition");
    Run r = command(*p, o);
    CHECK(has(r.report["covered_labels"], "A"));
    CHECK(has(r.report["covered_labels"], "B"));
    CHECK(r.report["stats"]["divergences"] == 0);
    o.set("--heuristic", "incremental");
    r = command(*p, o);
    CHECK(has(r.report["uncovered_labels"], "A"));
    CHECK(r.report["stats"]["undecided"] == 1);
  }
}

TEST_CASE("mixed: random heuristic picks seeded values for unconstrained symbols") {
  Fixture f(kHash);
  ExprRef cubePos = f.bin(Op::Gt, f.bin(Op::Mul, f.bin(Op::Mul, f.x, f.x), f.x), f.num(0));
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    MixedOptions o = randomOptions(20, 1);
    SolvingStats st;
    // x*x*x > 0 alone: simplePC is empty, its least solution x = 0 fails, random values do not.
    PcAnswer a = mixedCheck(f, *s, {cubePos}, o, &st);
    checkWitness(f, *s, {cubePos}, a);
    CHECK(st.heuristicSuccesses == 1);
    // The same seed gives the same values under every back end.
    auto z3 = f.solver(smt::Backend::Z3);
    PcAnswer again = mixedCheck(f, *z3, {cubePos}, o);
    CHECK(*again.certificate == *a.certificate);
    // x constrained by simplePC (x < 1): random solving draws values below 1, every one
    // refuted (x < 1 makes the cube non-positive), so the query is undecided after every try.
    a = mixedCheck(f, *s, {cubePos, f.bin(Op::Lt, f.x, f.num(1))}, o, &st);
    CHECK(a.undecided);
    CHECK(st.tries == 21);
  }
  auto p = loadShared("mixed_cube.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    test::Args o = testgen("test", "mixed", b);
    o.set("--heuristic", "random");
    o.set("--max-tries", "20");
    o.set("--seed", "1");
    Run r = command(*p, o);
    CHECK(has(r.report["covered_labels"], "ABORT1"));
    CHECK(has(r.report["uncovered_labels"], "ABORT2"));
    CHECK(r.report["heuristic"] == "random");
  }
}

TEST_CASE("mixed: every mode on ISSTA'11 Fig. 1 (mixed_hash)") {
  auto p = loadShared("mixed_hash.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    Run mixed = command(*p, testgen("test", "mixed", b));
    CHECK(mixed.report["solving"] == "mixed");
    CHECK(mixed.report["stats"]["paths"] == 5);
    CHECK(mixed.report["uncovered_labels"].empty());
    CHECK(mixed.report["stats"]["divergences"] == 0);
    // classic: hash is an uninterpreted function, so the solver's value for it is a guess.
    Run classic = command(*p, testgen("test", "classic", b));
    CHECK(classic.report["stats"]["divergences"].get<int>() > 0);
    CHECK(has(classic.report["uncovered_labels"], "S0"));
  }
}

TEST_CASE("exe: arguments are concretized at the first call and stay fixed") {
  auto p = loadText(std::string(kHash) + R"(
proc early(x: int) {
  var r: int = 0;
  r := hash(x);
  if (x > 3) { A: skip; } else { B: skip; }
}
)");
  auto fig1 = loadShared("mixed_hash.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    // The call pins x to 0 (the least solution of the empty path condition), so x > 3 is
    // infeasible afterwards, although r is never used in a branch.
    Run exe = command(*p, testgen("early", "exe", b));
    CHECK(has(exe.report["uncovered_labels"], "A"));
    CHECK(exe.report["stats"]["concretizations"].get<int>() >= 1);
    CHECK(exe.report["solving"] == "exe");
    Run mixed = command(*p, testgen("early", "mixed", b));
    CHECK(mixed.report["uncovered_labels"].empty());
    // ISSTA'11 Fig. 1: EXE fixes x = 1 at `y == hash(x)`, so x > 3 && y > 10 is lost.
    Run r = command(*fig1, testgen("test", "exe", b));
    CHECK(has(r.report["uncovered_labels"], "S3"));
    for (const auto& t : r.report["tests"])
      if (t["inputs"]["x"] != 0) CHECK(t["inputs"]["x"] == 1);
    CHECK(r.report["stats"]["divergences"] == 0);
    // check never says verified after concretization.
    test::Args o = testgen("test", "exe", b);
    o.command("check");
    Run c = command(*fig1, o);
    CHECK(c.report["verdict"] == "unknown");
  }
}

TEST_CASE("exe: the concretizer pins symbols from a solution of the path condition") {
  Fixture f(kHash);
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    ExeConcretizer exe(*s, *f.ev);
    SymState st;
    st.pathCond = {f.bin(Op::Gt, f.x, f.num(5))};
    auto ops =
        exe.concretize(std::vector<ExprRef>{f.bin(Op::Add, f.x, f.num(1))}, f.em->trueExpr(), st);
    REQUIRE(ops);
    CHECK((*ops)[0] == f.num(7));  // x = 6, the least solution of x > 5
    std::vector<ExprRef> pins = exe.takeConstraints();
    REQUIRE(pins.size() == 1);
    CHECK(pins[0] == f.em->mkEq(f.x, f.num(6)));
    // Once pinned, the value is reused without asking the solver.
    st.pathCond.push_back(pins[0]);
    ops = exe.concretize(std::vector<ExprRef>{f.x}, f.em->trueExpr(), st);
    CHECK((*ops)[0] == f.num(6));
    CHECK(exe.takeConstraints().empty());
    CHECK(exe.concretizations() == 2);
  }
}

TEST_CASE("dart: concrete runs, negated branches, re-execution") {
  auto linear = loadText(R"(
proc f(a: int, b: int) {
  if (a > 0) { A: skip; } else { B: skip; }
  if (b > 5) { C: skip; } else { D: skip; }
}
)");
  auto partition = loadShared("mixed_partition.tdm");
  auto unsound = loadShared("mixed_unsound.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    // Linear: one run per path, no restart, and the directed search is complete.
    Run r = command(*linear, testgen("f", "dart", b));
    CHECK(r.report["stats"]["tests"] == 4);
    CHECK(r.report["stats"]["dart_runs"] == 4);
    CHECK(r.report["stats"]["executions"] == 4);
    CHECK(r.report["stats"]["dart_restarts"] == 0);
    CHECK(r.report["uncovered_labels"].empty());
    CHECK_FALSE(r.report.contains("reason"));
    test::Args o = testgen("f", "dart", b);
    o.command("check");
    CHECK(command(*linear, o).report["verdict"] == "verified");
    // hash(x) is replaced by its value on the run's x: y == hash(x) && y > 10 becomes
    // y == 10 && y > 10 after x = 1, so S3 after S0 is never reached; the restarts are counted.
    r = command(*partition, testgen("test", "dart", b));
    CHECK(has(r.report["uncovered_labels"], "S3"));
    CHECK(r.report["stats"]["dart_runs"].get<int>() > 1);
    CHECK(r.report["stats"]["dart_restarts"] == 10);
    CHECK(r.report["stats"]["divergences"] == 0);
    // y == x*x negated with x*x concretized: the new run takes the same branch again.
    r = command(*unsound, testgen("test", "dart", b));
    CHECK(r.report["stats"]["dart_mispredictions"].get<int>() > 0);
    CHECK(has(r.report["uncovered_labels"], "S0"));
  }
  // Reproducible: the seed fixes the random inputs.
  Run a = command(*partition, testgen("test", "dart", smt::Backend::Z3));
  Run c = command(*partition, testgen("test", "dart", smt::Backend::Cvc5));
  CHECK(a.report["tests"] == c.report["tests"]);
  test::Args o = testgen("test", "dart", smt::Backend::Z3);
  o.set("--seed", "7");
  Run d = command(*partition, o);
  CHECK(d.report["tests"] != a.report["tests"]);
}

TEST_CASE("mixed: check --entry stays classic unless --solving is given") {
  auto p = loadShared("mixed_unsound.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    test::Args o = testgen("test", "mixed", b);
    o.command("check");
    o.unset("--solving");
    Run r = command(*p, o);
    CHECK(r.report["solving"] == "classic");
    o.set("--solving", symbolic::solvingName(Solving::Mixed));
    r = command(*p, o);
    CHECK(r.report["solving"] == "mixed");
    // The undecided path could hide an error: never `verified`.
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.exit == 4);
    CHECK(r.report["stats"]["undecided"] == 1);
  }
}

TEST_CASE("mixed: --heuristic takes a list; empty, unknown and repeated names are usage errors") {
  std::string why;
  auto l = parseHeuristicList("partition,random,incremental", &why);
  REQUIRE(l);
  CHECK(*l ==
        std::vector<Heuristic>{Heuristic::Partition, Heuristic::Random, Heuristic::Incremental});
  CHECK(heuristicListName(*l) == "partition,random,incremental");
  CHECK(parseHeuristicList("random") == std::vector<Heuristic>{Heuristic::Random});
  for (const char* bad :
       {"", ",", "random,", ",random", "random,,partition", "Random", "simple", "random,random",
        "incremental,partition,incremental", "random partition"}) {
    CAPTURE(bad);
    why.clear();
    CHECK_FALSE(parseHeuristicList(bad, &why));
    CHECK_FALSE(why.empty());
  }
  parseHeuristicList("random,partition,random", &why);
  CHECK(why == "heuristic 'random' is listed twice");
  parseHeuristicList("incremental,greedy", &why);
  CHECK(why == "unknown heuristic 'greedy' (heuristics: incremental, partition, random)");
  // Through the command line: exit 2 naming the option; the report shows the list.
  auto p = loadShared("mixed_partition.tdm");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    test::Args o = testgen("test", "mixed", b);
    o.set("--heuristic", "partition,partition");
    Run r = command(*p, o);
    CHECK(r.exit == 2);
    CHECK(r.err.find("--heuristic: heuristic 'partition' is listed twice") != std::string::npos);
    o.set("--heuristic", "incremental,fast");
    r = command(*p, o);
    CHECK(r.exit == 2);
    CHECK(r.err.find("unknown heuristic 'fast'") != std::string::npos);
    o.set("--heuristic", "random,partition");
    r = command(*p, o);
    CHECK(r.exit == 0);
    CHECK(r.report["heuristic"] == "random,partition");
    CHECK(r.report["uncovered_labels"].empty());
    // --stats in text names the list too.
    o.flag("--stats");
    o.flag("--quiet");
    o.file("t.tdm");
    std::ostringstream out, err;
    CHECK(o.execute(*p, out, err) == 0);
    CHECK(out.str().find("\nheuristic: random,partition\n") != std::string::npos);
  }
}

TEST_CASE("mixed: combined heuristics take turns in each round, in the order given") {
  Fixture f(kHash);
  // x > 0 && y == hash(x) && y > 35: x = 1 first; incremental alone then tries x = 2, 3, 4.
  std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(0)), f.bin(Op::Eq, f.y, f.call("hash", {f.x})),
                          f.bin(Op::Gt, f.y, f.num(35))};
  auto x4 = [&](const PcAnswer& a) {
    return std::find(a.certificate->begin(), a.certificate->end(), f.em->mkEq(f.x, f.num(4))) !=
           a.certificate->end();
  };
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    MixedOptions o;
    SolvingStats st;
    o.heuristics = {Heuristic::Incremental};
    PcAnswer a = mixedCheck(f, *s, pc, o, &st);
    checkWitness(f, *s, pc, a);
    CHECK(st.tries == 4);
    // One round is enough for the pair: incremental tries x = 2, then partition adds x > 3.
    o.heuristics = {Heuristic::Incremental, Heuristic::Partition};
    o.maxTries = 1;
    a = mixedCheck(f, *s, pc, o, &st);
    checkWitness(f, *s, pc, a);
    CHECK(st.tries == 3);
    CHECK(x4(a));
    // The other order: partition's try comes first and succeeds; incremental never runs.
    o.heuristics = {Heuristic::Partition, Heuristic::Incremental};
    a = mixedCheck(f, *s, pc, o, &st);
    CHECK(st.tries == 2);
    CHECK(x4(a));
    CHECK(st.heuristicSuccesses == 1);
    // maxTries counts rounds: incremental alone with one round is undecided.
    o.heuristics = {Heuristic::Incremental};
    a = mixedCheck(f, *s, pc, o, &st);
    CHECK(a.undecided);
    CHECK(a.reason.find("(incremental)") != std::string::npos);
    // A heuristic with nothing left drops out: partition's two conditions, then incremental
    // alone (0 <= x <= 3 && y == hash(x) && y == 15: hash gives 0, 10, 20, 30).
    std::vector<ExprRef> small{f.bin(Op::Ge, f.x, f.num(0)), f.bin(Op::Le, f.x, f.num(3)),
                               f.bin(Op::Eq, f.y, f.call("hash", {f.x})),
                               f.bin(Op::Eq, f.y, f.num(15))};
    o.maxTries = 10;
    o.heuristics = {Heuristic::Partition, Heuristic::Random};
    a = mixedCheck(f, *s, small, o, &st);
    CHECK(a.undecided);
    CHECK(a.reason.find("(partition,random)") != std::string::npos);
    CHECK(st.exhausted == 0);
    // incremental's unsat needs only its own tries to be conclusive, whatever the others did.
    o.heuristics = {Heuristic::Partition, Heuristic::Random, Heuristic::Incremental};
    a = mixedCheck(f, *s, small, o, &st);
    CHECK(a.isUnsat());
    CHECK(st.exhausted == 1);
  }
}

TEST_CASE("mixed: random solving brackets each independent range once, across tries") {
  Fixture f(kHash);
  // simplePC is one conjunct over x and y, as `if (x < 10 || x > 90 || y < 10 || y > 90)
  // return;` leaves it; complexPC isqrt(x) == 7 && isqrt(y) == 10 refutes every try (y <= 90).
  // Random draws in [-1000, 1000] mostly fall outside [10, 90], so each symbol needs its least
  // and greatest solutions: x's and y's slices are independent (read by De Morgan), so each is
  // searched once for all the tries, not again for every value drawn for the other.
  ExprRef envelope = f.em->mkNot(
      f.em->mkOr(f.em->mkOr(f.bin(Op::Lt, f.x, f.num(10)), f.bin(Op::Gt, f.x, f.num(90))),
                 f.em->mkOr(f.bin(Op::Lt, f.y, f.num(10)), f.bin(Op::Gt, f.y, f.num(90)))));
  std::vector<ExprRef> pc{envelope, f.bin(Op::Eq, f.call("isqrt", {f.x}), f.num(7)),
                          f.bin(Op::Eq, f.call("isqrt", {f.y}), f.num(10))};
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    MixedOptions o = randomOptions(12, 1);
    SolvingStats st;
    CHECK(mixedCheck(f, *s, pc, o, &st).undecided);
    CHECK(st.tries == 13);
    CHECK(st.brackets == 2);
  }
}

TEST_CASE(
    "mixed: random tries inside interval slices, refuted by running complexPC', ask nothing") {
  // -50 <= u <= -10 bounds u alone by constants: every value between its least and greatest
  // solutions is one, so draws there need no query (negative doubles: bit patterns with the
  // sign bit set). A try whose complexPC' is false when run is refuted without the solver, so
  // 40 rounds of random tries cost the queries of 2 (the bracket search and the first solution;
  // each on a fresh solver, whose caches start empty).
  Fixture f("proc test(u: f64): f64 { return sqrt(u); }");
  ExprManager& em = *f.em;
  TypeRef d = em.types().f64Type();
  ExprRef u = em.freshSymbol("u", d);
  ExprRef root = nullptr;
  for (uint32_t i = 0; i < f.p->callees.size(); ++i)
    if (f.p->calleeName(i) == "sqrt") root = em.mk(Op::Call, d, {em.mk(Op::Neg, d, {u})}, i);
  REQUIRE(root);
  auto cmp = [&](Op op, ExprRef a, double c) {
    return em.mk(op, f.boolT(), {a, em.floatConst(c)});
  };
  auto within = [&](double bound) {
    return std::vector<ExprRef>{em.mkNot(cmp(Op::Lt, u, -50.0)), em.mkNot(cmp(Op::Gt, u, -10.0)),
                                cmp(Op::Gt, root, bound)};
  };
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    MixedOptions o = randomOptions(0, 1);
    auto queries = [&](uint64_t rounds, SolvingStats& st) {
      o.maxTries = rounds;
      auto fresh = f.solver(b);
      CHECK(mixedCheck(f, *fresh, within(8.0), o, &st).undecided);  // sqrt(50) < 8
      return fresh->stats().queries;
    };
    SolvingStats two, forty;
    const uint64_t q2 = queries(2, two), q40 = queries(40, forty);
    CHECK(q40 == q2);
    // The bracket is read off the bounds, not searched for (a binary search over the doubles'
    // order asked about 40 queries): the simple part and the first solution are all that ask.
    CHECK(two.brackets == 1);
    CHECK(q2 < 10);
    CHECK(forty.tries == 41);
    CHECK(forty.concreteRefutations == 41);
    // sqrt(-u) > 6.9 needs u < -47.61, about 6% of the interval: found, and inside it.
    o.maxTries = 200;
    auto s = f.solver(b);
    PcAnswer a = mixedCheck(f, *s, within(6.9), o);
    checkWitness(f, *s, within(6.9), a, {u});
  }
}

TEST_CASE("mixed: random solving draws solutions of simplePC (ISSTA'11 Sect. 3.5)") {
  Fixture f(kHash);
  // 0 < x < 100 && isqrt(x) == 7 needs 49 <= x <= 63. simplePC mentions x, so the old random
  // heuristic had nothing to draw; incremental tries x = 1, 2, ... and runs out of tries.
  std::vector<ExprRef> pc{f.bin(Op::Gt, f.x, f.num(0)), f.bin(Op::Lt, f.x, f.num(100)),
                          f.bin(Op::Eq, f.call("isqrt", {f.x}), f.num(7))};
  auto xOf = [&](const PcAnswer& a) -> int64_t {
    for (ExprRef c : *a.certificate)
      if (c->op == Op::Eq && c->kid(0) == f.x && c->kid(1)->op == Op::IntConst)
        return c->kid(1)->value.small();
    return -1;
  };
  std::vector<int64_t> z3Values;
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    auto s = f.solver(b);
    MixedOptions o;
    o.maxTries = 30;
    o.seed = 1;
    SolvingStats st;
    o.heuristics = {Heuristic::Incremental};
    CHECK(mixedCheck(f, *s, pc, o, &st).undecided);
    o.heuristics = {Heuristic::Random};
    PcAnswer a = mixedCheck(f, *s, pc, o, &st);
    checkWitness(f, *s, pc, a);
    CHECK(xOf(a) >= 49);
    CHECK(xOf(a) <= 63);
    // Deterministic for a seed, under every back end; other seeds find other solutions.
    PcAnswer again = mixedCheck(f, *s, pc, o);
    CHECK(*again.certificate == *a.certificate);
    std::vector<int64_t> values;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      o.seed = seed;
      PcAnswer r = mixedCheck(f, *s, pc, o);
      REQUIRE(r.isSat());
      values.push_back(xOf(r));
    }
    if (z3Values.empty())
      z3Values = values;
    else
      CHECK(values == z3Values);
    std::sort(values.begin(), values.end());
    CHECK(std::unique(values.begin(), values.end()) - values.begin() > 1);
    // Every random value satisfies simplePC: far outside the random range too (a solution near
    // the nearest one), and a symbol pinned by simplePC keeps its only value.
    std::vector<ExprRef> far{f.bin(Op::Gt, f.x, f.num(5000)),
                             f.bin(Op::Eq, f.call("isqrt", {f.x}), f.num(75))};  // 5625..5775
    o.seed = 1;
    a = mixedCheck(f, *s, far, o, &st);
    checkWitness(f, *s, far, a);
    std::vector<ExprRef> pinned{f.bin(Op::Eq, f.x, f.num(50)),
                                f.bin(Op::Eq, f.call("isqrt", {f.x}), f.num(7))};
    a = mixedCheck(f, *s, pinned, o, &st);
    checkWitness(f, *s, pinned, a);
    CHECK(st.tries == 1);
  }
  // An i32 whose solutions are all near its greatest value. The window of the second draw is
  // [2147483001, 2147483647] (the nearest solution measured in unbounded integers: a wrapping
  // i32 difference made 2147483647 look nearest to -1000) cut at the i32 maximum, and with
  // seed 3 no draw hits the one solution of z*z == 1 there: every try is a valid i32 refuted.
  {
    TypeRef i32 = f.em->types().i32Type();
    ExprRef z = f.em->freshSymbol("z", i32);
    ExprRef big = f.em->intConst(BigInt(2147483000), i32);
    ExprRef square = f.em->mk(Op::Mul, i32, {z, z});
    // z*z (wrapping) is 1 for z = 2147483647 only (-1 squared) in this range.
    std::vector<ExprRef> top{f.em->mk(Op::Gt, f.boolT(), {z, big}),
                             f.em->mk(Op::Eq, f.boolT(), {square, f.em->intConst(BigInt(1), i32)})};
    for (auto b : smt::allBackends()) {
      CAPTURE(smt::backendName(b));
      auto s = f.solver(b);
      MixedOptions o = randomOptions(10, 3);
      SolvingStats st;
      PcAnswer a = mixedCheck(f, *s, top, o, &st);
      CHECK(st.tries == 11);
      CHECK(st.unknown == 0);
      if (a.isSat())
        CHECK(std::find(a.certificate->begin(), a.certificate->end(),
                        f.em->mkEq(z, f.em->intConst(BigInt(2147483647), i32))) !=
              a.certificate->end());
    }
  }
  // f64 values are drawn in the same place: finite doubles, the same ones for a seed.
  std::mt19937_64 g1(7), g2(7);
  bool fractional = false, integral = false;
  for (int i = 0; i < 200; ++i) {
    BigInt bits = randomInput(g1, f.em->types().f64Type());
    CHECK(bits == randomInput(g2, f.em->types().f64Type()));
    double d = f64::fromBits(static_cast<uint64_t>(bits.wrapTo(64)));
    CHECK(std::isfinite(d));
    if (d != std::floor(d)) fractional = true;
    if (d == std::floor(d) && d != 0) integral = true;
    ExprRef c = constantFor(*f.em, f.em->types().f64Type(), bits);
    CHECK(c->op == Op::FloatConst);
  }
  CHECK(fractional);
  CHECK(integral);
}

TEST_CASE("mixed: --paper-defaults makes random solving the heuristic") {
  auto p = loadText(R"(
proc test(x: int) {
  if (0 < x && x < 100) {
    if (isqrt(x) == 7) { A: skip; } else { B: skip; }
  }
}
)");
  for (auto b : smt::allBackends()) {
    CAPTURE(smt::backendName(b));
    test::Args o = testgen("test", "mixed", b);
    o.set("--max-tries", "30");
    o.set("--seed", "1");
    Run r = command(*p, o);
    CHECK(r.report["heuristic"] == "incremental");
    CHECK(has(r.report["uncovered_labels"], "A"));
    o.unset("--max-tries");  // a --max-tries given would win over the paper's
    o.flag("--paper-defaults");
    r = command(*p, o);
    CHECK(r.report["heuristic"] == "random");
    CHECK(r.report["max_tries"] == symbolic::kPaperMaxTries);
    CHECK(has(r.report["covered_labels"], "A"));
    CHECK(has(r.report["covered_labels"], "B"));
    CHECK(r.report["stats"]["divergences"] == 0);
    // --max-tries given wins.
    o.set("--max-tries", "30");
    r = command(*p, o);
    CHECK(r.report["max_tries"] == 30);
    CHECK(has(r.report["covered_labels"], "A"));
    // --heuristic given wins.
    o.set("--heuristic", "incremental,partition");
    r = command(*p, o);
    CHECK(r.report["heuristic"] == "incremental,partition");
    // Only where mixed solving applies.
    test::Args c = testgen("test", "mixed", b);
    c.command("check");
    c.unset("--solving");
    c.flag("--paper-defaults");
    r = command(*p, c);
    CHECK(r.exit == 2);
    CHECK(r.err.find("--paper-defaults applies to --solving mixed") != std::string::npos);
    c.set("--solving", symbolic::solvingName(Solving::Mixed));
    r = command(*p, c);
    CHECK(r.exit != 2);
    CHECK(r.report["heuristic"] == "random");
  }
}

TEST_CASE("complex terms: path conditions are DAGs; each shared subterm is visited and run once") {
  // A loop's `a := a * a + a` doubles the tree of `a` per iteration: 64 iterations make a tree
  // of 2^64 nodes on a DAG of about 130. Walking it as a tree (the non-linearity test's array
  // check, the concrete run of a complex term) never ended.
  Fixture f(kHash);
  ExprRef a = f.x;
  for (int i = 0; i < 64; ++i) a = f.bin(Op::Add, f.bin(Op::Mul, a, a), a);
  ExprRef c = f.bin(Op::Gt, a, f.num(0));
  CHECK(isComplexTerm(a->kid(0)));
  std::vector<ExprRef> terms;
  collectComplexTerms(c, terms);
  CHECK(terms.size() == 64);  // one product per level: each outside the others
  auto v = evalConcretely(*f.ev, *f.em, c, SymbolValues{{f.x, BigInt(0)}});
  REQUIRE(v);
  CHECK((*v)->isFalse());  // 0 * 0 + 0 at every level
}
