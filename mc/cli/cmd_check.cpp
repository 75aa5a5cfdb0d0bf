// `tandem check FILE`: explicit-state exploration with state matching (SPF-style search
// strategies, bounds, counterexamples replayed by the reference evaluator).
#include <fstream>
#include <iostream>
#include <memory>

#include "mc/cli/check_setup.h"
#include "mc/cli/commands.h"
#include "mc/cli/report.h"
#include "mc/cli/symbolic_commands.h"
#include "mc/cli/trace_format.h"
#include "mc/exec/evaluator.h"
#include "mc/search/compiled_system.h"
#include "mc/search/explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/trace.h"

namespace tandem::cli {

namespace {

constexpr size_t kDotLimit = 1000;

bool hasInputs(const ir::Program& p) {
  for (auto g : p.globals)
    if (!p.vars[g].init) return true;
  return false;
}

void writeDot(const std::string& path, const ir::Program& p, const search::Explorer& ex,
              const search::ExploreResult& r, search::GenericSystem& sys, std::ostream& err) {
  if (!r.graphComplete) {
    err << "tandem: --dot: the graph has more than " << kDotLimit
        << " states; not written (bound the search with --max-states " << kDotLimit << ")\n";
    return;
  }
  std::ofstream out(path);
  out << "digraph states {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  for (search::StateStore::Id id = 0; id < ex.store().size(); ++id) {
    auto s = sys.codec().decode(ex.store().get(id));
    std::string label;
    for (exec::ThreadId t = 0; t < s.threads.size(); ++t)
      label += (t ? " " : "") + p.locName(s.threads[t].top().pc);
    for (auto& [k, v] : stateValues(p, s)) label += "\\n" + k + " = " + v;
    out << "  s" << id << " [label=\"" << label << "\""
        << (ex.store().parent(id) == search::StateStore::kNoParent ? ", penwidth=2" : "") << "];\n";
  }
  for (auto& [a, b] : r.graph) out << "  s" << a << " -> s" << b << ";\n";
  out << "}\n";
}

}  // namespace

