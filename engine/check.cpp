// `tandem check FILE`: explicit-state exploration with state matching (SPF-style search
// strategies, bounds, counterexamples replayed by the reference evaluator). Open systems whose
// entry has inputs, and the class analysis, go to symbolic execution (check_symbolic.cpp).
#include <fstream>
#include <memory>

#include "engine/api.h"
#include "engine/check_symbolic.h"
#include "engine/dot_graph.h"
#include "engine/setup.h"
#include "engine/trace_steps.h"
#include "mc/exec/evaluator.h"
#include "mc/search/compiled_system.h"
#include "mc/search/explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/por_analysis.h"
#include "mc/search/trace.h"
#include "mc/symbolic/initial_models.h"

namespace tandem::engine {

namespace {

bool hasInputs(const ir::Program& p) {
  for (auto g : p.globals)
    if (!p.vars[g].init) return true;
  return false;
}

void writeDot(const std::string& path, const CheckGraph& g, std::ostream* diag) {
  std::ofstream out(path);
  if (!out) throw inputError(path, "cannot write --dot file '" + path + "'");
  writeCheckDot(out, g);
  if (diag && g.store.size() > g.limit)
    *diag << "tandem: --dot: the graph has " << g.store.size() << " states; " << path
          << " shows the first " << g.limit
          << (g.result.errorSource != search::StateStore::kNoParent ? " and the error path" : "")
          << " (--dot-max-states N draws more)\n";
}

// The error of an explicit search, with its trace replayed by the reference evaluator.
// Returns the replayed trace.
search::Trace reportError(Report& rep, const ir::Program& p, const search::ExploreResult& r,
                          search::TransitionSystem& sys, const search::Explorer& ex,
                          search::GenericSystem& generic, exec::Evaluator& ev, std::ostream* diag) {
  rep.verdict = Verdict::Error;
  search::Trace tr = search::buildTrace(sys, ex.store(), r, generic, ev);
  if (!tr.replayed) {
    if (diag)
      *diag << "tandem: INTERNAL ERROR: the counterexample did not replay in the reference "
               "evaluator ("
            << tr.problem << "); please report this bug\n";
    rep.verdict = Verdict::Unknown;
    rep.reason = "internal error: counterexample replay failed: " + tr.problem;
    return tr;
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
  if (!tr.initial.threads.empty()) e.initial = stateJson(p, tr.initial);
  if (!e.trace.empty()) {
    const auto& last = tr.steps.back();
    e.label = p.locName(last.before.threads[last.move.thread].top().pc);
  } else {
    e.label = "(initial state)";
  }
  rep.error = std::move(e);
  return tr;
}

}  // namespace

Report check(const ir::Program& p, const CheckRequest& r) {
  classOf(r, p);  // --entry with --class, or an unknown class, is a usage error
  if (r.por && (!r.entry.empty() || !r.cls.empty()))
    throw usageError(std::string(*r.por ? "--por" : "--no-por") +
                     " applies to closed systems (check without --entry or --class)");
  if (!r.cls.empty()) return checkSymbolic(p, r);
  const ir::CfaId entry = entryOf(r, p);
  if (r.maxCalls) throw usageError("--max-calls applies to the class analysis (check --class C)");
  bool testsOnly = false;
  search::GenericOptions go;
  go.tracked = r.tracked;
  if (entry != ir::kNone) {
    go.entry = entry;
    const bool symbolic = !p.cfas[entry].params.empty() || hasInputs(p);
    // The `test` inputs alone cannot justify `verified` nor find errors only other inputs reach:
    // an open system with inputs is explored symbolically, unless --inputs tests asks for the
    // concrete tests only (then an exhausted search is `unknown`, not `verified`).
    if (symbolic && r.inputs.value_or(Inputs::Symbolic) == Inputs::Symbolic)
      return checkSymbolic(p, r);
    testsOnly = symbolic;
    go.entryHasNoInputs = !symbolic;  // no inputs: the one execution tree is explored exactly
    if (r.deadlock) throw usageError("--deadlock and --no-deadlock apply to closed systems");
  } else {
    if (r.inputs) throw usageError("--inputs applies to open systems (check --entry P)");
    // Initial states from `test {...}` are a sample, not the declared initial states.
    for (const auto& t : p.tests) testsOnly = testsOnly || t.isState;
  }
  if (r.solving)
    throw usageError(
        "--solving applies to symbolic execution (check --entry P of a procedure with inputs, "
        "check --class C, testgen)");
  exec::NativeRegistry natives;
  loadNatives(r, p, natives);
  const bool initialModels = entry == ir::kNone && symbolic::needsInitialModels(p);
  // An explicit-state search asks no solver; the log says so rather than not appear.
  if (!initialModels && !r.solver.smtLog.empty() &&
      !(std::ofstream(r.solver.smtLog)
        << "; tandem check " << r.file << ": an explicit-state search, no solver queries\n"))
    throw inputError(r.solver.smtLog, "cannot write --smt-log file '" + r.solver.smtLog + "'");
  RunBudget rb(r);
  exec::Evaluator ev(p, natives);
  // Initial values that are unbounded inputs under `init`: the solver enumerates the initial
  // states, and the explicit search starts from them.
  symbolic::InitialModels initial;
  uint64_t initialQueries = 0;
  if (initialModels) {
    auto solver = makeSolver(r, p, rb.budget);
    initial = symbolic::enumerateInitialStates(p, ev, *solver, symbolic::kMaxInitialStates);
    if (!initial.complete) {  // too many (or no answer): a sample would not justify a verdict
      Report rep;
      rep.command = "check";
      rep.file = r.file;
      rep.verdict = Verdict::Unknown;
      rep.reason = rb.budget.stopped()
                       ? rb.budget.stopped()->reason
                       : "the initial values are inputs: " + initial.reason +
                             " (symbolic exploration of closed systems is not implemented yet)";
      rep.stats["states"] = 0;
      rep.stats["initial_states"] = initial.states.size();
      rep.stats["solver_queries"] = solver->stats().queries;
      addRunStats(rep.stats, rb.budget);
      return rep;
    }
    go.initial = std::make_shared<const std::vector<exec::State>>(initial.states);
    initialQueries = solver->stats().queries;
  }
  // The compiled engine when it runs the program exactly (and no --dot, which decodes generic
  // states); the generic one otherwise, and always as the reference that replays traces.
  search::GenericSystem generic(p, ev, go);
  std::unique_ptr<search::CompiledSystem> compiled;
  std::string whyGeneric;  // what keeps a closed system from the compiled engine
  if (!r.dot.empty())
    whyGeneric = "--dot";
  else if (go.entry == ir::kNone && search::CompiledSystem::eligible(p, &whyGeneric))
    compiled = std::make_unique<search::CompiledSystem>(p, ev, go);
  search::TransitionSystem& sys =
      compiled ? static_cast<search::TransitionSystem&>(*compiled) : generic;
  search::ExploreOptions eo;
  eo.search = r.search;
  eo.seed = r.seed;
  eo.budget = &rb.budget;
  eo.deadlock = go.entry == ir::kNone && r.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)];
  eo.progress = &rb.progress;
  eo.graphLimit = r.dot.empty() ? 0 : r.dotMaxStates;
  // --por: the static side of the reduction; a model it does not cover is explored in full.
  std::unique_ptr<const search::PorAnalysis> por;
  std::string whyNoPor;
  if (r.por.value_or(false)) {
    por = search::PorAnalysis::build(p, &whyNoPor);
    if (!por && r.diag && !r.quiet)
      *r.diag << "tandem: --por: every interleaving is explored: the reduction does not handle "
              << whyNoPor << "\n";
  }
  eo.por = por.get();
  search::Explorer ex(sys, eo);
  search::ExploreResult res = ex.run();

