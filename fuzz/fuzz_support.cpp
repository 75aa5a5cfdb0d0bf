#include "fuzz/fuzz_support.h"

#include <cstdio>
#include <cstdlib>

#include "mc/exec/evaluator.h"
#include "mc/exec/natives.h"
#include "mc/ir/cutpoints.h"
#include "mc/ir/ir_printer.h"
#include "mc/ir/liveness.h"
#include "mc/ir/local_steps.h"
#include "mc/search/compiled/compiled_system.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"

namespace tandem::fuzz {

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz oracle failed: %s\n", what);
  std::abort();
}

std::string asText(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

void walkIr(const ir::Program& p) {
  const std::string text = ir::programToString(p);
  require(!text.empty(), "the IR printer printed nothing");
  for (auto mode : {ir::CutpointMode::Loops, ir::CutpointMode::All, ir::CutpointMode::Paper})
    require(ir::computeCutpoints(p, mode).size() == p.locs.size(),
            "one cutpoint flag per location");
  (void)ir::deadProcessLocals(p);
  (void)ir::localStepLocations(p);
}

namespace {

search::ExploreResult explore(search::TransitionSystem& sys, uint64_t maxStates) {
  search::ExploreOptions eo;
  eo.search = search::Strategy::Bfs;
  eo.limits.maxStates = maxStates;
  eo.deadlock = true;
  search::Explorer ex(sys, eo);
  return ex.run();
}

bool finished(const search::ExploreResult& r) { return r.outcome != search::Outcome::Incomplete; }

}  // namespace

void exploreBoth(const ir::Program& p, uint64_t maxStates) {
  if (!p.isClosed()) return;
  exec::NativeRegistry natives;
  if (!natives.checkBindings(p).empty()) return;  // a model the CLI refuses before exploring
  if (!search::CompiledSystem::eligible(p)) return;
  exec::Evaluator ev(p, natives);
  search::GenericSystem generic(p, ev, {});
  search::CompiledSystem compiled(p, ev, {});
  const search::ExploreResult g = explore(generic, maxStates);
  const search::ExploreResult c = explore(compiled, maxStates);
  if (!finished(g) || !finished(c)) return;
  require(g.outcome == c.outcome, "compiled and generic engines: different verdicts");
  if (g.outcome == search::Outcome::Exhausted) {
    require(g.states == c.states, "compiled and generic engines: different state counts");
    require(g.transitions == c.transitions,
            "compiled and generic engines: different transition counts");
  }
  if (g.outcome == search::Outcome::ErrorFound)
    require(g.error->kind == c.error->kind, "compiled and generic engines: different error kinds");
}

}  // namespace tandem::fuzz
