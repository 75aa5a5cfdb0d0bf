// The decorators of the solver chain: query cache, independence slicing, SMT-LIB log and
// cross-checking, over every back end.
#include "smt_test_support.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mc/smt/caching_solver.h"
#include "mc/smt/cross_check_solver.h"
#include "mc/smt/independent_solver.h"
#include "mc/smt/smt_error.h"

using namespace smt_test;

namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t countOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::filesystem::path tempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         (name + "-" + std::to_string(std::hash<std::string>()(name)) + ".smt2");
}

// A mixed workload: (assertions, expected answer) pairs over several sorts.
struct Query {
  std::vector<ExprRef> formulas;
  SatStatus expected;
};

std::vector<Query> workload(Ctx& c) {
  ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT()), z = c.sym("z", c.intT());
  ExprRef w = c.sym("w", c.i32T());
  ExprRef a = c.sym("a", c.types.arrayOf(c.intT(), -1));
  ExprRef fx = c.call(0, c.intT(), {x});
  return {
      {{c.gt(x, c.num(0)), c.lt(y, c.num(0)), c.lt(x, c.num(10)), c.eq(z, c.num(3))},
       SatStatus::Sat},
      {{c.gt(x, c.num(0)), c.lt(y, c.num(0)), c.gt(y, c.num(5))}, SatStatus::Unsat},
      {{c.eq(c.mod(x, c.num(3)), c.num(2)), c.eq(c.div(y, c.num(-2)), c.num(4)),
        c.lt(c.add(w, c.num(1, c.i32T())), w)},
       SatStatus::Sat},
      {{c.eq(c.len(a), c.num(2)), c.eq(c.select(a, c.num(1)), y), c.gt(y, c.num(7)),
        c.eq(fx, c.num(4)), c.eq(c.call(0, c.intT(), {c.num(5)}), c.num(6))},
       SatStatus::Sat},
      {{c.eq(fx, c.num(4)), c.eq(x, c.num(5)), c.eq(c.call(0, c.intT(), {c.num(5)}), c.num(6)),
        c.gt(z, c.num(0))},
       SatStatus::Unsat},
      {{c.em.trueExpr(), c.eq(z, c.num(1))}, SatStatus::Sat},
      {{c.em.falseExpr(), c.eq(z, c.num(1))}, SatStatus::Unsat},
  };
}

}  // namespace

TEST_CASE("smt: the query cache answers repeated queries without the back end") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    ExprRef x = c.sym("x", c.intT()), y = c.sym("y", c.intT());
    auto s = makeCachingSolver(c.backend(b));
    s->add(c.gt(x, c.num(3)));
    REQUIRE(s->check().isSat());
    const BigInt first = *s->model().evalInt(x);
    REQUIRE(s->check().isSat());  // the same set: a hit with the same model
    CHECK(s->model().evalInt(x) == first);
    s->push();
    s->add(c.lt(x, y));
    s->add(c.lt(y, c.num(4)));
    CHECK(s->check().isUnsat());
    CHECK(s->check().isUnsat());
    s->pop();
    REQUIRE(s->check().isSat());  // back to the first set
    // Assumptions are part of the key.
    CHECK(s->check(std::vector<ExprRef>{c.lt(x, c.num(2))}).isUnsat());
    CHECK(s->check(std::vector<ExprRef>{c.lt(x, c.num(2))}).isUnsat());
    const SolverStats st = s->stats();
    CHECK(st.queries == 7);
    CHECK(st.cacheMisses == 3);
    CHECK(st.cacheHits == 4);
    CHECK(st.backendQueries == 3);
  }
}

TEST_CASE("smt: independence slicing gives the same answers, with a union model") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    auto plain = c.backend(b);
    auto sliced = makeIndependentSolver(c.backend(b));
    for (const Query& q : workload(c)) {
      plain->push();
      sliced->push();
      const CheckResult p = checkAll(*plain, q.formulas);
      const CheckResult s = checkAll(*sliced, q.formulas);
      CHECK(p.status == q.expected);
      CHECK(s.status == q.expected);
      if (s.isSat()) checkModelSatisfies(*sliced, q.formulas);
      plain->pop();
      sliced->pop();
    }
    // The first query splits into x, y and z groups; the fourth keeps x, f, a and y together.
    CHECK(sliced->stats().independentGroups >= 3 + 2 + 3 + 2);
    CHECK(sliced->level() == 0);
  }
}

TEST_CASE("smt: the full chain agrees with a bare back end") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    SolverOptions opts;
    opts.backend = b;
    opts.cache = true;
    opts.independence = true;
    auto chain = makeSolver(opts, c.naming);
    CHECK(chain->name() == std::string("incremental(independence(cache(") + backendName(b) + ")))");
    const std::vector<Query> queries = workload(c);
    for (int round = 0; round < 2; ++round)
      for (const Query& q : queries) {
        chain->push();
        CHECK(checkAll(*chain, q.formulas).status == q.expected);
        chain->pop();
      }
    CHECK(chain->stats().cacheHits > 0);  // the second round is answered from the cache
  }
}

