#include "engine/prove_on_copy.h"

#include "engine/api.h"

namespace tandem::engine {

symbolic::ProveOnCopy proveOnCopy(std::function<ProveRequest(double seconds)> request) {
  symbolic::ProveOnCopy hooks;
  hooks.prove = [request = std::move(request)](ir::Program& q, double seconds) {
    using Kind = symbolic::ProveOnCopy::Outcome::Kind;
    const Report rep = prove(q, request(seconds));
    symbolic::ProveOnCopy::Outcome o;
    o.kind = rep.verdict == Verdict::Proved  ? Kind::Proved
             : rep.verdict == Verdict::Error ? Kind::Error
                                             : Kind::Other;
    o.verdict = verdictName(rep.verdict);
    o.reason = rep.reason;
    return o;
  };
  return hooks;
}

}  // namespace tandem::engine
