// `tandem prove`: abstraction fabrication (fabricate/prover.h), then triage of a potential error
// (a bounded search from the real initial states, aimed at the same error), --check-proof with
// the other back end, --dot of the abstract state graph, and the report.
#include <algorithm>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include "abstraction/auto_predicates.h"
#include "fabricate/prover.h"
#include "mc/cli/check_setup.h"
#include "mc/cli/prove_command.h"
#include "mc/cli/symbolic_commands.h"
#include "mc/cli/trace_format.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"
#include "mc/search/explorer.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/symbolic_explorer.h"

namespace tandem::cli {

namespace {

bool hasInputs(const ir::Program& p, ir::CfaId entry) {
  if (entry != ir::kNone && !p.cfas[entry].params.empty()) return true;
  for (ir::VarId v : p.globals)
    if (!p.vars[v].init || p.vars[v].init->op == Op::Star) return true;
  return false;
}

// `--predicates FILE`: one expression per line (`predicate e;` also accepted); `//` comments.
bool readPredicates(const std::string& path, ir::Program& p, std::vector<ExprRef>& out,
                    std::ostream& err) {
  std::ifstream in(path);
  if (!in) {
    err << "tandem: error: cannot read --predicates file '" << path << "'\n";
    return false;
  }
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
    SourceFile src(path + ":" + std::to_string(lineNo), t);
    Diagnostics d(&src);
    auto e = parseExpression(src, d);
    ExprRef pred = e ? resolveGlobalCondition(*e, p, d, "a predicate") : nullptr;
    if (!pred || d.hasErrors()) {
      d.print(err);
      return false;
    }
    out.push_back(pred);
  }
  return true;
}

search::Trace toSearchTrace(const fabricate::ProveTrace& t) {
  search::Trace tr;
  tr.initial = t.initial;
  tr.steps = t.steps;
  tr.replayed = true;
  return tr;
}

ErrorInfo errorInfo(const ir::Program& p, const exec::ExecError& e, std::vector<TraceStep> steps,
                    const std::string& label) {
  ErrorInfo info;
  info.kind = ir::errorKindName(e.kind);
  info.message = e.message;
  info.line = e.loc.line;
  info.trace = std::move(steps);
  info.label = label;
  (void)p;
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

// Triage (ISSTA'06, Sect. 4): a bounded search from the real initial states for the same error.
// Explicit breadth-first search when the initial states are concrete, symbolic execution when
// the entry has inputs. Returns the report's error when it finds it.
std::optional<ErrorInfo> triage(const Options& o, const ir::Program& p, exec::Evaluator& ev,
                                smt::Solver& solver, const fabricate::ProveOptions& po,
                                const exec::ExecError& target) {
  std::array<bool, ir::kErrorKinds> tracked{};
  tracked[static_cast<size_t>(target.kind)] = true;
  if (!hasInputs(p, po.entry)) {
    search::GenericOptions go;
    go.tracked = tracked;
    go.entry = po.entry;
    go.entryHasNoInputs = po.entry != ir::kNone;
    search::GenericSystem sys(p, ev, go);
    search::ExploreOptions eo;
    eo.search = "bfs";
    eo.maxStates = 200000;
    eo.timeoutSeconds = 30;
    search::Explorer ex(sys, eo);
    search::ExploreResult r = ex.run();
    if (r.outcome != search::Outcome::ErrorFound || r.error->kind != target.kind ||
        r.error->loc.line != target.loc.line)
      return std::nullopt;
    search::Trace tr = search::buildTrace(sys, ex.store(), r, sys, ev);
    if (!tr.replayed) return std::nullopt;
    std::string label = "(initial state)";
    if (!tr.steps.empty()) {
      const auto& last = tr.steps.back();
      label = p.locName(last.before.threads[last.move.thread].top().pc);
    }
    return errorInfo(p, exec::ExecError{r.error->kind, r.error->loc, r.error->message, false},
                     traceSteps(p, tr), label);
  }
  if (po.entry == ir::kNone) return std::nullopt;  // closed systems with symbolic inputs
  symbolic::ExploreOptions so;
  so.entry = po.entry;
  so.tracked = tracked;
  so.search = "dfs";
  so.maxDepth = 500;
  so.maxStates = 100000;
  so.timeoutSeconds = 20;
  if (po.classIndex != ir::kNone) so.maxCalls = 4;  // a bounded search: fewest calls first
  (void)o;
  symbolic::ExploreResult r = symbolic::exploreSymbolic(p, ev, solver, so);
  for (const symbolic::PathEnd& end : r.ends) {
    if (!end.error || end.error->kind != target.kind || end.error->loc.line != target.loc.line)
      continue;
    symbolic::Replay rp = symbolic::replayPath(ev, po.entry, end);
    if (!rp.followed || !rp.error) continue;
    std::vector<TraceStep> steps = symbolic_cli::replayTrace(p, po.entry, rp, end);
    std::string label = p.locName(p.edges[end.path.back()].from);
    ErrorInfo info = errorInfo(p, *end.error, std::move(steps), label);
    return info;
  }
  return std::nullopt;
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

void writeDot(const std::string& path, const ir::Program& p, const fabricate::ProveResult& r,
              const abstraction::Abstraction& abs, std::ostream& err) {
  std::ofstream out(path);
  if (!out) {
    err << "tandem: warning: cannot write --dot file '" << path << "'\n";
    return;
  }
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
  (void)p;
}

}  // namespace

int runProveCommand(const Options& o, ir::Program& p, Io io) {
  auto tracked = trackedKinds(o, io.err);
  if (!tracked) return 2;
  fabricate::ProveOptions po;
  po.tracked = *tracked;
  auto mode = cutpointMode(o, io.err);
  if (!mode) return 2;
  po.cutpoints = *mode;
  if (o.engine == "eager") {
    po.engine = fabricate::ProveOptions::Engine::Eager;
  } else if (o.engine == "models") {
    po.engine = fabricate::ProveOptions::Engine::Models;
  } else if (o.engine != "fabricate") {
    io.err << "tandem: error: --engine must be 'fabricate', 'eager' or 'models', not '" << o.engine
           << "'\n";
    return 2;
  }
  po.hybrid = o.hybrid;
  po.search = o.search;
  po.seed = o.seed;
  po.timeoutSeconds = o.timeout;
  po.maxStates = o.maxStates;
  if (!o.cls.empty()) {
    if (!o.entry.empty()) {
      io.err << "tandem: error: --entry and --class exclude each other: give one of them\n";
      return 2;
    }
    auto it = std::find_if(p.classes.begin(), p.classes.end(),
                           [&](const ir::ClassInfo& c) { return c.name == o.cls; });
    if (it == p.classes.end()) {
      io.err << "tandem: error: no class '" << o.cls << "' in " << o.file << "\n";
      return 2;
    }
    po.classIndex = static_cast<uint32_t>(it - p.classes.begin());
    po.entry = it->init;
    po.argPool = argumentPool(p, po.entry);
  } else if (!entryProcedure(o, p, po.entry, io.err)) {
    return 2;
  }
  if (!o.predicatesFile.empty() && !readPredicates(o.predicatesFile, p, po.extraPredicates, io.err))
    return 2;
  if (o.autoPredicates) {
    std::vector<ir::CfaId> cfas = p.processes;
    if (p.rules != ir::kNone) cfas.push_back(p.rules);
    if (po.entry != ir::kNone) cfas.push_back(po.entry);
    if (po.classIndex != ir::kNone)
      for (ir::CfaId m : p.classes[po.classIndex].methods) cfas.push_back(m);
    for (ExprRef e : abstraction::defaultPredicates(p, cfas)) po.extraPredicates.push_back(e);
  }
  exec::NativeRegistry natives;
  if (!loadNativePlugins(o, natives, io.err) || !checkNatives(p, natives, io.err)) return 2;
  auto solver = symbolic_cli::makeSolver(o, p, io.err);
  if (!solver) return 2;
  exec::Evaluator ev(p, natives);

  Report rep;
  rep.command = "prove";
  rep.file = o.file;
  fabricate::ProveResult r;
  std::string proofCheck;
  try {
    r = fabricate::prove(p, ev, *solver, po);
    if (r.outcome == fabricate::ProveResult::Outcome::PotentialError && r.problem) {
      if (auto real = triage(o, p, ev, *solver, po, r.problem->error)) {
        r.outcome = fabricate::ProveResult::Outcome::Error;
        rep.error = std::move(*real);
        rep.extra["triage"] = "reproduced from an initial state";
      } else {
        rep.extra["triage"] = "not reproduced from an initial state within the bounds";
      }
    }
    if (o.checkProof && r.outcome == fabricate::ProveResult::Outcome::Proved) {
      smt::SolverOptions so;
      so.backend = smt::otherBackend(*smt::parseBackend(o.solver));
      so.timeoutMs = static_cast<unsigned>(o.solverTimeoutMs);
      auto other = smt::makeSolver(so, smt::programNaming(p));
      proofCheck = fabricate::checkProof(p, ev, *other, po, r);
      rep.extra["proof_check"] = proofCheck.empty()
                                     ? std::string("passed (") + smt::backendName(so.backend) + ")"
                                     : "FAILED: " + proofCheck;
    }
  } catch (const symbolic::NotImplemented& e) {
    io.err << "tandem: error: prove: " << e.what() << "\n";
    return 2;
  } catch (const smt::SmtError& e) {
    io.err << "tandem: error: solver failure: " << e.what() << "\n";
    return 2;
  }
  using Outcome = fabricate::ProveResult::Outcome;
  switch (r.outcome) {
    case Outcome::Proved:
      rep.verdict = Verdict::Proved;
      break;
    case Outcome::Error:
      rep.verdict = Verdict::Error;
      break;
    case Outcome::PotentialError:
      rep.verdict = Verdict::PotentialError;
      break;
    case Outcome::Unknown:
      rep.verdict = Verdict::Unknown;
      rep.reason = r.reason;
      break;
  }
  if (!proofCheck.empty()) {
    io.err << "tandem: INTERNAL ERROR: --check-proof failed: " << proofCheck << "\n";
    rep.verdict = Verdict::Unknown;
    rep.reason = "internal error: the proof did not re-check: " + proofCheck;
  }
  if (!rep.error && r.problem && rep.verdict != Verdict::Proved)
    rep.error = errorInfo(p, r.problem->error, proveSteps(p, r.problem->trace),
                          labelOf(p, r.problem->trace));
  if (rep.verdict == Verdict::Proved) {
    std::string text;
    nlohmann::json per = nlohmann::json::object();
    for (const auto& [loc, f] : r.invariant) {
      text += loc + ": " + f + "\n";
      per[loc] = f;
    }
    rep.extra["invariant"] = text;
    rep.extra["invariant_per_cutpoint"] = per;
    if (po.classIndex != ir::kNone) rep.extra["class_invariant"] = r.classInvariant;
  }
  if (po.classIndex != ir::kNone) {
    rep.extra["class"] = o.cls;
    rep.extra["argument_pool"] = po.argPool;
  }
  const fabricate::ProveStats& s = r.stats;
  rep.stats["states"] = s.concreteStates;
  rep.stats["transitions"] = s.transitions;
  rep.stats["abstract_states"] = s.abstractStates;
  rep.stats["fabricated_states"] = s.fabricatedStates;
  rep.stats["solver_queries"] = s.solverQueries;
  rep.stats["executions"] = s.executions;
  rep.stats["invariance_checks"] = s.invarianceChecks;
  rep.stats["unknown_answers"] = s.unknownAnswers;
  rep.stats["time_s"] = s.seconds;
  rep.stats["peak_rss_mb"] = search::peakRssMb();
  rep.extra["engine"] = o.engine;
  rep.extra["cutpoints"] = o.cutpoints;
  if (!o.dot.empty()) {
    abstraction::Abstraction abs(p, ev, po.extraPredicates);
    writeDot(o.dot, p, r, abs, io.err);
  }
  if (o.json) {
    printJson(io.out, rep);
    return exitCode(rep.verdict);
  }
  printVerdictLine(io.out, rep);
  if (rep.verdict == Verdict::Proved) {
    io.out << "invariant (" << s.abstractStates << " abstract states):\n";
    for (const auto& [loc, f] : r.invariant) io.out << "  " << loc << ": " << f << "\n";
    if (po.classIndex != ir::kNone)
      io.out << "class invariant of " << o.cls << ": " << r.classInvariant << "\n";
  }
  if (rep.verdict == Verdict::PotentialError)
    io.out << "(reached from a fabricated state; no execution from an initial state reached it "
              "within the triage bounds)\n";
  printErrorText(io.out, rep, o.trace);
  io.out << s.abstractStates << " abstract states, " << s.fabricatedStates << " fabricated states, "
         << s.solverQueries << " solver queries, " << s.executions << " executions, "
         << s.concreteStates << " concrete states, " << s.seconds << " s\n";
  if (o.stats) io.out << rep.stats.dump(2) << "\n";
  return exitCode(rep.verdict);
}

}  // namespace tandem::cli
