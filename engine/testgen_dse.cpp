// `tandem testgen --compositional | --dse`: the dynamic symbolic execution loop of Anand,
// Godefroid, Tillmann (TACAS'08; testgen/dse.h), with summaries or over whole-program paths.
// Every execution is a test, replayed by the reference evaluator; a replay that leaves the
// execution's path is a divergence, and a test that does not reach the node its query promised
// is a misprediction: both are counted in the report, never silently kept.
#include <fstream>

#include "engine/api.h"
#include "engine/report_types.h"
#include "engine/setup.h"
#include "engine/testgen_dse.h"
#include "mc/ir/call_graph.h"
#include "mc/symbolic/replay.h"
#include "mc/symbolic/summarisable.h"
#include "report/dse_report.h"
#include "report/tests.h"
#include "report/trace_steps.h"
#include "testgen/dse.h"
#include "testgen/test_budget.h"

namespace tandem::engine {

namespace {

testgen::DseOptions dseOptions(const ir::Program& p, const TestgenRequest& r, ir::CfaId entry,
                               testgen::TestBudget& budget) {
  testgen::DseOptions o;
  o.maxExecutions = r.maxExecutions.value_or(kDefaultMaxExecutions);
  o.order = searchOrder(r, search::Strategy::Coverage);  // Pex's fair choice unless given
  o.seed = r.seed;
  o.endFilter = &budget;
  if (!r.target.empty()) {
    o.target = ir::labelledLocations(p, r.target, entry);
    if (o.target.empty())
      throw usageError("--target " + r.target + ": no such label in " + p.cfas[entry].name +
                       " or the procedures it calls");
  }
  return o;
}

}  // namespace

Report testgenDse(const ir::Program& p, const TestgenRequest& r, ir::CfaId entry) {
  if (p.isClosed())
    throw inputError(r.file, "symbolic execution of closed systems is not implemented yet");
  if (!p.invariants.empty())
    throw inputError(r.file, "invariants with --compositional and --dse: not implemented yet");
  testgen::TestBudget budget(r.allErrors, r.exitOnError, r.maxTests);
  const testgen::DseOptions o = dseOptions(p, r, entry, budget);
  refuseF64(p, "dynamic symbolic execution (testgen --dse)");
  RunContext ctx(p, r);
  symbolic::SymEvaluator sev(p, ctx.ev);
  symbolic::Transfer transfer(sev, r.tracked);
  auto solver = makeSolver(r, p, ctx.rb.budget);
  std::vector<bool> summarised(p.cfas.size(), false);
  const bool compositional = r.dse == Dse::Compositional;
  if (compositional) summarised = symbolic::summarisable(p, symbolic::SummaryShape{true, false});
  testgen::Forest forest(sev, transfer, ctx.rb.budget, entry, summarised);
  testgen::DseResult res;
  asInputErrors(r.file, "", [&] { res = testgen::runDse(forest, *solver, o); });

  Report rep;
  rep.command = "testgen";
  rep.file = r.file;
  report::TestRecorder tests(p, ctx.ev, entry, r.diag, "execution");
  uint64_t cut = 0;
  for (const testgen::DseTest& t : res.tests) {
    if (!t.kept) continue;
    const bool cutHere = t.run.end == testgen::ExecutionResult::End::Cut;
    cut += cutHere;
    auto [j, rp] = tests.record(t.run.path, cutHere);
    (void)rp;
    j.mispredicted = t.mispredicted;
  }

  if (tests.failing()) {
    rep.verdict = Verdict::Error;
  } else if (budget.enough().empty() &&
             (!r.target.empty() ? (res.targetReached || res.targetUnreachable) : res.complete)) {
    rep.verdict = Verdict::Completed;
  } else {
    rep.verdict = Verdict::Unknown;
    rep.reason = res.reason.empty() ? "dangling nodes are left" : res.reason;
  }
  if (rep.verdict != Verdict::Unknown && !res.reason.empty() && !tests.failing())
    rep.reason = res.reason;
  std::vector<std::string> summarisedNames;
  for (ir::CfaId c = 0; c < p.cfas.size(); ++c)
    if (forest.summarised(c) && forest.treeOf(c)) summarisedNames.push_back(p.cfas[c].name);
  rep.stats.executions = res.tests.size();
  tests.report(rep);
  rep.stats.duplicate_errors = budget.duplicates();
  rep.stats.cut_executions = cut;
  rep.stats.solver_queries = solver->stats().queries;
  rep.stats.summarised_procedures = summarisedNames.size();
  report::dseStats(rep.stats, res);
  addRunStats(rep.stats, ctx.rb.budget);
  rep.testgen = report::TestgenKeys{compositional ? "compositional" : "dse", summarisedNames,
                                    report::unreachableTargets(p, r.target, res), std::nullopt};
  rep.extra["search"] = search::strategyName(o.order);
  if (!r.target.empty()) {
    rep.extra["target"] = r.target;
    rep.extra["target_reached"] = res.targetReached;
  }
  rep.extra["solver"] = smt::backendName(r.solver.backend);
  if (!r.testsOut.empty())
    report::writeTestgenTests(r.testsOut, r.file, r.entry, tests.tests(), tests.decls());
  return rep;
}

}  // namespace tandem::engine
