#include "engine/request_rules.h"

#include "engine/report_types.h"
#include "mc/frontends/registry.h"
#include "mc/search/stores/bitstate_store.h"

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

namespace {

// --distributed applies to the explicit search of closed systems in the orders each rank can
// keep on its own.
void requireDistributable(const CheckRequest& r) {
  if (!r.entry.empty() || !r.cls.empty())
    throw usageError("--distributed applies to closed systems (not to --entry or --class)");
  if (!r.dot.empty()) throw usageError("--distributed does not apply to --dot");
  if (searchOrder(r) != search::Strategy::Dfs && searchOrder(r) != search::Strategy::Bfs)
    throw usageError("--distributed applies to --search dfs and bfs (each rank's own order)");
}

// A store other than exact runs in the parallel explorer (even on one thread), depth-first only
// when it keeps no parents; the lossy ones cannot give states back for --dot either.
void requireStoreApplies(const CheckRequest& r, search::StoreKind store) {
  if (store == search::StoreKind::Exact) return;
  const std::string flag = std::string("--store ") + search::storeKindName(store);
  if (!r.dot.empty()) throw usageError("--dot draws the graph of the exact store: not " + flag);
  if (searchOrder(r) != search::Strategy::Dfs)
    throw usageError(flag +
                     " keeps no parent pointers: it searches depth-first (--search dfs), keeping "
                     "the path to each state instead");
}

// --store, --threads and --por choose among explicit searches of closed systems.
void requireClosedOnlyOptions(const CheckRequest& r) {
  if (r.cls.empty() && r.entry.empty()) return;
  if (r.store) throw usageError("--store applies to closed systems (not --entry or --class)");
  if (r.threads && *r.threads > 1)
    throw usageError("--threads applies to closed systems (not --entry or --class)");
  if (r.por)
    throw usageError(std::string(*r.por ? "--por" : "--no-por") +
                     " applies to closed systems (check without --entry or --class)");
}

}  // namespace

void checkRules(const CheckRequest& r) {
  (void)mixedOptions(r.mixed, r.solving.value_or(symbolic::Solving::Classic), r.seed);
  if (r.bitstateBits && r.store != search::StoreKind::Bitstate)
    throw usageError(
        "--bitstate-bits sizes the bit array of --store bitstate: give --store bitstate too");
  if (r.dotMaxStates && r.dot.empty())
    throw usageError("--dot-max-states bounds the graph of --dot FILE: give --dot too");
  if (r.distributed) requireDistributable(r);
  requireClosedOnlyOptions(r);
  requireStoreApplies(r, r.store.value_or(search::StoreKind::Exact));
}

// --store bitstate: the array's size, log2 of its bits. Given, it must fit --memory-limit;
// by default SPIN's 2^27 bits (16 MiB), or less to fit half the limit.
unsigned bitstateBits(const CheckRequest& r) {
  using search::BitstateStore;
  const auto& mb = r.limits.memoryLimitMb;
  const auto fits = [&](unsigned b, uint64_t bytes) {
    return BitstateStore::arrayBytes(b) < bytes;
  };
  if (r.bitstateBits) {
    if (mb && !fits(*r.bitstateBits, *mb << 20))
      throw usageError("--bitstate-bits " + std::to_string(*r.bitstateBits) + ": the array (" +
                       std::to_string(BitstateStore::arrayBytes(*r.bitstateBits) >> 20) +
                       " MiB) does not fit --memory-limit " + std::to_string(*mb));
    return *r.bitstateBits;
  }
  unsigned b = BitstateStore::kDefaultBits;
  while (mb && b > BitstateStore::kMinBits && !fits(b, (*mb << 20) / 2)) --b;
  return b;
}

void checkRules(const ProveRequest& r) {
  if (r.maxRefinements && r.refine == false)
    throw usageError("--max-refinements does not apply with --no-refine");
  if (r.refine == true && !r.cls.empty())
    throw usageError("--refine does not apply to prove --class (not implemented yet)");
  if (r.refine == true && !r.annotate.empty())
    throw usageError("--refine does not apply with --annotate (not implemented yet)");
  if (!r.annotate.empty() && !r.cls.empty())
    throw usageError("--annotate does not apply to prove --class");
  if (!r.certificate.empty() && !r.cls.empty())
    throw usageError("--certificate does not apply to prove --class (not implemented yet)");
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
