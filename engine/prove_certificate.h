// `prove --certificate FILE`: a proof's invariant as SMT-LIB definitions of Horn-clause predicates
// (chc/certificate.h), which z3 and cvc5 check without Tandem (scripts/validate-certificate):
// - CHC-COMP input (.smt2): one `define-fun` per predicate of the file, over its own arguments
//   (the invariant at the predicate's location, mc/horn/lower.h);
// - other models: one per predicate of `tandem export-chc` with the same options (a cutpoint
//   location vector over the state's scalars; chc/horn_export.h).
#pragma once

#include <string>

#include "engine/request.h"
#include "fabricate/prover.h"
#include "mc/exec/evaluator.h"
#include "mc/search/driver/budget.h"

namespace tandem::engine {

struct CertificateOutcome {
  size_t definitions = 0;
  std::string incomplete;  // a bound or an interrupt stopped it: nothing was written
};

// Writes r.certificate for a proved result `res` of options `po`. Throws CommandError (exit 2)
// for models outside the export and for a file that cannot be written.
CertificateOutcome writeCertificate(const ir::Program& p, const ProveRequest& r,
                                    const exec::Evaluator& ev, const fabricate::ProveOptions& po,
                                    const fabricate::ProveResult& res, search::Budget& budget);

}  // namespace tandem::engine
