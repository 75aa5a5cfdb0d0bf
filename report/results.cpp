#include "report/results.h"

namespace tandem::report {

using nlohmann::json;

json testJson(const TestRecord& t) {
  json j;
  j["inputs"] = t.inputs;
  j["labels"] = t.labels;
  j["result"] = t.result;
  if (t.diverged) j["diverged"] = *t.diverged;
  if (!t.unfinished.empty()) j["unfinished"] = t.unfinished;
  if (t.error) j["error"] = {{"kind", t.error->kind}, {"line", t.error->line}};
  if (t.unverifiedAssertions) j["unverified_assertions"] = *t.unverifiedAssertions;
  if (t.mispredicted) j["mispredicted"] = true;
  return j;
}

void addJson(json& j, const TestsKeys& k) {
  json tests = json::array();
  for (const TestRecord& t : k.tests) tests.push_back(testJson(t));
  j["tests"] = std::move(tests);
  j["covered_labels"] = k.coveredLabels;
  j["uncovered_labels"] = k.uncoveredLabels;
  if (const auto& c = k.coverage)
    j["coverage"] = {{"lines",
                      {{"covered", c->linesCovered},
                       {"total", c->linesTotal},
                       {"uncovered", c->uncoveredLines}}},
                     {"branches", {{"covered", c->branchesCovered}, {"total", c->branchesTotal}}}};
}

void addJson(json& j, const ExploreKeys& k) {
  j["engine"] = k.engine;
  j["store"] = k.store;
  if (k.bitstate)
    j["bitstate"] = {{"log2_bits", k.bitstate->log2Bits}, {"hashes", k.bitstate->hashes}};
  if (k.distributed) {
    json ranks = json::array();
    for (const ExploreKeys::Rank& s : k.distributed->ranks)
      ranks.push_back({{"states", s.states},
                       {"transitions", s.transitions},
                       {"messages_sent", s.messagesSent},
                       {"bytes_sent", s.bytesSent},
                       {"peak_rss_mb", s.peakRssMb},
                       {"explore_s", s.exploreS}});
    j["distributed"] = {{"transport", k.distributed->transport}, {"ranks", ranks}};
  }
}

void addJson(json& j, const SymbolicKeys& k) {
  j["solving"] = k.solving;
  if (k.heuristic) j["heuristic"] = *k.heuristic;
  if (k.maxTries) j["max_tries"] = *k.maxTries;
  if (k.inputs) j["inputs"] = *k.inputs;
  if (k.calls) {
    json calls = json::array();
    for (const SymbolicKeys::Call& c : *k.calls)
      calls.push_back({{"method", c.method}, {"call", c.call}, {"args", c.args}});
    j["calls"] = std::move(calls);
  }
}

json unreachableJson(const std::vector<TestgenKeys::Unreachable>& us) {
  json out = json::array();
  for (const TestgenKeys::Unreachable& u : us) {
    json b = json::object();
    if (u.label) b["label"] = *u.label;
    if (u.procedure) b["procedure"] = *u.procedure;
    if (u.line) b["line"] = *u.line;
    out.push_back(std::move(b));
  }
  return out;
}

void addJson(json& j, const TestgenKeys& k) {
  if (k.mode) {
    j["mode"] = *k.mode;
    j["summarised"] = k.summarised;
    j["unreachable_targets"] = unreachableJson(k.unreachableTargets);
  }
  if (k.guide) j["guide"] = *k.guide;
}

void addJson(json& j, const ProveKeys& k) {
  if (k.defaultPredicates) j["default_predicates"] = *k.defaultPredicates;
  j["dropped_predicates"] = k.droppedPredicates;
  if (k.refinement) {
    json steps = json::array(), found = json::array();
    for (const RefinementRow& s : k.refinement->steps) {
      steps.push_back({{"round", s.round},
                       {"error", s.error},
                       {"path_length", s.length},
                       {"predicates", s.predicates}});
      for (const std::string& t : s.predicates) found.push_back(t);
    }
    j["refinement"] = {{"rounds", k.refinement->rounds},
                       {"after_default_predicates", !k.refinement->afterDefaults.empty()},
                       {"predicates_found", std::move(found)},
                       {"steps", std::move(steps)},
                       {"stopped", k.refinement->stopped}};
  }
  if (k.invariant) {
    std::string text;
    json per = json::object();
    for (const auto& [loc, f] : *k.invariant) {
      text += loc + ": " + f + "\n";
      per[loc] = f;
    }
    j["invariant"] = text;
    j["invariant_per_cutpoint"] = per;
  }
  if (k.cls) j["class"] = *k.cls;
  if (k.classInvariant) j["class_invariant"] = *k.classInvariant;
  if (k.potentialErrors) {
    json list = json::array();
    for (const PotentialErrorRow& e : *k.potentialErrors) {
      json from = json::array();
      for (const PotentialErrorRow::From& f : e.from)
        from.push_back({{"location", f.location}, {"state", f.state}});
      list.push_back({{"kind", e.kind},
                      {"message", e.message},
                      {"line", e.line},
                      {"column", e.column},
                      {"location", e.from.empty() ? "" : e.from.front().location},
                      {"state", e.from.empty() ? "" : e.from.front().state},
                      {"from", std::move(from)},
                      {"triage", e.triage}});
    }
    j["potential_errors"] = std::move(list);
  }
  if (k.annotations) {
    json out = json::array();
    for (const fabricate::AnnotatedAssertion& x : *k.annotations) {
      json a{{"line", x.line}, {"assertion", x.assertion}};
      a["result"] = fabricate::resultName(x.result);
      a["prove"] = x.prove;
      if (!x.reason.empty()) a["reason"] = x.reason;
      if (x.proveAssumingNoOverflow) a["prove_assuming_no_overflow"] = *x.proveAssumingNoOverflow;
      a["premise"] = x.premise;
      out.push_back(std::move(a));
    }
    j["annotations"] = std::move(out);
    j["annotated_file"] = k.annotatedFile;
  }
}

void addJson(json& j, const CoverKeys& k) {
  j["algo"] = k.algo;
  j["unwind"] = k.unwind;
  j["infeasible_labels"] = k.infeasibleLabels;
  j["infeasible_lines"] = k.infeasibleLines;
  if (k.provedInfeasible) {
    json out = json::array();
    for (const cover::InfeasibleAnswer& a : *k.provedInfeasible) {
      json x;
      if (!a.label.empty())
        x["label"] = a.label;
      else
        x["line"] = a.line;
      x["result"] = cover::resultName(a.result);
      if (!a.prove.empty()) x["prove"] = a.prove;
      if (!a.reason.empty()) x["reason"] = a.reason;
      out.push_back(std::move(x));
    }
    j["proved_infeasible"] = std::move(out);
  }
}

void addJson(json& j, const ExportKeys& k) {
  if (k.smtlib) j["smtlib"] = *k.smtlib;
  if (k.output) j["output"] = *k.output;
}

void addJson(json& j, const ReplayKeys& k) {
  j["report"] = k.report;
  if (k.replayedCommand) j["replayed_command"] = *k.replayedCommand;
  if (k.steps) j["steps"] = *k.steps;
  if (k.replayedSteps) j["replayed_steps"] = *k.replayedSteps;
  if (const auto& d = k.difference) {
    j["difference"] = {{"step", d->step}, {"why", d->why}, {"possible", d->possible}};
    if (d->expected) j["difference"]["expected"] = *d->expected;
  }
}

}  // namespace tandem::report