TEST_CASE("smt: the SMT-LIB log holds one standalone script per query, and z3 replays it") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    const auto path = tempPath(std::string("tandem-smt-log-") + backendName(b));
    std::vector<SatStatus> answers;
    {
      SolverOptions opts;
      opts.backend = b;
      opts.logPath = path.string();
      opts.independence = false;
      opts.cache = false;
      auto s = makeSolver(opts, c.naming);
      for (const Query& q : workload(c)) {
        s->push();
        answers.push_back(checkAll(*s, q.formulas).status);
        s->pop();
      }
      CHECK(s->stats().loggedQueries == answers.size());
    }
    const std::string log = readFile(path);
    CHECK(countOf(log, "(check-sat)") == answers.size());
    CHECK(countOf(log, "(set-logic ALL)") == answers.size());
    CHECK(countOf(log, "(declare-fun") > 0);
    CHECK(log.find("; answer: unsat") != std::string::npos);

    // Replay with the z3 executable when there is one: same answers, no parse errors.
    if (std::system("z3 -version > /dev/null 2>&1") == 0) {
      const std::string cmd = "z3 " + path.string() + " 2>&1";
      FILE* pipe = popen(cmd.c_str(), "r");
      REQUIRE(pipe != nullptr);
      std::string out;
      char buf[256];
      while (fgets(buf, sizeof buf, pipe)) out += buf;
      pclose(pipe);
      std::istringstream lines(out);
      std::vector<std::string> got;
      for (std::string line; std::getline(lines, line);) got.push_back(line);
      REQUIRE(got.size() == answers.size());
      for (size_t i = 0; i < answers.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i] == satStatusName(answers[i]));
      }
    }
    std::filesystem::remove(path);
  }
  Ctx c;
  SolverOptions bad;
  bad.logPath = "/nonexistent-dir/log.smt2";
  CHECK_THROWS_AS(makeSolver(bad, c.naming), SmtError);
}

TEST_CASE("smt: cross-checking runs both back ends and agrees on sound back ends") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    std::ostringstream report;
    SolverOptions opts;
    opts.backend = b;
    opts.crossCheck = true;
    opts.report = &report;
    opts.cache = false;
    opts.independence = false;
    auto s = makeSolver(opts, c.naming);
    size_t n = 0;
    for (const Query& q : workload(c)) {
      s->push();
      const CheckResult r = checkAll(*s, q.formulas);
      CHECK(r.status == q.expected);
      if (r.isSat()) checkModelSatisfies(*s, q.formulas);
      s->pop();
      ++n;
    }
    const SolverStats st = s->stats();
    CHECK(st.crossChecks == n);
    CHECK(st.backendQueries == 2 * n);
    CHECK(st.disagreements == 0);
    CHECK(st.modelFailures == 0);
    CHECK(report.str().empty());
  }
}

namespace {

// A back end that lies: it claims unsat for everything.
class LiarSolver final : public Solver {
 public:
  std::string name() const override { return "liar"; }
  Capabilities capabilities() const override { return {}; }
  unsigned level() const override { return level_; }
  const Model& model() const override { throw SmtError("liar: no model"); }
  void setTimeout(unsigned) override {}

 protected:
  void doAdd(ExprRef) override {}
  CheckResult doCheck(std::span<const ExprRef>) override { return CheckResult::unsat(); }
  void doPush() override { ++level_; }
  void doPop(unsigned n) override { level_ -= n; }
  void addChainStats(SolverStats& into) const override {
    into.backendQueries += ownStats().queries;
  }

 private:
  unsigned level_ = 0;
};

}  // namespace

TEST_CASE("smt: a cross-check disagreement is reported loudly and answered unknown") {
  for (Backend b : allBackends()) {
    const std::string backend = backendName(b);
    CAPTURE(backend);
    Ctx c;
    std::ostringstream report;
    auto s = makeCrossCheckSolver(c.backend(b), std::make_unique<LiarSolver>(), report, c.naming);
    ExprRef x = c.sym("x", c.intT());
    s->add(c.gt(x, c.num(1)));
    const CheckResult r = s->check();
    CHECK(r.isUnknown());
    CHECK(r.reason.find("disagree") != std::string::npos);
    CHECK(s->stats().disagreements == 1);
    CHECK(report.str().find("SOLVER DISAGREEMENT") != std::string::npos);
    CHECK(report.str().find("(check-sat)") != std::string::npos);
    // Agreement on unsat is no disagreement.
    s->add(c.lt(x, c.num(0)));
    CHECK(s->check().isUnsat());
    CHECK(s->stats().disagreements == 1);
  }
}
