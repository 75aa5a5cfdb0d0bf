#include "engine/request_rules.h"

#include "engine/report_types.h"
#include "mc/frontends/registry.h"

namespace tandem::engine {

symbolic::MixedOptions mixedOptions(const MixedTuning& t, symbolic::Solving solving,
                                    uint64_t seed) {
  using symbolic::Solving;
  if (t.heuristics && solving != Solving::Mixed)
    throw usageError("--heuristic applies to --solving mixed");
  if (t.paperDefaults && solving != Solving::Mixed)
    throw usageError("--paper-defaults applies to --solving mixed");
  if (t.maxTries && solving != Solving::Mixed && solving != Solving::Dart)
    throw usageError("--max-tries applies to --solving mixed and --solving dart");
  symbolic::MixedOptions m;
  // The paper's settings: random solving (Sect. 3.5) with many cheap tries, unless --heuristic
  // or --max-tries says otherwise.
  if (t.heuristics)
    m.heuristics = *t.heuristics;
  else if (t.paperDefaults)
    m.heuristics = {symbolic::Heuristic::Random};
  if (t.maxTries)
    m.maxTries = *t.maxTries;
  else if (t.paperDefaults)
    m.maxTries = symbolic::kPaperMaxTries;
  m.seed = seed;
  return m;
}

void checkRules(const CheckRequest& r) {
  (void)mixedOptions(r.mixed, r.solving.value_or(symbolic::Solving::Classic), r.seed);
  if (r.bitstateBits && r.store != search::StoreKind::Bitstate)
    throw usageError(
        "--bitstate-bits sizes the bit array of --store bitstate: give --store bitstate too");
  if (r.dotMaxStates && r.dot.empty())
    throw usageError("--dot-max-states bounds the graph of --dot FILE: give --dot too");
}

void checkRules(const ProveRequest& r) {
  if (!r.annotate.empty() && !r.cls.empty())
    throw usageError("--annotate does not apply to prove --class");
  if (!r.annotate.empty() && !frontends::frontEndFor(r.file).tandemSyntax)
    throw usageError("--annotate writes .tdm files: " + r.file + " is " +
                     std::string(frontends::frontEndFor(r.file).description));
}

void checkRules(const TestgenRequest& r) {
  if (r.dse == Dse::Off) {
    (void)mixedOptions(r.mixed, r.solving.value_or(symbolic::Solving::Mixed), r.seed);
    if (!r.target.empty()) throw usageError("--target applies to --compositional and --dse");
    if (r.maxExecutions) throw usageError("--max-executions applies to --compositional and --dse");
  } else {
    // The loop decides conditions on its runs and asks the solver for inputs: no solving mode,
    // search order or mixed-solving heuristic applies.
    if (r.solving) throw usageError("--solving does not apply to --compositional and --dse");
    if (r.mixed.heuristics || r.mixed.maxTries || r.mixed.paperDefaults)
      throw usageError(
          "--heuristic, --max-tries and --paper-defaults do not apply to --compositional and "
          "--dse");
    if (r.guide) throw usageError("--guide does not apply to --compositional and --dse");
  }
  if (r.guide && r.solving == symbolic::Solving::Dart)
    throw usageError("--guide does not apply to --solving dart");
  using abstraction::Guide;
  if (r.maxInterrupts &&
      (!r.guide || *r.guide == Guide::Ignore || *r.guide == Guide::None || *r.guide == Guide::May))
    throw usageError("--max-interrupts applies to --guide must and may-must");
}

void checkRules(const CoverRequest& r) {
  if (!r.guided && r.algo != cover::Algo::Statements)
    throw usageError("--no-guided applies to --algo statements only");
  // A path cover needs every path of each callee; a summary holds some.
  if (r.summaries && r.algo == cover::Algo::Paths)
    throw usageError(
        "--summaries applies to --algo statements and fm (a path cover needs every path of each "
        "callee)");
}

}  // namespace tandem::engine
