// `tandem check FILE`: explicit-state exploration with state matching (SPF-style search
// strategies, bounds, counterexamples replayed by the reference evaluator). Open systems whose
// entry has inputs, and the class analysis, go to symbolic execution (check_symbolic.cpp).
#include <fstream>
#include <memory>
#include <thread>

#include "engine/api.h"
#include "engine/check_symbolic.h"
#include "engine/request_rules.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/exploration.h"
#include "mc/search/explore/parallel_explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/por/por_analysis.h"
#include "mc/search/trace.h"
#include "mc/symbolic/initial_models.h"
#include "report/dot_graph.h"
#include "report/explore_report.h"

namespace tandem::engine {

namespace {

bool hasInputs(const ir::Program& p) {
  for (auto g : p.globals)
    if (!p.vars[g].init) return true;
  return false;
}

// The error of an explicit search, with its trace `tr` (replayed by the reference evaluator).
void reportError(Report& rep, const ir::Program& p, const search::ExploreResult& r,
                 const search::Trace& tr, std::ostream* diag) {
  rep.verdict = Verdict::Error;
  if (!tr.replayed) {
    if (diag)
      *diag << "tandem: INTERNAL ERROR: the counterexample did not replay in the reference "
               "evaluator ("
            << tr.problem << "); please report this bug\n";
    rep.verdict = Verdict::Unknown;
    rep.reason = "internal error: counterexample replay failed: " + tr.problem;
    return;
  }
  rep.error = report::explicitError(p, r, tr);
}

// The workers of the explicit search: --threads, or the cores where the parallel search applies
// (a closed system, dfs or bfs, no --dot graph, no plugin whose natives may not be thread-safe).
unsigned explorerThreads(const CheckRequest& r, bool closed) {
  const bool applies = closed && search::parallelStrategy(searchOrder(r)) && r.dot.empty();
  if (!r.threads)
    return applies && r.natives.empty() ? std::max(1u, std::thread::hardware_concurrency()) : 1;
  if (*r.threads > 1 && !applies)
    throw usageError(!closed ? "--threads applies to closed systems (not --entry)"
                     : !r.dot.empty()
                         ? "--dot draws the graph of the sequential search: give --threads 1"
                         : "--threads applies to --search dfs and bfs");
  if (*r.threads > 1024) throw usageError("--threads must be at most 1024");
  return static_cast<unsigned>(*r.threads);
}

size_t dotLimit(const CheckRequest& r) { return r.dotMaxStates.value_or(kDefaultDotMaxStates); }

// A closed system whose initial values are unbounded inputs under `init`: the solver enumerates
// the initial states into `go.initial`. The report when that ends the run (too many, no answer,
// or an initialiser that fails: a sample would not justify a verdict).
std::optional<Report> enumerateInitial(const ir::Program& p, const CheckRequest& r, RunContext& ctx,
                                       search::GenericOptions& go, size_t& states,
                                       uint64_t& queries) {
  auto solver = makeSolver(r, p, ctx.rb.budget);
  symbolic::InitialModels initial =
      symbolic::enumerateInitialStates(p, ctx.ev, *solver, symbolic::kMaxInitialStates, r.tracked);
  states = initial.states.size();
  queries = solver->stats().queries;
  if (initial.complete && !initial.error) {
    go.initial = std::make_shared<const std::vector<exec::State>>(std::move(initial.states));
    return std::nullopt;
  }
  // A bound that interrupted the solver shows first as its unknown answer: name the bound.
  if (!initial.error && !ctx.rb.budget.stopped()) (void)ctx.rb.budget.pollNow();
  Report rep = report::initialStatesStop(
      r.file, initial, ctx.rb.budget.stopped() ? ctx.rb.budget.stopped()->reason : "", queries);
  addRunStats(rep.stats, ctx.rb.budget);
  return rep;
}

// Which explorer runs, from the request; throws usageError for combinations that do not go.
void chooseExplorer(search::Exploration& x, const ir::Program& p, const CheckRequest& r,
                    bool closed) {
  x.store = r.store.value_or(search::StoreKind::Exact);
  const bool otherStore = x.store != search::StoreKind::Exact;
  if (r.distributed && ((r.threads && *r.threads > 1) || otherStore))
    throw usageError(
        "--distributed runs one thread per rank with the exact store: not --threads N or --store "
        "tree|hc|bitstate");
  // The reduction's proviso asks which states were expanded: the exact stores keep the marks.
  if (r.por.value_or(false) && (r.distributed || otherStore))
    throw usageError(
        "--por needs the expanded marks of the exact store: not with --store tree|hc|bitstate or "
        "--distributed");
  x.threads = r.distributed ? 1 : explorerThreads(r, closed);
  x.bits = x.store == search::StoreKind::Bitstate ? bitstateBits(r) : 0;
  // --por: the static side of the reduction; a model it does not cover is explored in full.
  if (r.por.value_or(false)) {
    x.por = search::PorAnalysis::build(p, &x.whyNoPor);
    if (!x.por && r.diag && !r.quiet)
      *r.diag << "tandem: --por: every interleaving is explored: the reduction does not handle "
              << x.whyNoPor << "\n";
  }
}

// The verdict of the search; an error's trace, replayed by the reference evaluator.
std::optional<search::Trace> decide(Report& rep, search::Exploration& x, const ir::Program& p,
                                    RunContext& ctx, const CheckRequest& r, bool testsOnly) {
  const search::ExploreResult& res = x.res;
  switch (res.outcome) {
    case search::Outcome::Exhausted:
      rep.verdict = testsOnly ? Verdict::Unknown : Verdict::Verified;
      if (testsOnly) rep.reason = "only the executions from the `test` inputs were explored";
      // ../shared/reported/vacuous_init.tdm: an unsatisfiable `init` verifies anything.
      if (res.states == 0 && r.diag)
        *r.diag << "tandem: warning: there is no initial state (the `init` conditions exclude "
                   "every input): the verdict holds vacuously\n";
      return std::nullopt;
    case search::Outcome::Incomplete:
      rep.verdict = Verdict::Unknown;
      rep.reason = res.reason;
      return std::nullopt;
    case search::Outcome::ErrorFound:
    case search::Outcome::Deadlock: {
      search::Trace trace = x.ex
                                ? search::buildTrace(x.sys(), x.ex->store(), res, x.generic, ctx.ev)
                                : search::buildTrace(x.sys(), x.errorPath, res, x.generic, ctx.ev);
      reportError(rep, p, res, trace, r.diag);
      return trace;
    }
  }
  return std::nullopt;
}

// Which initial states and which engine: an open system with inputs goes to symbolic execution
// (nullopt); otherwise whether only the `test` inputs are explored.
std::optional<bool> explicitRoute(const ir::Program& p, const CheckRequest& r, ir::CfaId entry,
                                  search::GenericOptions& go) {
  bool testsOnly = false;
  if (entry != ir::kNone) {
    go.entry = entry;
    const bool symbolic = !p.cfas[entry].params.empty() || hasInputs(p);
    // The `test` inputs alone cannot justify `verified` nor find errors only other inputs reach:
    // an open system with inputs is explored symbolically, unless --inputs tests asks for the
    // concrete tests only (then an exhausted search is `unknown`, not `verified`).
    if (symbolic && r.inputs.value_or(Inputs::Symbolic) == Inputs::Symbolic) return std::nullopt;
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
  return testsOnly;
}

}  // namespace

Report check(const ir::Program& p, const CheckRequest& r) {
  checkRules(r);
  classOf(r, p);  // --entry with --class, or an unknown class, is a usage error
  if (!r.cls.empty()) return checkSymbolic(p, r);
  const ir::CfaId entry = entryOf(r, p);
  if (r.maxCalls) throw usageError("--max-calls applies to the class analysis (check --class C)");
  search::GenericOptions go;
  go.tracked = r.tracked;
  const std::optional<bool> testsOnly = explicitRoute(p, r, entry, go);
  if (!testsOnly) return checkSymbolic(p, r);
  RunContext ctx(p, r);
  const bool initialModels = entry == ir::kNone && symbolic::needsInitialModels(p);
  // An explicit-state search asks no solver; the log says so rather than not appear.
  if (!initialModels && !r.solver.smtLog.empty() &&
      !(std::ofstream(r.solver.smtLog)
        << "; tandem check " << r.file << ": an explicit-state search, no solver queries\n"))
    throw inputError(r.solver.smtLog, "cannot write --smt-log file '" + r.solver.smtLog + "'");
  // Initial values that are unbounded inputs under `init`: the solver enumerates the initial
  // states, and the explicit search starts from them.
  size_t initialStates = 0;
  uint64_t initialQueries = 0;
  if (initialModels)
    if (auto stop = enumerateInitial(p, r, ctx, go, initialStates, initialQueries)) return *stop;
  // The compiled engine when it runs the program exactly (and no --dot, which decodes generic
  // states); the generic one otherwise, and always as the reference that replays traces.
  search::Exploration x(p, ctx.ev, go);
  if (!r.dot.empty())
    x.whyGeneric = "--dot";
  else if (go.entry == ir::kNone && search::CompiledSystem::eligible(p, &x.whyGeneric))
    x.compiled = std::make_unique<search::CompiledSystem>(p, ctx.ev, go);
  const bool deadlock =
      go.entry == ir::kNone && r.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)];
  chooseExplorer(x, p, r, go.entry == ir::kNone);
  search::ExplorationRun how;
  how.search = searchOrder(r);
  how.seed = r.seed;
  how.deadlock = deadlock;
  how.graphLimit = r.dot.empty() ? 0 : dotLimit(r);
  how.distributed = r.distributed;
  how.ranks = r.ranks;
  how.budget = &ctx.rb.budget;
  how.progress = &ctx.rb.progress;
  x.run(how);

