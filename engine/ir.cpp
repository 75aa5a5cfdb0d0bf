// `tandem ir FILE`: the "check this file" command; the control-flow IR as text.
#include "abstraction/unverified.h"
#include "engine/api.h"
#include "mc/ir/ir_printer.h"

namespace tandem::engine {

Report printIr(const ir::Program& p, const std::string& file, bool instrumented) {
  Report r;
  r.command = "ir";
  r.file = file;
  r.verdict = Verdict::Completed;
  r.stats.automata = p.cfas.size();
  r.stats.locations = p.locs.size();
  r.stats.edges = p.edges.size();
  if (!instrumented) {
    r.ir = ir::programToString(p);
    return r;
  }
  // The conditions as the paper's Figs. 4 and 5 show them: `assume May` and `tryfirst Must`
  // where a location is reached.
  const abstraction::UnverifiedConditions c =
      abstraction::inferUnverified(p, ir::defaultErrorKinds());
  std::vector<std::vector<std::string>> notes(p.locs.size());
  nlohmann::json conds = nlohmann::json::array();
  uint64_t may = 0, must = 0;
  auto note = [&](ir::LocId l, ExprRef cond, const char* statement, const char* kind) {
    const std::string text = ir::exprToString(p, cond);
    notes[l].push_back(std::string(statement) + " " + text + "  // " + kind + "-unverified");
    conds.push_back({{"location", p.locName(l)},
                     {"line", p.locs[l].loc.line},
                     {"kind", kind},
                     {"condition", text}});
  };
  for (ir::LocId l = 0; l < p.locs.size(); ++l) {
    if (c.may[l]) {
      note(l, c.may[l], "assume", "may");
      ++may;
    }
    if (c.must[l]) {
      note(l, c.must[l], "tryfirst", "must");
      ++must;
    }
  }
  for (ir::CfaId k = 0; k < p.cfas.size(); ++k)
    if (!c.skipped[k].empty())
      notes[p.cfas[k].entry].push_back("// no conditions inferred: " + c.skipped[k]);
  r.stats.may_conditions = may;
  r.stats.must_conditions = must;
  r.extra["conditions"] = conds;
  r.ir = ir::programToString(p, &notes);
  return r;
}

}  // namespace tandem::engine
