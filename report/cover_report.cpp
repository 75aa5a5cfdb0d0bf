#include "report/cover_report.h"

#include <map>

#include "report/tests.h"
#include "report/trace_steps.h"

namespace tandem::report {

namespace {

TestRecord testRecord(const cover::CoverTest& t) {
  TestRecord r;
  r.inputs = inputsJson(t.end);
  r.labels = t.replay.labels;
  r.result = t.replay.error ? "error" : "pass";
  if (t.replay.error)
    r.error =
        TestRecord::Failure{ir::errorKindName(t.replay.error->kind), t.replay.error->loc.line};
  return r;
}

}  // namespace

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

std::vector<ir::LocId> LocationCover::toProve(const ir::Program& p) const {
  std::vector<ir::LocId> ask;
  for (ir::LocId l : infeasibleLocs)
    if (!p.locs[l].labels.empty() || (p.locs[l].loc.line && !lines.at(p.locs[l].loc.line)))
      ask.push_back(l);
  return ask;
}

void coverStats(Stats& stats, const cover::CoverRun& run, const LocationCover& cov,
                uint64_t failing, bool summaries) {
  const cover::CoverResult& res = run.result;
  stats.solver_queries = res.queries;
  // Time inside solver checks, apart from parsing, unwinding and building the VC (time_s has all).
  stats.solver_time_s = run.solverSeconds;
  stats.paths = res.paths;
  stats.tests = res.tests.size();
  stats.failing = failing;
  stats.locations = cov.blocks;
  stats.infeasible_locations = res.complete ? cov.infeasibleBlocks : 0;
  stats.unwound_locations = run.unwound;
  stats.location_copies = run.copies;
  stats.arcs = run.arcs;
  stats.unwinding_cuts = run.cuts;
  if (summaries) {
    stats.summarised_procedures = run.summarised;
    stats.summary_pairs = run.pairs;
    stats.refinements = run.refinements;
  }
}

void writeCoverTests(const std::string& path, const std::string& header, const ir::Program& p,
                     ir::CfaId entry, const cover::CoverResult& res) {
  std::vector<TestDeclLine> decls;
  for (const cover::CoverTest& t : res.tests)
    decls.push_back({callText(p, entry, t.end.args, true), t.replay.error ? "error" : "pass",
                     t.end.script.size()});
  writeTestDecls(path, header, decls);
}

// Each test as JSON into `tests`; the first failing one's error, replayed with its states, into
// the report. The number of failing tests.
uint64_t recordTests(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                     const cover::CoverResult& res) {
  uint64_t failing = 0;
  if (!rep.tests) rep.tests.emplace();
  for (const cover::CoverTest& t : res.tests) {
    rep.tests->tests.push_back(testRecord(t));
    if (!t.replay.error) continue;
    ++failing;
    if (!rep.error) {
      symbolic::Replay full = symbolic::replayPath(ev, entry, t.end);
      rep.error = replayError(p, entry, full, t.end);
    }
  }
  return failing;
}

void coverKeys(Report& rep, const cover::CoverRun& run, const LocationCover& cov,
               const CoverSettings& s) {
  const bool complete = run.result.complete;
  if (!rep.tests) rep.tests.emplace();
  rep.cover = CoverKeys{cover::algoName(s.algo), s.unwind, {}, {}, std::nullopt};
  if (s.algo == cover::Algo::Statements) rep.extra["guided"] = s.guided;
  rep.extra["solver"] = s.solver;
  rep.tests->coveredLabels = cov.covered;
  // Only an enumeration that ended says infeasible; otherwise the rest is just not covered.
  if (complete) rep.cover->infeasibleLabels = cov.notCovered;
  rep.tests->uncoveredLabels = cov.notCovered;
  if (complete) rep.cover->infeasibleLines = cov.notCoveredLines;
  // The bound removed executions: what is infeasible may be feasible with more unwinding.
  rep.extra["bounded"] = run.cuts > 0;
  if (s.summaries) rep.extra["summaries"] = true;
}

}  // namespace tandem::report
