// `tandem cover --entry P`: bounded infeasible code detection (Christ, Hoenicke, Schaef; see
// docs/cover.md). The entry is unwound (cover/unwind.h), its reachability verification condition
// built by the symbolic transfer relation (cover/reach_vc.h) and enumerated by --algo
// (cover/algorithms.h); every test is replayed concretely. The report lists the labels and
// source lines covered and those infeasible within the bound, the tests, and the first failing
// test's trace. --prove-infeasible asks `prove` about each infeasible location (cover_prove.cpp).
#include <algorithm>
#include <map>
#include <set>

#include "cover/modular.h"
#include "engine/api.h"
#include "engine/cover_prove.h"
#include "engine/request_rules.h"
#include "engine/setup.h"
#include "mc/smt/smt_error.h"
#include "report/tests.h"
#include "report/trace_steps.h"
#include "testgen/test_budget.h"

namespace tandem::engine {

namespace {

bool hasCall(ExprRef e, std::set<ExprRef>& seen) {
  if (!seen.insert(e).second) return false;
  if (e->op == Op::Call) return true;
  for (ExprRef k : e->kids)
    if (hasCall(k, seen)) return true;
  return false;
}

// Calls inside expressions (natives, pure procedures) are uninterpreted functions to the solver:
// a model would not be an execution, and "infeasible" would not be true.
void refuseCalls(const cover::ReachVc& vc, const symbolic::SymEvaluator& sev) {
  std::set<ExprRef> seen;
  bool calls = sev.uncheckedCalls() > 0;  // a procedure's errors would go unchecked
  for (ExprRef c : vc.clauses()) calls = calls || hasCall(c, seen);
  if (calls)
    throw symbolic::NotImplemented(
        "cover: calls inside expressions (natives and pure procedures, which the solver sees "
        "as uninterpreted functions)");
}

nlohmann::json testJson(const ir::Program& p, const cover::CoverTest& t) {
  nlohmann::json j;
  j["inputs"] = report::inputsJson(t.end);
  j["labels"] = t.replay.labels;
  j["result"] = t.replay.error ? "error" : "pass";
  if (t.replay.error)
    j["error"] = {{"kind", ir::errorKindName(t.replay.error->kind)},
                  {"line", t.replay.error->loc.line}};
  (void)p;
  return j;
}

// Locations of every procedure the unwinding reached, by label and by line.
struct LocationCover {
  std::vector<std::string> covered, notCovered;  // labels, in the order of the program
  std::map<uint32_t, bool> lines;                // line -> some location on it is covered
  std::vector<uint32_t> notCoveredLines;
  uint64_t blocks = 0, infeasibleBlocks = 0;
  std::vector<ir::LocId> infeasibleLocs;
};

LocationCover coverage(const ir::Program& p, const std::vector<ir::CfaId>& procs,
                       const cover::CoverResult& res) {
  LocationCover c;
  std::map<std::string, bool> labels;  // label -> some location with it is covered
  std::vector<std::string> labelOrder;
  for (ir::CfaId f : procs)
    for (ir::LocId l : p.cfas[f].locs) {
      const bool cov = res.locCovered[l];
      ++c.blocks;
      if (!cov) {
        ++c.infeasibleBlocks;
        c.infeasibleLocs.push_back(l);
      }
      for (const std::string& lab : p.locs[l].labels) {
        if (!labels.count(lab)) labelOrder.push_back(lab);
        labels[lab] = labels[lab] || cov;
      }
      if (p.locs[l].loc.line) c.lines[p.locs[l].loc.line] = c.lines[p.locs[l].loc.line] || cov;
    }
  for (const std::string& lab : labelOrder) (labels[lab] ? c.covered : c.notCovered).push_back(lab);
  for (auto& [line, cov] : c.lines)
    if (!cov) c.notCoveredLines.push_back(line);
  return c;
}

void coverStats(Report& rep, const cover::CoverRun& run, const LocationCover& cov, uint64_t failing,
                bool summaries) {
  const cover::CoverResult& res = run.result;
  rep.stats["solver_queries"] = res.queries;
  // Time inside solver checks, apart from parsing, unwinding and building the VC (time_s has all).
  rep.stats["solver_time_s"] = run.solverSeconds;
  rep.stats["paths"] = res.paths;
  rep.stats["tests"] = res.tests.size();
  rep.stats["failing"] = failing;
  rep.stats["locations"] = cov.blocks;
  rep.stats["infeasible_locations"] = res.complete ? cov.infeasibleBlocks : 0;
  rep.stats["unwound_locations"] = run.unwound;
  rep.stats["location_copies"] = run.copies;
  rep.stats["arcs"] = run.arcs;
  rep.stats["unwinding_cuts"] = run.cuts;
  if (summaries) {
    rep.stats["summarised_procedures"] = run.summarised;
    rep.stats["summary_pairs"] = run.pairs;
    rep.stats["refinements"] = run.refinements;
  }
}

// --tests-out: the tests as `test` declarations.
void writeCoverTests(const ir::Program& p, const CoverRequest& r, ir::CfaId entry,
                     const cover::CoverResult& res) {
  std::vector<report::TestDeclLine> decls;
  for (const cover::CoverTest& t : res.tests)
    decls.push_back({report::callText(p, entry, t.end.args, true),
                     t.replay.error ? "error" : "pass", t.end.script.size()});
  report::writeTestDecls(r.testsOut,
                         "Tests of `tandem cover --entry " + r.entry + " --unwind " +
                             std::to_string(r.unwind) + " --algo " + cover::algoName(r.algo) +
                             "` on " + r.file,
                         decls);
}

// Each test as JSON into `tests`; the first failing one's error, replayed with its states, into
// the report. The number of failing tests.
uint64_t recordTests(Report& rep, nlohmann::json& tests, const ir::Program& p,
                     const exec::Evaluator& ev, ir::CfaId entry, const cover::CoverResult& res) {
  uint64_t failing = 0;
  for (const cover::CoverTest& t : res.tests) {
    tests.push_back(testJson(p, t));
    if (!t.replay.error) continue;
    ++failing;
    if (!rep.error) {
      symbolic::Replay full = symbolic::replayPath(ev, entry, t.end);
      rep.error = report::replayError(p, entry, full, t.end);
    }
  }
  return failing;
}

void coverKeys(Report& rep, const CoverRequest& r, const cover::CoverRun& run,
               const LocationCover& cov) {
  const bool complete = run.result.complete;
  rep.extra["algo"] = cover::algoName(r.algo);
  rep.extra["unwind"] = r.unwind;
  if (r.algo == cover::Algo::Statements) rep.extra["guided"] = r.guided;
  rep.extra["solver"] = smt::backendName(r.solver.backend);
  rep.extra["covered_labels"] = cov.covered;
  // Only an enumeration that ended says infeasible; otherwise the rest is just not covered.
  rep.extra["infeasible_labels"] = complete ? cov.notCovered : std::vector<std::string>{};
  rep.extra["uncovered_labels"] = cov.notCovered;
  rep.extra["infeasible_lines"] = complete ? cov.notCoveredLines : std::vector<uint32_t>{};
  // The bound removed executions: what is infeasible may be feasible with more unwinding.
  rep.extra["bounded"] = run.cuts > 0;
  if (r.summaries) rep.extra["summaries"] = true;
}

}  // namespace

Report cover(ir::Program& p, const CoverRequest& r) {
  checkRules(r);
  if (!r.cls.empty()) throw usageError("cover --class is not implemented yet (give --entry PROC)");
  if (p.isClosed())
    throw inputError(r.file, "cover analyses procedures (an open system with --entry); " + r.file +
                                 " is a closed system");
  if (r.entry.empty()) throw usageError("cover needs --entry PROC");
  const ir::CfaId entry = entryOf(r, p);
  if (!p.invariants.empty())
    throw inputError(r.file, "cover: `invariant` declarations are not implemented yet in cover");
  RunBudget rb(r);
  exec::NativeRegistry natives;
  refuseF64(p, "cover");
  loadNatives(r, p, natives);
  exec::Evaluator ev(p, natives);
  symbolic::SymEvaluator sev(p, ev);
  // The VC is asserted once and the enumeration adds clauses to it or checks under assumptions:
  // nothing for the prefix-synchronising layer to reuse (its push scope per VC clause cost ~35%
  // more solver time on the cover benchmark), and the guided queries learn from unsat cores.
  // One solver per verification condition (with --summaries, one per procedure and refinement).
  cover::CoverSetup setup{p,
                          sev,
                          ev,
                          r.tracked,
                          r.unwind,
                          r.guided,
                          rb.budget,
                          [&] {
                            return makeSolver(r, p, rb.budget,
                                              ChainNeeds{.incremental = false, .unsatCores = true});
                          },
                          [&](const cover::ReachVc& vc) { refuseCalls(vc, sev); }};

  Report rep;
  rep.command = "cover";
  rep.file = r.file;
  cover::CoverRun run;
  try {
    run = cover::coverEntry(setup, entry, r.algo, r.summaries);
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(r.file, e.what());
  } catch (const smt::SmtUnsupported& e) {
    throw inputError(r.file, std::string("cover: ") + e.what());
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, std::string("solver failure: ") + e.what());
  }
  const cover::CoverResult& res = run.result;

  const LocationCover cov = coverage(p, run.procedures, res);
  nlohmann::json tests = nlohmann::json::array();
  const uint64_t failing = recordTests(rep, tests, p, ev, entry, res);
  if (failing)
    rep.verdict = Verdict::Error;
  else if (!res.complete)
    rep.verdict = Verdict::Unknown;
  else
    rep.verdict = Verdict::Completed;
  if (!res.complete) rep.reason = res.reason;

  rep.extra["tests"] = tests;
  coverKeys(rep, r, run, cov);
  if (r.proveInfeasible && res.complete) {
    std::vector<ir::LocId> ask;  // labelled, or on a line where nothing is covered
    for (ir::LocId l : cov.infeasibleLocs)
      if (!p.locs[l].labels.empty() || (p.locs[l].loc.line && !cov.lines.at(p.locs[l].loc.line)))
        ask.push_back(l);
    rep.extra["proved_infeasible"] = proveInfeasible(p, r, ask, rb.budget);
  }
  coverStats(rep, run, cov, failing, r.summaries);
  addRunStats(rep.stats, rb.budget);
  if (!r.testsOut.empty()) writeCoverTests(p, r, entry, res);
  return rep;
}

}  // namespace tandem::engine
