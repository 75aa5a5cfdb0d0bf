#include "report/prove_report.h"

#include <ostream>

#include "mc/ir/ir_printer.h"

#include "report/trace_steps.h"

namespace tandem::report {

namespace {

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
  // A method call of the class analysis fails in the method's entry declarations: there, as
  // check says (../shared/reported/class_method_entry_label.tdm named C.init#0).
  if (last.move.method != ir::kNone) return p.locName(p.cfas[last.move.method].entry);
  return p.locName(last.before.threads[last.move.thread].top().pc);
}

std::vector<TraceStep> proveSteps(const ir::Program& p, const fabricate::ProveTrace& t) {
  std::vector<TraceStep> steps = traceSteps(p, toSearchTrace(t));
  if (steps.empty()) {  // the failing state itself was fabricated, or is an initial state
    TraceStep ts;
    ts.label = labelOf(p, t);
    ts.statement = t.fabricated ? "(fabricated state)" : "(initial state)";
    ts.state = stateJson(p, t.initial);
    if (p.isClosed()) ts.locations = locationsJson(p, t.initial);
    steps.push_back(std::move(ts));
  }
  steps.front().fabricated = t.fabricated;
  return steps;
}

bool sameError(const exec::ExecError& a, const exec::ExecError& b) {
  return a.kind == b.kind && a.loc == b.loc;
}

PotentialErrorRow potentialRow(const fabricate::PotentialError& pe, const std::string& triage) {
  const exec::ExecError& e = pe.found.error;
  PotentialErrorRow row{ir::errorKindName(e.kind), e.message, e.loc.line, e.loc.col, {}, triage};
  for (const fabricate::AbstractText& a : pe.from) row.from.push_back({a.location, a.formula});
  return row;
}

}  // namespace

ErrorInfo proveError(const ir::Program& p, const fabricate::FoundProblem& f) {
  ErrorInfo e = errorInfo(f.error, proveSteps(p, f.trace), labelOf(p, f.trace));
  e.initial = stateJson(p, f.trace.initial);
  e.initialFabricated = f.trace.fabricated;
  return e;
}

ErrorInfo triagedError(const ir::Program& p, const fabricate::TriageResult& t, ir::CfaId entry) {
  if (t.trace) {
    std::string label = "(initial state)";
    if (!t.trace->steps.empty()) {
      const auto& last = t.trace->steps.back();
      label = p.locName(last.before.threads[last.move.thread].top().pc);
    }
    ErrorInfo e = errorInfo(t.error, traceSteps(p, *t.trace), label);
    e.initial = stateJson(p, t.trace->initial);
    return e;
  }
  const symbolic::PathEnd& end = *t.path;
  ErrorInfo e = errorInfo(t.error, replayTrace(p, entry, t.replay, end),
                          p.locName(p.edges[end.path.back()].from));
  if (!t.replay.states.empty()) e.initial = stateJson(p, t.replay.states.front());
  return e;
}

std::vector<PotentialErrorRow> potentialErrorRows(
    const std::vector<fabricate::PotentialError>& errors, const fabricate::TriageSummary& t) {
  std::vector<PotentialErrorRow> list;
  for (const fabricate::PotentialError& pe : errors) {
    const bool reproduced = t.reproduced && sameError(t.reproduced->error, pe.found.error);
    list.push_back(potentialRow(pe, reproduced ? "reproduced from an initial state" : t.others));
  }
  return list;
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

void proveOutcome(Report& rep, const ir::Program& p, const fabricate::ProveResult& res,
                  const std::string& proofCheck, bool ofClass, std::ostream* diag) {
  rep.verdict = verdictOf(res.outcome);
  if (rep.verdict == Verdict::Unknown) rep.reason = res.reason;
  if (!proofCheck.empty()) {
    if (diag) *diag << "tandem: INTERNAL ERROR: --check-proof failed: " << proofCheck << "\n";
    rep.verdict = Verdict::Unknown;
    rep.reason = "internal error: the proof did not re-check: " + proofCheck;
  }
  if (!rep.error && res.problem && rep.verdict != Verdict::Proved)
    rep.error = proveError(p, *res.problem);
  if (rep.verdict != Verdict::Proved) return;
  // ../shared/reported/vacuous_init.tdm: an unsatisfiable `init` proves anything.
  if (res.stats.abstractStates == 0 && diag)
    *diag << "tandem: warning: there is no initial state (the `init` conditions exclude every "
             "input): the proof holds vacuously\n";
  if (!rep.prove) rep.prove.emplace();
  rep.prove->invariant = res.invariant;
  if (ofClass) rep.prove->classInvariant = res.classInvariant;
}

std::vector<std::string> predicateTexts(const ir::Program& p,
                                        const abstraction::ScopedPredicates& sp) {
  std::vector<std::string> out;
  auto add = [&](const std::string& scope, const std::vector<ExprRef>& es) {
    for (ExprRef e : es) out.push_back(scope + ": " + ir::exprToString(p, e));
  };
  add("global", sp.global);
  for (const auto& [k, es] : sp.ofClass) add("class " + p.classes[k].name, es);
  for (const auto& [c, es] : sp.ofCfa)
    add(std::string(ir::cfaKindName(p.cfas[c].kind)) + " " + p.cfas[c].name, es);
  return out;
}

void proveStats(Stats& stats, const fabricate::ProveStats& s) {
  stats.states = s.concreteStates;
  stats.transitions = s.transitions;
  stats.abstract_states = s.abstractStates;
  stats.fabricated_states = s.fabricatedStates;
  stats.solver_queries = s.solverQueries;
  stats.executions = s.executions;
  stats.invariance_checks = s.invarianceChecks;
  stats.unknown_answers = s.unknownAnswers;
  stats.stalled_executions = s.stalledExecutions;
}

}  // namespace tandem::report