  Report rep;
  rep.command = "check";
  rep.file = r.file;
  if (x.dist.rank != 0) return rep;  // rank 0 reports for every rank
  const std::optional<search::Trace> trace = decide(rep, x, p, ctx, r, *testsOnly);
  report::searchStats(rep.stats, x.res, x.workers, x.por != nullptr);
  if (initialModels) {
    rep.stats.initial_states = initialStates;
    rep.stats.solver_queries = initialQueries;
  }
  addRunStats(rep.stats, ctx.rb.budget);
  rep.explore = report::ExploreKeys{x.sys().name(), search::storeKindName(x.store), {}, {}};
  if (search::lossyStore(x.store)) report::lossyStore(rep, x.res, x.store, x.bits);
  if (r.distributed) report::distributedStats(rep, x.dist);
  if (go.entry == ir::kNone) rep.extra["por"] = x.por != nullptr;
  if (!x.por && r.por.value_or(false)) rep.extra["por_note"] = x.whyNoPor;
  rep.extra["search"] = search::strategyName(searchOrder(r));
  if (!x.compiled && go.entry == ir::kNone) rep.extra["engine_note"] = x.whyGeneric;
  if (!r.dot.empty())
    report::writeCheckDotFile(
        r.dot, {p, x.ex->store(), x.res, x.generic.codec(), trace ? &*trace : nullptr, dotLimit(r)},
        r.diag);
  return rep;
}

}  // namespace tandem::engine
