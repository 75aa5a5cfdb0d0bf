#include "report/tests.h"

#include <algorithm>
#include <fstream>

#include "mc/ir/call_graph.h"
#include "report/trace_steps.h"

namespace tandem::report {

Coverage::Coverage(const ir::Program& p, ir::CfaId entry) : p_(p), taken_(p.edges.size(), false) {
  for (ir::CfaId c : ir::callClosure(p, entry))
    for (ir::LocId l : p.cfas[c].locs) {
      for (const std::string& lab : p.locs[l].labels)
        if (std::find(labels_.begin(), labels_.end(), lab) == labels_.end()) labels_.push_back(lab);
      size_t guarded = 0;
      for (ir::EdgeId e : p.locs[l].out) {
        const ir::Edge& edge = p.edges[e];
        if (edge.loc.line) lines_.insert(edge.loc.line);
        guarded += edge.kind == ir::EdgeKind::Command && edge.guard;
      }
      // A branch: one of several ways out of a location, chosen by a condition.
      if (guarded > 0 && p.locs[l].out.size() > 1)
        for (ir::EdgeId e : p.locs[l].out)
          if (p.edges[e].kind == ir::EdgeKind::Command && p.edges[e].guard) branches_.push_back(e);
    }
}

void Coverage::addPath(const std::vector<ir::EdgeId>& path) {
  for (ir::EdgeId e : path) {
    taken_[e] = true;
    if (p_.edges[e].loc.line) coveredLines_.insert(p_.edges[e].loc.line);
  }
}

void Coverage::addLabels(const std::vector<std::string>& labels) {
  for (const std::string& l : labels)
    if (std::find(coveredLabels_.begin(), coveredLabels_.end(), l) == coveredLabels_.end())
      coveredLabels_.push_back(l);
}

void Coverage::report(TestsKeys& k) const {
  k.coveredLabels = coveredLabels_;
  k.uncoveredLabels.clear();
  for (const std::string& l : labels_)
    if (std::find(coveredLabels_.begin(), coveredLabels_.end(), l) == coveredLabels_.end())
      k.uncoveredLabels.push_back(l);
  TestsKeys::Coverage c;
  for (uint32_t l : lines_)
    if (!coveredLines_.count(l)) c.uncoveredLines.push_back(l);
  c.linesTotal = lines_.size();
  c.linesCovered = lines_.size() - c.uncoveredLines.size();
  for (ir::EdgeId e : branches_) c.branchesCovered += taken_[e];
  c.branchesTotal = branches_.size();
  k.coverage = std::move(c);
}

void writeTestDecls(const std::string& path, const std::string& header,
                    const std::vector<TestDeclLine>& tests) {
  std::ofstream f(path);
  f << "// " << header << "\n";
  for (size_t i = 0; i < tests.size(); ++i) {
    const TestDeclLine& t = tests[i];
    f << "test " << t.call << ";  // " << i + 1 << ": " << t.result;
    if (t.otherInputs) f << " (with " << t.otherInputs << " more inputs: havocs or input globals)";
    f << "\n";
  }
  if (!f) throw inputError(path, "cannot write " + path);
}

void writeTestgenTests(const std::string& path, const std::string& file, const std::string& entry,
                       const std::vector<TestRecord>& tests,
                       const std::vector<TestDeclLine>& decls) {
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
    std::ofstream f(path);
    nlohmann::json list = nlohmann::json::array();
    for (const TestRecord& t : tests) list.push_back(testJson(t));
    nlohmann::json j{{"tool", "tandem"}, {"file", file}, {"entry", entry}, {"tests", list}};
    if (!(f << j.dump(2) << "\n")) throw inputError(path, "cannot write " + path);
    return;
  }
  writeTestDecls(path,
                 "Tests of `tandem testgen --entry " + entry + "` on " + file +
                     "; run them with `tandem check " + file + " --entry " + entry + " --tests " +
                     path + "`",
                 decls);
}

TestRecorder::Recorded TestRecorder::record(const symbolic::PathEnd& end, bool cut) {
  // Only the first failing test's trace is reported: the others need no state kept.
  last_ = symbolic::replayPath(ev_, entry_, end, /*keepStates=*/false);
  if (last_.error && !error_) last_ = symbolic::replayPath(ev_, entry_, end);
  const symbolic::Replay& rp = last_;
  const bool error = rp.error.has_value() && !cut;
  const bool diverged = !rp.followed && !cut;
  if (diverged) {
    ++divergences_;
    if (diag_)
      *diag_ << "tandem: warning: test " << tests_.size() << " diverges from its " << followed_
             << ": " << rp.problem << "\n";
  }
  TestRecord t;
  t.inputs = inputsJson(end);
  t.labels = rp.labels;
  // unknown: the concrete run after the path needs a choice or an input the path did not fix.
  t.result = error ? "error" : cut || !rp.unfinished.empty() ? "unknown" : "pass";
  if (diverged) t.diverged = rp.problem;
  if (!error) t.unfinished = rp.unfinished;
  if (error) {
    t.error = TestRecord::Failure{ir::errorKindName(rp.error->kind), rp.error->loc.line};
    if (!error_) error_ = replayError(p_, entry_, rp, end);
    ++failing_;
  }
  coverage_.addLabels(rp.labels);
  coverage_.addPath(end.path);
  decls_.push_back({callText(p_, entry_, end.args, true), t.result, end.script.size()});
  tests_.push_back(std::move(t));
  return {tests_.back(), last_};
}

void TestRecorder::report(Report& rep) const {
  if (error_ && !rep.error) rep.error = error_;
  rep.stats.tests = tests_.size();
  rep.stats.failing = failing_;
  rep.stats.divergences = divergences_;
  rep.tests.emplace();
  rep.tests->tests = tests_;
  coverage_.report(*rep.tests);
}

}  // namespace tandem::report
