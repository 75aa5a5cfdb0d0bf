// `tandem prove`: abstraction fabrication (fabricate/prover.h), then triage of a potential error
// (fabricate/triage.h), --check-proof with the other back end, --dot of the abstract state graph,
// and the report.
#include <fstream>
#include <set>

#include "abstraction/auto_predicates.h"
#include "engine/api.h"
#include "engine/load.h"
#include "engine/setup.h"
#include "engine/trace_steps.h"
#include "fabricate/triage.h"
#include "mc/ir/ir_printer.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_factory.h"

namespace tandem::engine {

namespace {

// `--predicates FILE`: one expression per line (`predicate e;` also accepted); `//` comments.
std::vector<ExprRef> readPredicates(const std::string& path, ir::Program& p) {
  std::ifstream in(path);
  if (!in) throw inputError(path, "cannot read --predicates file '" + path + "'");
  std::vector<ExprRef> out;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (auto c = line.find("//"); c != std::string::npos) line.erase(c);
    std::string t = line;
    while (!t.empty() && (isspace(static_cast<unsigned char>(t.back())) || t.back() == ';'))
      t.pop_back();
    size_t b = t.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    t = t.substr(b);
    if (t.rfind("predicate ", 0) == 0) t = t.substr(10);
    out.push_back(parseGlobalCondition(p, t, path + ":" + std::to_string(lineNo), "a predicate"));
  }
  return out;
}

search::Trace toSearchTrace(const fabricate::ProveTrace& t) {
  search::Trace tr;
  tr.initial = t.initial;
  tr.steps = t.steps;
  tr.replayed = true;
  return tr;
}

ErrorInfo errorInfo(const exec::ExecError& e, std::vector<TraceStep> steps,
                    const std::string& label) {
  ErrorInfo info;
  info.kind = ir::errorKindName(e.kind);
  info.message = e.message;
  info.line = e.loc.line;
  info.trace = std::move(steps);
  info.label = label;
  return info;
}

std::string labelOf(const ir::Program& p, const fabricate::ProveTrace& t) {
  if (t.steps.empty()) {
    if (t.initial.threads.empty()) return "(initial state)";
    return p.locName(t.initial.threads[0].top().pc);
  }
  const auto& last = t.steps.back();
  return p.locName(last.before.threads[last.move.thread].top().pc);
}

std::vector<TraceStep> proveSteps(const ir::Program& p, const fabricate::ProveTrace& t) {
  std::vector<TraceStep> steps = traceSteps(p, toSearchTrace(t));
  if (steps.empty()) {  // the failing state itself was fabricated
    TraceStep ts;
    ts.label = labelOf(p, t);
    ts.statement = "(fabricated state)";
    ts.state = stateJson(p, t.initial);
    if (p.isClosed()) ts.locations = locationsJson(p, t.initial);
    steps.push_back(std::move(ts));
  }
  steps.front().fabricated = t.fabricated;
  return steps;
}

// The report's error for what triage found from an initial state.
ErrorInfo triagedError(const ir::Program& p, const fabricate::TriageResult& t, ir::CfaId entry) {
  if (t.trace) {
    std::string label = "(initial state)";
    if (!t.trace->steps.empty()) {
      const auto& last = t.trace->steps.back();
      label = p.locName(last.before.threads[last.move.thread].top().pc);
    }
    return errorInfo(t.error, traceSteps(p, *t.trace), label);
  }
  const symbolic::PathEnd& end = *t.path;
  return errorInfo(t.error, replayTrace(p, entry, t.replay, end),
                   p.locName(p.edges[end.path.back()].from));
}

// Class analysis: the integer arguments execution tries (ISSTA'06, Sect. 5.1: "a small concrete
// pool"): the constants of the class's `test` declarations and -1, 0, 1. The invariance checks do
// not depend on it: they quantify over every argument value.
std::vector<int64_t> argumentPool(const ir::Program& p, ir::CfaId init) {
  std::set<int64_t> pool{-1, 0, 1};
  for (const ir::Test& t : p.tests) {
    if (t.isState || t.cfa != init) continue;
    for (ExprRef a : t.args)
      if (a->op == Op::IntConst)
        if (auto v = a->value.toInt64(); v && pool.size() < 8) pool.insert(*v);
  }
  return {pool.begin(), pool.end()};
}

void writeDot(const std::string& path, const fabricate::ProveResult& r,
              const abstraction::Abstraction& abs) {
  std::ofstream out(path);
  if (!out) throw inputError(path, "cannot write --dot file '" + path + "'");
  auto esc = [](std::string s) {
    std::string o;
    for (char c : s) o += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return o;
  };
  out << "digraph abstract_states {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    const auto& n = r.nodes[i];
    out << "  a" << i << " [label=\"" << esc(abs.locationText(n.state.pcs)) << "\\n"
        << esc(abs.formulaText(n.state)) << "\"";
    if (n.error) out << ", color=red, penwidth=2";
    if (n.fabricated) out << ", style=dashed";
    out << "];\n";
  }
  for (const auto& e : r.edges)
    out << "  a" << e.from << " -> a" << e.to << (e.fabricated ? " [style=dashed]" : "") << ";\n";
  out << "}\n";
}

