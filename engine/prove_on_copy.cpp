#include "engine/prove_on_copy.h"

#include "engine/api.h"
#include "engine/load.h"

namespace tandem::engine {

symbolic::ProveOnCopy proveOnCopy(const Request& r,
                                  std::function<ProveRequest(double seconds)> request) {
  symbolic::ProveOnCopy hooks;
  const std::string file = r.file;
  const bool overflow = r.tracked[static_cast<size_t>(ir::ErrorKind::Overflow)];
  hooks.fresh = [file, overflow] {
    std::unique_ptr<ir::Program> q = loadModel(file, {});
    q->checkOverflow = overflow;
    return q;
  };
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
