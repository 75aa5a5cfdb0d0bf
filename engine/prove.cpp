// `tandem prove`: abstraction fabrication (fabricate/prover.h), then triage of the potential errors
// (fabricate/triage.h; the report's keys in report/prove_report.h), --check-proof with the other
// back end, --dot of the abstract state graph, and the report.
#include "abstraction/auto_predicates.h"
#include "engine/api.h"
#include "engine/load.h"
#include "engine/prove_annotate.h"
#include "engine/prove_certificate.h"
#include "engine/request_rules.h"
#include "engine/setup.h"
#include "fabricate/triage.h"

#include "mc/frontends/predicates_file.h"
#include "mc/ir/ir_printer.h"
#include "mc/lang/input_file.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/initial_models.h"
#include "report/dot_graph.h"
#include "report/prove_report.h"

namespace tandem::engine {

namespace {

// `--predicates FILE` (frontends/predicates_file.h).
std::vector<ExprRef> readPredicates(const std::string& path, ir::Program& p) {
  std::string why;
  auto text = readInputFile(path, why);
  if (!text) throw fileError(path, why + " (the --predicates file)");
  std::vector<ExprRef> out;
  for (const auto& [line, t] : frontends::predicateLines(*text))
    out.push_back(parseGlobalCondition(p, t, path + ":" + std::to_string(line), "a predicate"));
  return out;
}

// `found`: the default predicates, when --auto-predicates asks for them.
// Default predicates: asked for, or the model names none of its own (as ISSTA'06's tool, which
// falls back on them): neither `predicate` declarations nor --predicates.
// With --refine they are asked for only: refinement finds what the proof needs, and the
// default predicates' abstract states cost more than they save (bench/models/bakery3.tdm: no
// proof in 90 s from the 12 default predicates, proved in 12 s from none).
bool usesDefaultPredicates(const ir::Program& p, const ProveRequest& r) {
  if (r.autoPredicates) return true;
  if (r.refine == true) return false;
  return r.predicatesFile.empty() && !p.declaredPredicates;
}

// Refinement: as --refine / --no-refine say when given. Unless given, on for a model that
// declares no predicates (neither `predicate` nor --predicates), where it applies (not --class,
// not --annotate): the first round is the paper's method on the default predicates, exactly as
// without refinement, and only potential errors start refinement, from no predicates (above).
// A model with predicates of its own keeps the paper's method: the paper's examples
// (../shared/conformance, e.g. foo_coarse.tdm's false alarm under a coarse abstraction) are
// defined by the potential errors their predicates leave.
enum class Refinement { Off, Asked, AfterDefaults };
Refinement refinementOf(const ir::Program& p, const ProveRequest& r) {
  if (r.refine) return *r.refine ? Refinement::Asked : Refinement::Off;
  if (!r.predicatesFile.empty() || p.declaredPredicates || !r.cls.empty() || !r.annotate.empty())
    return Refinement::Off;
  return Refinement::AfterDefaults;
}

// The default predicates' round before refinement gives up at this many abstract states: no
// RUN line of the conformance files that the default predicates prove needs more than 500,
// while on bench/models/bakery3.tdm without its predicates they reach 40,000 in 20 s without a
// fixpoint, and refinement from none proves it in 25 s.
constexpr uint64_t kDefaultsRoundAbstractStates = 2000;

void addRefinementKeys(refine::RefineRun& run, std::string afterDefaults, Report& rep) {
  report::RefinementKeys& k = rep.prove->refinement.emplace();
  k.rounds = run.rounds;
  k.stopped = run.stopped;
  k.afterDefaults = std::move(afterDefaults);
  for (refine::RefinementStep& s : run.steps)
    k.steps.push_back({s.round, s.error, s.length, std::move(s.predicates)});
}

fabricate::ProveOptions proveOptions(ir::Program& p, const ProveRequest& r,
                                     abstraction::ScopedPredicates& found) {
  fabricate::ProveOptions po;
  po.tracked = r.tracked;
  po.cutpoints = r.cutpoints;
  po.engine = r.engine;
  if (r.hybrid) po.stall = r.stall.value_or(fabricate::kDefaultStall);
  // Hybrid execution ends where coverage stalls; a fixed bound only when one is given.
  po.executeBound = r.executeBound;
  if (!r.executeBound && !r.hybrid) po.executeBound = fabricate::kDefaultExecuteBound;
  po.search = searchOrder(r, search::Strategy::Bfs);
  po.seed = r.seed;
  const uint32_t cls = classOf(r, p);
  if (cls != ir::kNone) {
    po.classIndex = cls;
    po.entry = p.classes[cls].init;
    po.argPool = fabricate::argumentPool(p, po.entry);
  } else {
    po.entry = entryOf(r, p);
  }
  if (r.deadlock && po.entry != ir::kNone)
    throw usageError("--deadlock and --no-deadlock apply to closed systems");
  if (!r.predicatesFile.empty()) po.extraPredicates.global = readPredicates(r.predicatesFile, p);
  if (r.maxPredicates && !usesDefaultPredicates(p, r))
    throw usageError(
        "--max-predicates applies to default predicates (--auto-predicates, or a model without "
        "predicates and no --predicates)");
  if (usesDefaultPredicates(p, r)) {
    found = abstraction::defaultPredicates(
        p, abstraction::analysisOptions(p, po.entry, po.classIndex,
                                        r.maxPredicates.value_or(kDefaultMaxPredicates)));
    abstraction::ScopedPredicates& to = po.extraPredicates;
    to.global.insert(to.global.end(), found.global.begin(), found.global.end());
    to.ofCfa = found.ofCfa;
    to.ofClass = found.ofClass;
  }
  return po;
}

// --check-proof: the proof re-checked by the other back end. The failure's text; empty when
// it passed (or a bound stopped the check: the verdict is then unknown).
std::string checkProofWithOther(const ir::Program& p, const ProveRequest& r, RunContext& ctx,
                                const fabricate::ProveOptions& po, fabricate::ProveResult& res,
                                Report& rep) {
  Request rq = r;
  rq.solver.backend = smt::otherBackend(r.solver.backend);
  rq.solver.smtLog.clear();
  rq.solver.crossCheck = false;
  auto otherSolver = makeSolver(rq, p, ctx.rb.budget);
  std::string failure = fabricate::checkProof(p, ctx.ev, *otherSolver, po, res);
  const char* name = smt::backendName(rq.solver.backend);
  if (ctx.rb.budget.stopped()) {
    res.outcome = fabricate::ProveResult::Outcome::Unknown;
    res.reason =
        ctx.rb.budget.stopped()->reason + " (while re-checking the proof with " + name + ")";
    return {};
  }
  rep.extra["proof_check"] =
      failure.empty() ? std::string("passed (") + name + ")" : "FAILED: " + failure;
  return failure;
}

// --certificate: written for a proof only; a bound or an interrupt while writing it makes the
// verdict unknown, as while re-checking.
void certify(const ir::Program& p, const ProveRequest& r, RunContext& ctx,
             const fabricate::ProveOptions& po, fabricate::ProveResult& res, Report& rep) {
  if (res.outcome != fabricate::ProveResult::Outcome::Proved) {
    rep.extra["certificate"] = "not written: nothing was proved";
    return;
  }
  const CertificateOutcome c = writeCertificate(p, r, ctx.ev, po, res, ctx.rb.budget);
  if (!c.incomplete.empty()) {
    res.outcome = fabricate::ProveResult::Outcome::Unknown;
    res.reason = c.incomplete + " (while writing the certificate)";
    rep.extra["certificate"] = "not written: " + c.incomplete;
    return;
  }
  rep.extra["certificate"] = r.certificate + " (" + std::to_string(c.definitions) +
                             (c.definitions == 1 ? " definition)" : " definitions)");
}

}  // namespace

Report prove(ir::Program& p, const ProveRequest& r) {
  checkRules(r);
  const Refinement refinement = refinementOf(p, r);
  if (r.maxRefinements && refinement == Refinement::Off)
    throw usageError(
        "--max-refinements applies with refinement (--refine, or a model without predicates)");
  refuseF64(p, "prove");
  abstraction::ScopedPredicates defaults;
  fabricate::ProveOptions po = proveOptions(p, r, defaults);
  RunContext ctx(p, r);
  po.budget = &ctx.rb.budget;
  po.progress = &ctx.rb.progress;
  po.keepMemory = r.keepMemory;
  auto solver = makeSolver(r, p, ctx.rb.budget);
  // Request::keepMemory: the solver (its term caches) is left to the OS at exit.
  const LeaveAtExit<smt::Solver> leave{solver, r.keepMemory};
  if (po.entry == ir::kNone && symbolic::needsInitialModels(p)) {
    // The initial states of a closed system with unbounded inputs, for Execute and triage (the
    // invariance checks cover every initial state symbolically either way).
    auto initial = symbolic::enumerateInitialStates(p, ctx.ev, *solver, symbolic::kMaxInitialStates,
                                                    r.tracked);
    if (initial.complete)
      po.initial = std::make_shared<const std::vector<exec::State>>(std::move(initial.states));
  }

  Report rep;
  rep.command = "prove";
  rep.file = r.file;
  rep.prove.emplace();
  fabricate::ProveResult res;
  std::string proofCheck;
  asInputErrors(r.file, "prove: ", [&] {
    fabricate::TriageSummary t;
    const uint32_t rounds = r.maxRefinements.value_or(refine::kDefaultMaxRefinements);
    auto refining = [&](fabricate::ProveOptions from, std::string afterDefaults) {
      refine::RefineRun run =
          refine::proveRefining(p, ctx.ev, *solver, std::move(from), r.triage, rounds);
      res = std::move(run.result);
      t = std::move(run.triage);
      po = std::move(run.options);  // the predicates found: --check-proof and --dot read them
      addRefinementKeys(run, std::move(afterDefaults), rep);
    };
    if (refinement == Refinement::Asked) {
      refining(po, "");
    } else {
      const bool capped = refinement == Refinement::AfterDefaults && !r.autoPredicates;
      if (capped) po.maxAbstractStates = kDefaultsRoundAbstractStates;
      res = fabricate::prove(p, ctx.ev, *solver, po);
      po.maxAbstractStates.reset();
      const bool potential = res.outcome == fabricate::ProveResult::Outcome::PotentialError;
      if (refinement == Refinement::AfterDefaults && (potential || res.gaveUp) &&
          !ctx.rb.budget.stopped()) {
        fabricate::ProveOptions from = po;
        if (!r.autoPredicates) from.extraPredicates = {};  // see usesDefaultPredicates
        refining(std::move(from), potential
                                      ? "the default predicates left potential errors"
                                      : "the default predicates' round ended at " + res.reason);
      } else {
        t = fabricate::triagePotentialErrors(p, ctx.ev, *solver, po, r.triage, res);
      }
    }
    for (const auto& d :
         abstraction::Abstraction(p, ctx.ev, po.extraPredicates).droppedPredicates()) {
      std::string text = p.cfas[d.cfa].name + ": " + ir::exprToString(p, d.predicate) + " at ";
      for (size_t i = 0; i < d.locations.size(); ++i)
        text += (i ? ", " : "") + p.locName(d.locations[i]);
      rep.prove->droppedPredicates.push_back(std::move(text));
      rep.stats.dropped_predicates = rep.stats.dropped_predicates.value_or(0) + d.locations.size();
    }
    if (t.reproduced) rep.error = report::triagedError(p, *t.reproduced, po.entry);
    if (!t.triage.empty()) rep.extra["triage"] = t.triage;
    rep.prove->potentialErrors = report::potentialErrorRows(res.potentialErrors, t);
    if (r.checkProof && res.outcome == fabricate::ProveResult::Outcome::Proved)
      proofCheck = checkProofWithOther(p, r, ctx, po, res, rep);
  });
  if (!r.certificate.empty()) certify(p, r, ctx, po, res, rep);
  report::proveOutcome(rep, p, res, proofCheck, po.classIndex != ir::kNone, r.diag);
  if (po.classIndex != ir::kNone) {
    rep.prove->cls = r.cls;
    rep.extra["argument_pool"] = po.argPool;
  }
  report::proveStats(rep.stats, res.stats);
  addRunStats(rep.stats, ctx.rb.budget);
  rep.extra["engine"] = fabricate::engineName(r.engine);
  if (usesDefaultPredicates(p, r))
    rep.prove->defaultPredicates = report::predicateTexts(p, defaults);
  rep.extra["cutpoints"] = ir::cutpointModeName(r.cutpoints);
  if (!r.dot.empty())
    report::writeProveDotFile(r.dot, res, abstraction::Abstraction(p, ctx.ev, po.extraPredicates));
  if (!r.annotate.empty()) {
    rep.prove->annotations = annotateAssertions(p, r, ctx.rb.budget);
    rep.prove->annotatedFile = r.annotate;
    // Stopped while annotating: the file says `verified false` where no proof ran.
    if (ctx.rb.budget.pollNow() && rep.verdict == Verdict::Proved) {
      rep.verdict = Verdict::Unknown;
      rep.reason = ctx.rb.budget.stopped()->reason + " (while annotating)";
    }
  }
  return rep;
}

}  // namespace tandem::engine
