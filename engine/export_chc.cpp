// `tandem export-chc FILE`: the system as SMT-LIB2 Horn clauses (chc/horn_export.h), into the
// report (the CLI prints them on stdout) or into `-o FILE`. Shapes outside the export are refused
// (exit status 2). A bound or an interrupt leaves `-o FILE` as it was, and prints the clauses so
// far on stdout without (check-sat): a solver must not take a part for the whole.
#include "chc/horn_export.h"
#include "chc/unsupported.h"
#include "engine/api.h"
#include "engine/setup.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/sym_state.h"
#include "report/whole_file.h"

namespace tandem::engine {

Report exportChc(const ir::Program& p, const ExportChcRequest& r) {
  if (!r.cls.empty()) throw usageError("export-chc --class is not implemented yet");
  chc::HornOptions h;
  h.tracked = r.tracked;
  h.cutpoints = r.cutpoints;
  h.entry = entryOf(r, p);
  if (r.deadlock && h.entry != ir::kNone)
    throw usageError("--deadlock and --no-deadlock apply to closed systems");
  refuseF64(p, "export-chc");
  RunContext ctx(p, r);
  h.budget = &ctx.rb.budget;
  h.text = r.output.empty();
  chc::HornSystem hs;
  try {
    hs = chc::exportHorn(p, ctx.ev, h);
  } catch (const chc::Unsupported& e) {
    throw inputError(r.file, std::string("export-chc: ") + e.what());
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(r.file, std::string("export-chc: ") + e.what());
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, std::string("export-chc: ") + e.what());
  }
  if (!r.output.empty() && hs.incomplete.empty() &&
      report::writeWhole(r.output, hs.text, ctx.rb.budget) == report::WriteOutcome::Stopped)
    hs.incomplete = ctx.rb.budget.stopped()->reason;
  Report rep;
  rep.command = "export-chc";
  rep.file = r.file;
  rep.verdict = hs.incomplete.empty() ? Verdict::Completed : Verdict::Unknown;
  rep.reason = hs.incomplete;
  rep.stats.predicates = hs.predicates;
  rep.stats.clauses = hs.clauses;
  rep.stats.init_clauses = hs.initClauses;
  rep.stats.step_clauses = hs.stepClauses;
  rep.stats.query_clauses = hs.queryClauses;
  rep.stats.max_arity = hs.maxArity;
  rep.stats.states = hs.predicates;
  addRunStats(rep.stats, ctx.rb.budget);
  rep.extra["cutpoints"] = ir::cutpointModeName(r.cutpoints);
  rep.exported.emplace();
  if (!r.output.empty())
    rep.exported->output = r.output;
  else
    rep.exported->smtlib = hs.text;
  return rep;
}

}  // namespace tandem::engine
