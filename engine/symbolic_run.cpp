#include "engine/symbolic_run.h"

#include "engine/report_types.h"

namespace tandem::engine {

std::unique_ptr<SymbolicRun> exploreSymbolic(const ir::Program& p, const Request& r,
                                             ir::CfaId entry, symbolic::Solving solving,
                                             const symbolic::MixedOptions& mixed,
                                             std::optional<uint64_t> maxCalls, bool stopAtError,
                                             const symbolic::Guidance* guidance, bool trustVerified,
                                             symbolic::EndFilter* endFilter) {
  if (p.isClosed())
    throw inputError(r.file, "symbolic execution of closed systems is not implemented yet");
  auto run = std::make_unique<SymbolicRun>(p, r);
  symbolic::ExploreOptions& eo = run->options;
  eo.entry = entry;
  eo.maxCalls = maxCalls;
  eo.solving = solving;
  eo.mixed = mixed;
  eo.mixed.seed = r.seed;
  eo.tracked = r.tracked;
  eo.search = searchOrder(r);
  eo.seed = r.seed;
  eo.budget = &run->ctx.rb.budget;
  eo.progress = &run->ctx.rb.progress;
  eo.stopAtError = stopAtError;
  eo.guidance = guidance;
  eo.trustVerified = trustVerified;
  eo.endFilter = endFilter;
  run->solver = makeSolver(r, p, run->ctx.rb.budget);
  asInputErrors(r.file, "",
                [&] { run->result = symbolic::exploreSymbolic(p, run->ctx.ev, *run->solver, eo); });
  return run;
}

}  // namespace tandem::engine