const char* engineName(fabricate::ProveOptions::Engine e) {
  switch (e) {
    case fabricate::ProveOptions::Engine::Fabricate:
      return "fabricate";
    case fabricate::ProveOptions::Engine::Models:
      return "models";
    case fabricate::ProveOptions::Engine::Eager:
      return "eager";
  }
  return "fabricate";
}

// `found`: the default predicates, when --auto-predicates asks for them.
fabricate::ProveOptions proveOptions(ir::Program& p, const ProveRequest& r,
                                     abstraction::ScopedPredicates& found) {
  fabricate::ProveOptions po;
  po.tracked = r.tracked;
  po.cutpoints = r.cutpoints;
  po.engine = r.engine;
  po.hybrid = r.hybrid;
  po.search = r.search;
  po.seed = r.seed;
  const uint32_t cls = classOf(r, p);
  if (cls != ir::kNone) {
    po.classIndex = cls;
    po.entry = p.classes[cls].init;
    po.argPool = argumentPool(p, po.entry);
  } else {
    po.entry = entryOf(r, p);
  }
  if (!r.predicatesFile.empty()) po.extraPredicates.global = readPredicates(r.predicatesFile, p);
  if (r.autoPredicates) {
    abstraction::DefaultPredicateOptions d;
    d.roots = p.processes;
    if (p.rules != ir::kNone) d.roots.push_back(p.rules);
    if (po.entry != ir::kNone) d.roots.push_back(po.entry);
    if (po.classIndex != ir::kNone)
      for (ir::CfaId m : p.classes[po.classIndex].methods) d.roots.push_back(m);
    d.classIndex = po.classIndex;
    d.limit = r.maxPredicates;
    found = abstraction::defaultPredicates(p, d);
    abstraction::ScopedPredicates& to = po.extraPredicates;
    to.global.insert(to.global.end(), found.global.begin(), found.global.end());
    to.ofCfa = found.ofCfa;
    to.ofClass = found.ofClass;
  }
  return po;
}

// The default predicates as "SCOPE: PREDICATE", SCOPE one of "global", "class C", "proc f",
// "method C.m", "init C.init", "process P", "rules" (docs/json.md).
nlohmann::json predicatesJson(const ir::Program& p, const abstraction::ScopedPredicates& sp) {
  nlohmann::json out = nlohmann::json::array();
  auto add = [&](const std::string& scope, const std::vector<ExprRef>& es) {
    for (ExprRef e : es) out.push_back(scope + ": " + ir::exprToString(p, e));
  };
  add("global", sp.global);
  for (const auto& [k, es] : sp.ofClass) add("class " + p.classes[k].name, es);
  for (const auto& [c, es] : sp.ofCfa)
    add(std::string(ir::cfaKindName(p.cfas[c].kind)) + " " + p.cfas[c].name, es);
  return out;
}

Verdict verdictOf(fabricate::ProveResult::Outcome o) {
  using Outcome = fabricate::ProveResult::Outcome;
  switch (o) {
    case Outcome::Proved:
      return Verdict::Proved;
    case Outcome::Error:
      return Verdict::Error;
    case Outcome::PotentialError:
      return Verdict::PotentialError;
    case Outcome::Unknown:
      return Verdict::Unknown;
  }
  return Verdict::Unknown;
}

}  // namespace

