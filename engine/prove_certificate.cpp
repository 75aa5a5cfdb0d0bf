#include "engine/prove_certificate.h"

#include "chc/certificate.h"
#include "chc/horn_export.h"
#include "chc/unsupported.h"
#include "engine/setup.h"
#include "fabricate/invariant_formula.h"
#include "mc/ir/cutpoints.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/term_naming.h"
#include "mc/symbolic/fragments.h"
#include "report/report.h"
#include "report/whole_file.h"

namespace tandem::engine {

namespace {

// The input's own predicates: the invariant at each one's location, over its argument locals
// (the other locals are dead there, and existentially quantified if a predicate reads them).
std::string hornCertificate(const ir::Program& p, const exec::Evaluator& ev,
                            const fabricate::ProveOptions& po,
                            const fabricate::InvariantFormula& inv) {
  const symbolic::SymEvaluator sev(p, ev);
  const symbolic::FragmentBuilder frag(p, sev, ir::computeCutpoints(p, po.cutpoints), po.tracked);
  chc::CertificateWriter w(smt::programNaming(p));
  for (const ir::Program::HornPredicate& hp : p.hornPredicates) {
    const std::vector<symbolic::SymConfig> pres = frag.prestates({hp.loc});
    const symbolic::SymThread& t = pres.at(0).st.threads.at(0);
    std::vector<ExprRef> params;
    for (ir::VarId v : hp.args) params.push_back(t.locals.at(p.vars[v].slot).expr);
    w.define(hp.symbol, params, inv.at(pres[0]), "the invariant at " + hp.symbol);
  }
  return w.text("");
}

}  // namespace

CertificateOutcome writeCertificate(const ir::Program& p, const ProveRequest& r,
                                    const exec::Evaluator& ev, const fabricate::ProveOptions& po,
                                    const fabricate::ProveResult& res, search::Budget& budget) {
  const fabricate::InvariantFormula inv(p, ev, po, res);
  CertificateOutcome out;
  std::string header = "; " + r.file + ": the invariant that tandem prove found, as definitions\n";
  std::string body;
  try {
    if (!p.hornPredicates.empty()) {
      header += "; of the file's predicates (CHC-COMP's model format)\n";
      body = hornCertificate(p, ev, po, inv);
      out.definitions = p.hornPredicates.size();
    } else {
      header += "; of the predicates of `tandem export-chc` with the same options (--cutpoints " +
                std::string(ir::cutpointModeName(po.cutpoints)) + ")\n";
      chc::HornOptions h;
      h.entry = po.entry;
      h.cutpoints = po.cutpoints;
      h.tracked = po.tracked;
      h.budget = &budget;
      h.text = false;
      h.invariant = [&inv](const symbolic::SymConfig& c) { return inv.at(c); };
      chc::HornSystem hs = chc::exportHorn(p, ev, h);
      if (!hs.incomplete.empty()) {
        out.incomplete = hs.incomplete;
        return out;
      }
      body = std::move(hs.certificate);
      out.definitions = hs.predicates;
    }
  } catch (const chc::Unsupported& e) {
    throw inputError(r.file, std::string("prove --certificate: ") + e.what());
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(r.file, std::string("prove --certificate: ") + e.what());
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, std::string("prove --certificate: ") + e.what());
  }
  if (report::writeWhole(r.certificate, header + body, budget) == report::WriteOutcome::Stopped)
    out.incomplete = budget.stopped()->reason;
  return out;
}

}  // namespace tandem::engine
