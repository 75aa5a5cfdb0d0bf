// `tandem testgen --entry P`: one test per path the symbolic executor ends, inputs from its
// minimised model, in the mode of `--solving` (classic, mixed (the default), exe, dart; see
// docs/symbolic.md). Every test is replayed by the reference evaluator; a replay that leaves the
// symbolic path (e.g. through a call treated as an uninterpreted function in classic mode) is
// counted as a divergence and the test keeps what the concrete run did.
#include <algorithm>
#include <fstream>
#include <ostream>
#include <set>

#include "mc/cli/check_setup.h"
#include "mc/cli/symbolic_commands.h"
#include "mc/cli/trace_format.h"
#include "mc/smt/smt_error.h"

namespace tandem::cli {

namespace {

// Labels of the entry procedure and every procedure it calls (transitively).
std::vector<std::string> reachableLabels(const ir::Program& p, ir::CfaId entry) {
  std::vector<std::string> out;
  std::set<ir::CfaId> seen{entry};
  std::vector<ir::CfaId> todo{entry};
  while (!todo.empty()) {
    ir::CfaId c = todo.back();
    todo.pop_back();
    for (ir::LocId l : p.cfas[c].locs) {
      for (const std::string& lab : p.locs[l].labels)
        if (std::find(out.begin(), out.end(), lab) == out.end()) out.push_back(lab);
      for (ir::EdgeId e : p.locs[l].out)
        if (p.edges[e].kind == ir::EdgeKind::Call && seen.insert(p.edges[e].callee).second)
          todo.push_back(p.edges[e].callee);
    }
  }
  return out;
}

const char* unsupportedOption(const Options& o) {
  if (o.guide != "none") return "--guide";
  if (o.compositional) return "--compositional";
  if (!o.target.empty()) return "--target";
  return nullptr;
}

}  // namespace

int runTestgenCommand(const Options& o, const ir::Program& p, Io io) {
  if (!o.cls.empty()) {
    io.err << "tandem: error: testgen --class is not implemented yet (use check --class, or "
              "testgen --entry P)\n";
    return 2;
  }
  if (const char* what = unsupportedOption(o)) {
    io.err << "tandem: error: testgen " << what << " is not implemented yet\n";
    return 2;
  }
  auto run = symbolic_cli::explore(o, p, /*stopAtError=*/false, io.err);
  if (!run) return 2;
  const auto* eo = &run->options;
  exec::Evaluator& ev = *run->ev;
  const symbolic::ExploreResult& r = run->result;

  Report rep;
  rep.command = "testgen";
  rep.file = o.file;
  nlohmann::json tests = nlohmann::json::array();
  std::vector<std::string> covered;
  uint64_t divergences = 0, failing = 0;
  for (const symbolic::PathEnd& end : r.ends) {
    symbolic::Replay rp = symbolic::replayPath(ev, eo->entry, end);
    bool error = rp.followed ? rp.error.has_value() : end.error.has_value();
    if (!rp.followed) {
      ++divergences;
      io.err << "tandem: warning: test " << tests.size()
             << " diverges from its path: " << rp.problem << "\n";
      error = false;  // only a replayed error counts as a failing test
    }
    nlohmann::json t;
    t["inputs"] = symbolic_cli::inputsJson(end);
    t["labels"] = rp.labels;
    t["result"] = error ? "error" : "pass";
    if (!rp.followed) t["diverged"] = rp.problem;
    if (error) {
      t["error"] = {{"kind", ir::errorKindName(rp.error->kind)}, {"line", rp.error->loc.line}};
      if (!rep.error) {
        ErrorInfo e;
        e.kind = ir::errorKindName(rp.error->kind);
        e.message = rp.error->message;
        e.line = rp.error->loc.line;
        e.trace = symbolic_cli::replayTrace(p, eo->entry, rp, end);
        e.label = p.locName(rp.errorLoc);
        rep.error = std::move(e);
      }
      ++failing;
    }
    for (const std::string& l : rp.labels)
      if (std::find(covered.begin(), covered.end(), l) == covered.end()) covered.push_back(l);
    tests.push_back(std::move(t));
  }
  std::vector<std::string> uncovered;
  for (const std::string& l : reachableLabels(p, eo->entry))
    if (std::find(covered.begin(), covered.end(), l) == covered.end()) uncovered.push_back(l);

  if (failing) {
    rep.verdict = Verdict::Error;
  } else if (r.unknownAnswers || r.outcome == symbolic::Outcome::Incomplete) {
    // An unknown answer may hide paths: never a silent success. Bounds, undecided mixed queries
    // and concretization only shorten the list (the reason and the stats say so).
    rep.verdict = r.unknownAnswers ? Verdict::Unknown : Verdict::Completed;
  } else {
    rep.verdict = Verdict::Completed;
  }
  if (!r.reason.empty()) rep.reason = r.reason;
  rep.stats["tests"] = tests.size();
  rep.stats["paths"] = r.paths;
  rep.stats["executions"] = eo->solving == symbolic::Solving::Dart ? r.solving.runs : r.ends.size();
  rep.stats["divergences"] = divergences;
  rep.stats["states"] = r.states;
  rep.stats["solver_queries"] = r.solverQueries;
  rep.stats["time_s"] = r.seconds;
  symbolic_cli::addSolvingStats(rep.stats, r);
  rep.extra["tests"] = tests;
  rep.extra["covered_labels"] = covered;
  rep.extra["uncovered_labels"] = uncovered;
  symbolic_cli::addSolvingKeys(rep.extra, *eo);
  rep.extra["solver"] = o.solver;
  if (!o.testsOut.empty()) {
    std::ofstream f(o.testsOut);
    if (!f) {
      io.err << "tandem: error: cannot write " << o.testsOut << "\n";
      return 2;
    }
    nlohmann::json j{{"tool", "tandem"}, {"file", o.file}, {"entry", o.entry}, {"tests", tests}};
    f << j.dump(2) << "\n";
  }
  if (o.json) {
    printJson(io.out, rep);
    return exitCode(rep.verdict);
  }
  io.out << "verdict: " << verdictName(rep.verdict);
  if (!rep.reason.empty()) io.out << " (" << rep.reason << ")";
  io.out << "\n";
  for (size_t i = 0; i < tests.size(); ++i)
    io.out << "test " << i << ": " << tests[i]["inputs"].dump() << " -> "
           << tests[i]["result"].get<std::string>() << "\n";
  io.out << "covered: " << nlohmann::json(covered).dump()
         << ", uncovered: " << nlohmann::json(uncovered).dump() << "\n";
  io.out << tests.size() << " tests, " << r.paths << " paths, " << divergences << " divergences, "
         << r.solving.undecided << " undecided, " << r.solverQueries << " solver queries, "
         << r.seconds << " s (" << symbolic::solvingName(eo->solving) << ")\n";
  if (o.stats) io.out << rep.stats.dump(2) << "\n";
  return exitCode(rep.verdict);
}

}  // namespace tandem::cli