  Report rep;
  rep.command = "check";
  rep.file = r.file;
  std::optional<search::Trace> trace;
  switch (res.outcome) {
    case search::Outcome::Exhausted:
      rep.verdict = testsOnly ? Verdict::Unknown : Verdict::Verified;
      if (testsOnly) rep.reason = "only the executions from the `test` inputs were explored";
      break;
    case search::Outcome::Incomplete:
      rep.verdict = Verdict::Unknown;
      rep.reason = res.reason;
      break;
    case search::Outcome::ErrorFound:
    case search::Outcome::Deadlock:
      trace = reportError(rep, p, res, sys, ex, generic, ev, r.diag);
      break;
  }
  rep.stats["states"] = res.states;
  rep.stats["transitions"] = res.transitions;
  rep.stats["depth"] = res.maxDepth;
  if (initialModels) {
    rep.stats["initial_states"] = initial.states.size();
    rep.stats["solver_queries"] = initialQueries;
  }
  addRunStats(rep.stats, rb.budget);
  rep.stats["states_per_s"] =
      res.seconds > 0 ? static_cast<uint64_t>(res.states / res.seconds) : res.states;
  rep.stats["store_bytes_per_state"] =
      res.states ? static_cast<double>(res.storeBytes) / res.states : 0.0;
  // SPIN's summary: the state vector, matched states, the hash table's load, memory by part.
  const search::StateStore::Memory& m = res.storeMemory;
  rep.stats["matched_states"] = res.matched;
  rep.stats["state_vector_bytes"] =
      res.states ? static_cast<double>(m.stateBytes) / res.states : 0.0;
  rep.stats["hash_slots"] = m.tableSlots;
  rep.stats["hash_load"] = m.tableSlots ? static_cast<double>(res.states) / m.tableSlots : 0.0;
  rep.stats["memory_bytes"] = {{"states", m.stateBytes},
                               {"records", m.recordBytes},
                               {"hash_table", m.tableBytes},
                               {"parents", m.parentBytes}};
  rep.stats["explore_s"] = res.seconds;
  if (por) {
    rep.stats["por_reduced_states"] = res.porReduced;
    rep.stats["por_full_states"] = res.porFull;
  }
  if (go.entry == ir::kNone) rep.extra["por"] = por != nullptr;
  if (!por && r.por.value_or(false)) rep.extra["por_note"] = whyNoPor;
  rep.extra["search"] = search::strategyName(r.search);
  rep.extra["engine"] = sys.name();
  if (!compiled && go.entry == ir::kNone) rep.extra["engine_note"] = whyGeneric;
  if (!r.dot.empty())
    writeDot(r.dot,
             {p, ex.store(), res, generic.codec(), trace ? &*trace : nullptr, r.dotMaxStates},
             r.diag);
  return rep;
}

}  // namespace tandem::engine
