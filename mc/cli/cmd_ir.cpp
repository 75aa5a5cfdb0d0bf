// `tandem ir FILE`: the "check this file" command; prints the control-flow IR.
#include <ostream>

#include "mc/cli/commands.h"
#include "mc/cli/report.h"
#include "mc/ir/ir_printer.h"

namespace tandem::cli {

int runIrCommand(const Options& o, const ir::Program& p, Io io) {
  if (o.json) {
    Report r;
    r.command = "ir";
    r.file = o.file;
    r.verdict = Verdict::Completed;
    r.stats["automata"] = p.cfas.size();
    r.stats["locations"] = p.locs.size();
    r.stats["edges"] = p.edges.size();
    r.extra["ir"] = ir::programToString(p);
    printJson(io.out, r);
    return 0;
  }
  io.out << ir::programToString(p);
  return 0;
}

}  // namespace tandem::cli
