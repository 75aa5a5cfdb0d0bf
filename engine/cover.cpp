// `tandem cover --entry P`: bounded infeasible code detection (Christ, Hoenicke, Schaef; see
// docs/cover.md). The entry is unwound (cover/unwind.h), its reachability verification condition
// built by the symbolic transfer relation (cover/reach_vc.h) and enumerated by --algo
// (cover/algorithms.h); every test is replayed concretely. The report lists the labels and
// source lines covered and those infeasible within the bound, the tests, and the first failing
// test's trace. --prove-infeasible asks `prove` about each infeasible location (cover_prove.cpp).
#include "cover/expression_calls.h"
#include "cover/modular.h"
#include "engine/api.h"
#include "engine/cover_prove.h"
#include "engine/request_rules.h"
#include "engine/setup.h"
#include "report/cover_report.h"

namespace tandem::engine {

Report cover(ir::Program& p, const CoverRequest& r) {
  checkRules(r);
  if (!r.cls.empty()) throw usageError("cover --class is not implemented yet (give --entry PROC)");
  if (p.isClosed())
    throw inputError(r.file, "cover analyses procedures (an open system with --entry); " + r.file +
                                 " is a closed system");
  if (r.entry.empty()) throw usageError("cover needs --entry PROC");
  const ir::CfaId entry = entryOf(r, p);
  if (!p.invariants.empty())
    throw inputError(r.file, "cover: `invariant` declarations are not implemented yet in cover");
  RunContext ctx(p, r);
  refuseF64(p, "cover");
  symbolic::SymEvaluator sev(p, ctx.ev);
  // The VC is asserted once and the enumeration adds clauses to it or checks under assumptions:
  // nothing for the prefix-synchronising layer to reuse (its push scope per VC clause cost ~35%
  // more solver time on the cover benchmark), and the guided queries learn from unsat cores.
  // One solver per verification condition (with --summaries, one per procedure and refinement).
  cover::CoverSetup setup{p,
                          sev,
                          ctx.ev,
                          r.tracked,
                          r.unwind,
                          r.guided,
                          ctx.rb.budget,
                          [&] {
                            return makeSolver(r, p, ctx.rb.budget,
                                              ChainNeeds{.incremental = false, .unsatCores = true});
                          },
                          [&](const cover::ReachVc& vc) { cover::refuseCalls(vc, sev); }};

  Report rep;
  rep.command = "cover";
  rep.file = r.file;
  cover::CoverRun run;
  asInputErrors(
      r.file, "", [&] { run = cover::coverEntry(setup, entry, r.algo, r.summaries); }, "cover: ");
  const cover::CoverResult& res = run.result;

  const report::LocationCover cov = report::coverage(p, run.procedures, res);
  const uint64_t failing = report::recordTests(rep, p, ctx.ev, entry, res);
  if (failing)
    rep.verdict = Verdict::Error;
  else if (!res.complete)
    rep.verdict = Verdict::Unknown;
  else
    rep.verdict = Verdict::Completed;
  if (!res.complete) rep.reason = res.reason;

  report::coverKeys(rep, run, cov,
                    {r.algo, r.unwind, r.guided, smt::backendName(r.solver.backend), r.summaries});
  if (r.proveInfeasible && res.complete) {
    rep.cover->provedInfeasible = proveInfeasible(p, r, cov.toProve(p), ctx.rb.budget);
  }
  report::coverStats(rep.stats, run, cov, failing, r.summaries);
  addRunStats(rep.stats, ctx.rb.budget);
  if (!r.testsOut.empty())
    report::writeCoverTests(r.testsOut,
                            "Tests of `tandem cover --entry " + r.entry + " --unwind " +
                                std::to_string(r.unwind) + " --algo " + cover::algoName(r.algo) +
                                "` on " + r.file,
                            p, entry, res);
  return rep;
}

}  // namespace tandem::engine