int runCheckCommand(const Options& o, const ir::Program& p, Io io) {
  auto tracked = trackedKinds(o, io.err);
  if (!tracked) return 2;
  exec::NativeRegistry natives;
  if (!loadNativePlugins(o, natives, io.err) || !checkNatives(p, natives, io.err)) return 2;
  search::GenericOptions go;
  go.tracked = *tracked;
  bool testsOnly = false;
  // The class analysis runs `init` and the methods on symbolic arguments.
  if (!o.cls.empty()) return runSymbolicCheck(o, p, io);
  if (!o.entry.empty()) {
    go.entry = p.findCfaId(o.entry, ir::CfaKind::Proc);
    if (go.entry == ir::kNone) {
      io.err << "tandem: error: no procedure '" << o.entry << "' in " << o.file << "\n";
      return 2;
    }
    const ir::Cfa& c = p.cfas[go.entry];
    bool symbolic = !c.params.empty() || hasInputs(p);
    // The `test` inputs alone cannot justify `verified` nor find errors only other inputs reach:
    // an open system with inputs is explored symbolically, unless --inputs tests asks for the
    // concrete tests only (then an exhausted search is `unknown`, not `verified`).
    if (symbolic && o.inputs != "tests") return runSymbolicCheck(o, p, io);
    testsOnly = symbolic;
    go.entryHasNoInputs = !symbolic;  // no inputs: the one execution tree is explored exactly
  } else if (p.isClosed()) {
    // Initial states from `test {...}` are a sample, not the declared initial states.
    for (const auto& t : p.tests) testsOnly = testsOnly || t.isState;
  } else if (!p.isClosed()) {
    io.err << "tandem: error: " << o.file << " is an open system: give --entry PROC or --class C\n";
    return 2;
  }
  exec::Evaluator ev(p, natives);
  // The compiled engine when it runs the program exactly (and no --dot, which decodes generic
  // states); the generic one otherwise, and always as the reference that replays traces.
  search::GenericSystem generic(p, ev, go);
  std::unique_ptr<search::CompiledSystem> compiled;
  if (o.dot.empty() && go.entry == ir::kNone && search::CompiledSystem::eligible(p))
    compiled = std::make_unique<search::CompiledSystem>(p, ev, go);
  search::TransitionSystem& sys =
      compiled ? static_cast<search::TransitionSystem&>(*compiled) : generic;
  search::ExploreOptions eo;
  eo.search = o.search;
  eo.seed = o.seed;
  eo.maxDepth = o.maxDepth;
  eo.maxStates = o.maxStates;
  eo.timeoutSeconds = o.timeout;
  eo.memoryLimitMb = o.memoryLimitMb;
  eo.deadlock = o.deadlock;
  eo.progress = o.quiet ? nullptr : &io.err;
  eo.graphLimit = o.dot.empty() ? 0 : kDotLimit;
  search::Explorer ex(sys, eo);
  search::ExploreResult r = ex.run();

  Report rep;
  rep.command = "check";
  rep.file = o.file;
  switch (r.outcome) {
    case search::Outcome::Exhausted:
      rep.verdict = testsOnly ? Verdict::Unknown : Verdict::Verified;
      if (testsOnly) rep.reason = "only the executions from the `test` inputs were explored";
      break;
    case search::Outcome::Incomplete:
      rep.verdict = Verdict::Unknown;
      rep.reason = r.reason;
      break;
    case search::Outcome::ErrorFound:
    case search::Outcome::Deadlock: {
      rep.verdict = Verdict::Error;
      search::Trace tr = search::buildTrace(sys, ex.store(), r, generic, ev);
      if (!tr.replayed) {
        io.err << "tandem: INTERNAL ERROR: the counterexample did not replay in the reference "
                  "evaluator ("
               << tr.problem << "); please report this bug\n";
        rep.verdict = Verdict::Unknown;
        rep.reason = "internal error: counterexample replay failed: " + tr.problem;
        break;
      }
      ErrorInfo e;
      if (r.outcome == search::Outcome::Deadlock) {
        e.kind = "deadlock";
        e.message = "no process can move";
      } else {
        e.kind = ir::errorKindName(r.error->kind);
        e.message = r.error->message;
        e.line = r.error->loc.line;
      }
      e.trace = traceSteps(p, tr);
      if (!e.trace.empty()) {
        const auto& last = tr.steps.back();
        e.label = p.locName(last.before.threads[last.move.thread].top().pc);
      } else {
        e.label = "(initial state)";
      }
      rep.error = std::move(e);
      break;
    }
  }
  rep.stats["states"] = r.states;
  rep.stats["transitions"] = r.transitions;
  rep.stats["depth"] = r.maxDepth;
  rep.stats["time_s"] = r.seconds;
  rep.stats["peak_rss_mb"] = r.peakRssMb;
  rep.stats["states_per_s"] =
      r.seconds > 0 ? static_cast<uint64_t>(r.states / r.seconds) : r.states;
  rep.stats["store_bytes_per_state"] =
      r.states ? static_cast<double>(r.storeBytes) / r.states : 0.0;
  rep.extra["search"] = o.search;
  rep.extra["engine"] = sys.name();
  if (!o.dot.empty()) writeDot(o.dot, p, ex, r, generic, io.err);
  if (o.json) {
    printJson(io.out, rep);
  } else {
    printVerdictLine(io.out, rep);
    printErrorText(io.out, rep, o.trace);
    io.out << r.states << " states, " << r.transitions << " transitions, depth " << r.maxDepth
           << ", " << r.seconds << " s\n";
    if (o.stats) io.out << rep.stats.dump(2) << "\n";
  }
  return exitCode(rep.verdict);
}

}  // namespace tandem::cli