Report prove(ir::Program& p, const ProveRequest& r) {
  abstraction::ScopedPredicates defaults;
  fabricate::ProveOptions po = proveOptions(p, r, defaults);
  exec::NativeRegistry natives;
  loadNatives(r, p, natives);
  RunBudget rb(r);
  po.budget = &rb.budget;
  po.progress = &rb.progress;
  auto solver = makeSolver(r, p, rb.budget);
  exec::Evaluator ev(p, natives);

  Report rep;
  rep.command = "prove";
  rep.file = r.file;
  fabricate::ProveResult res;
  std::string proofCheck;
  try {
    res = fabricate::prove(p, ev, *solver, po);
    if (res.outcome == fabricate::ProveResult::Outcome::PotentialError && res.problem) {
      if (auto real = fabricate::triage(p, ev, *solver, po, r.triage, res.problem->error)) {
        res.outcome = fabricate::ProveResult::Outcome::Error;
        rep.error = triagedError(p, *real, po.entry);
        rep.extra["triage"] = "reproduced from an initial state";
      } else {
        rep.extra["triage"] = "not reproduced from an initial state within the bounds";
      }
    }
    if (r.checkProof && res.outcome == fabricate::ProveResult::Outcome::Proved) {
      SolverRequest other = r.solver;
      other.backend = smt::otherBackend(r.solver.backend);
      other.smtLog.clear();
      other.crossCheck = false;
      Request rq = r;
      rq.solver = other;
      auto otherSolver = makeSolver(rq, p, rb.budget);
      proofCheck = fabricate::checkProof(p, ev, *otherSolver, po, res);
      const char* name = smt::backendName(other.backend);
      if (rb.budget.stopped()) {
        res.outcome = fabricate::ProveResult::Outcome::Unknown;
        res.reason =
            rb.budget.stopped()->reason + " (while re-checking the proof with " + name + ")";
        proofCheck.clear();
      } else {
        rep.extra["proof_check"] =
            proofCheck.empty() ? std::string("passed (") + name + ")" : "FAILED: " + proofCheck;
      }
    }
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(r.file, std::string("prove: ") + e.what());
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, std::string("solver failure: ") + e.what());
  }
  rep.verdict = verdictOf(res.outcome);
  if (rep.verdict == Verdict::Unknown) rep.reason = res.reason;
  if (!proofCheck.empty()) {
    if (r.diag) *r.diag << "tandem: INTERNAL ERROR: --check-proof failed: " << proofCheck << "\n";
    rep.verdict = Verdict::Unknown;
    rep.reason = "internal error: the proof did not re-check: " + proofCheck;
  }
  if (!rep.error && res.problem && rep.verdict != Verdict::Proved)
    rep.error = errorInfo(res.problem->error, proveSteps(p, res.problem->trace),
                          labelOf(p, res.problem->trace));
  if (rep.verdict == Verdict::Proved) {
    std::string text;
    nlohmann::json per = nlohmann::json::object();
    for (const auto& [loc, f] : res.invariant) {
      text += loc + ": " + f + "\n";
      per[loc] = f;
    }
    rep.extra["invariant"] = text;
    rep.extra["invariant_per_cutpoint"] = per;
    if (po.classIndex != ir::kNone) rep.extra["class_invariant"] = res.classInvariant;
  }
  if (po.classIndex != ir::kNone) {
    rep.extra["class"] = r.cls;
    rep.extra["argument_pool"] = po.argPool;
  }
  const fabricate::ProveStats& s = res.stats;
  rep.stats["states"] = s.concreteStates;
  rep.stats["transitions"] = s.transitions;
  rep.stats["abstract_states"] = s.abstractStates;
  rep.stats["fabricated_states"] = s.fabricatedStates;
  rep.stats["solver_queries"] = s.solverQueries;
  rep.stats["executions"] = s.executions;
  rep.stats["invariance_checks"] = s.invarianceChecks;
  rep.stats["unknown_answers"] = s.unknownAnswers;
  addRunStats(rep.stats, rb.budget);
  rep.extra["engine"] = engineName(r.engine);
  if (r.autoPredicates) rep.extra["default_predicates"] = predicatesJson(p, defaults);
  rep.extra["cutpoints"] = ir::cutpointModeName(r.cutpoints);
  if (!r.dot.empty()) writeDot(r.dot, res, abstraction::Abstraction(p, ev, po.extraPredicates));
  return rep;
}

}  // namespace tandem::engine
