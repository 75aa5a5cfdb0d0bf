// `tandem ir FILE`: the "check this file" command; the control-flow IR as text.
#include "engine/api.h"
#include "mc/ir/ir_printer.h"

namespace tandem::engine {

Report printIr(const ir::Program& p, const std::string& file) {
  Report r;
  r.command = "ir";
  r.file = file;
  r.verdict = Verdict::Completed;
  r.stats["automata"] = p.cfas.size();
  r.stats["locations"] = p.locs.size();
  r.stats["edges"] = p.edges.size();
  r.extra["ir"] = ir::programToString(p);
  return r;
}

}  // namespace tandem::engine
