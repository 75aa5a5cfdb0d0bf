// `tandem testgen --entry P`: one test per path the symbolic executor ends, inputs from its
// minimised model, in the mode of `--solving` (classic, mixed (the default), exe, dart; see
// docs/symbolic.md). Every test is replayed by the reference evaluator; a replay that leaves the
// symbolic path (e.g. through a call treated as an uninterpreted function in classic mode) is
// counted as a divergence and the test keeps what the concrete run did. A bound or an interrupt
// ends the search: the tests found so far are in the report (and in --tests-out).

#include "engine/api.h"
#include "engine/request_rules.h"
#include "engine/symbolic_run.h"
#include "engine/testgen_dse.h"
#include "report/symbolic_report.h"
#include "report/tests.h"
#include "testgen/test_budget.h"

namespace tandem::engine {

namespace {

// --guide (Christakis, Mueller, Wuestholz, ICSE'16): the entry instrumented with the may/must
// conditions its annotations give; every mode but `ignore` trusts assertions verified true.
// `implicitChecks`: per edge, an unverified implicit check (for the counts).
symbolic::Guidance guidanceOf(const ir::Program& p, const TestgenRequest& r,
                              std::vector<bool>& implicitChecks) {
  implicitChecks = abstraction::implicitCheckEdges(p, r.tracked);
  symbolic::Guidance g =
      abstraction::guidanceFor(abstraction::inferUnverified(p, r.tracked), *r.guide);
  g.maxInterrupts = r.maxInterrupts.value_or(kDefaultMaxInterrupts);
  g.implicitChecks = implicitChecks;
  return g;
}

}  // namespace

Report testgen(const ir::Program& p, const TestgenRequest& r) {
  checkRules(r);
  if (!r.cls.empty())
    throw usageError(
        "testgen --class is not implemented yet (use check --class, or testgen --entry P)");
  const ir::CfaId entry = entryOf(r, p);
  if (entry == ir::kNone) throw usageError("testgen needs --entry PROC");
  if (r.dse != Dse::Off) return testgenDse(p, r, entry);
  std::vector<bool> implicitChecks;
  const symbolic::Guidance guidance =
      r.guide ? guidanceOf(p, r, implicitChecks) : symbolic::Guidance{};
  testgen::TestBudget budget(r.allErrors, r.exitOnError, r.maxTests);
  const symbolic::Solving solving = r.solving.value_or(symbolic::Solving::Mixed);
  auto run = exploreSymbolic(p, r, entry, solving, mixedOptions(r.mixed, solving, r.seed),
                             std::nullopt, /*stopAtError=*/false, r.guide ? &guidance : nullptr,
                             r.guide && *r.guide != abstraction::Guide::Ignore, &budget);
  const symbolic::ExploreResult& res = run->result;

  Report rep;
  rep.command = "testgen";
  rep.file = r.file;
  report::TestRecorder tests(p, run->ctx.ev, entry, r.diag, "path");
  uint64_t nonRedundant = 0;
  for (const symbolic::PathEnd& end : res.ends) {
    auto [t, rp] = tests.record(end);
    if (r.guide) {
      // Non-redundant: some assertion ran without its premise, or an implicit check ran (ICSE'16's
      // unverified executions).
      uint64_t unverified = rp.unverified;
      for (ir::EdgeId e : end.path) unverified += implicitChecks[e];
      t.unverifiedAssertions = unverified;
      nonRedundant += unverified > 0;
    }
  }

  const std::optional<search::Stop>& stop = run->ctx.rb.budget.stopped();
  if (tests.failing()) {
    rep.verdict = Verdict::Error;
  } else if (stop || res.depthCuts || res.unknownAnswers || res.solving.undecided ||
             !budget.enough().empty()) {
    // A bound or an interrupt cut the search, an unknown answer may hide paths, or mixed solving
    // dropped the paths it could not decide (one may fail): never a silent success. EXE-style
    // concretization only shortens the list (the reason and the stats say so).
    rep.verdict = Verdict::Unknown;
  } else {
    rep.verdict = Verdict::Completed;
  }
  if (!res.reason.empty()) rep.reason = res.reason;
  tests.report(rep);
  rep.stats.paths = res.paths;
  rep.stats.executions =
      run->options.solving == symbolic::Solving::Dart ? res.solving.runs : res.ends.size();
  rep.stats.duplicate_errors = budget.duplicates();
  rep.stats.states = res.states;
  rep.stats.solver_queries = res.solverQueries;
  if (r.guide) {
    rep.testgen = report::TestgenKeys{};
    rep.testgen->guide = abstraction::guideName(*r.guide);
    rep.stats.non_redundant_tests = nonRedundant;
    rep.stats.redundant_tests = tests.size() - nonRedundant;
    rep.stats.pruned = res.guidance.pruned;
    rep.stats.interrupts = res.guidance.interrupts;
    rep.stats.resumed = res.guidance.resumed;
    rep.stats.bounds_hit = res.depthCuts + (stop ? 1 : 0);
  }
  addRunStats(rep.stats, run->ctx.rb.budget);
  report::solvingStats(rep.stats, res);
  rep.symbolic.emplace();
  report::solvingKeys(*rep.symbolic, run->options);
  rep.extra["solver"] = smt::backendName(r.solver.backend);
  if (!r.testsOut.empty())
    report::writeTestgenTests(r.testsOut, r.file, r.entry, tests.tests(), tests.decls());
  return rep;
}

}  // namespace tandem::engine
