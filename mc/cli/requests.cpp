#include "mc/cli/requests.h"

#include <fstream>

#include "engine/report.h"
#include "mc/dve/import.h"

namespace tandem::cli {

namespace {

std::array<bool, ir::kErrorKinds> trackedKinds(const Options& o) {
  std::array<bool, ir::kErrorKinds> t{};
  if (o.checkKinds.empty()) return ir::defaultErrorKinds();
  for (const auto& k : o.checkKinds) {
    auto kind = ir::parseErrorKind(k);
    if (!kind)
      throw engine::usageError(
          "unknown error kind '" + k +
          "' in --check (kinds: assert, invariant, index-out-of-bounds, "
          "null-deref, div-by-zero, negative-size, deadlock, float-conversion, overflow)");
    t[static_cast<size_t>(*kind)] = true;
  }
  return t;
}

// --deadlock / --no-deadlock; unset: deadlocks of closed systems are reported.
std::optional<bool> deadlockMode(const Options& o) {
  if (o.deadlock && o.noDeadlock) throw engine::usageError("--deadlock and --no-deadlock conflict");
  if (o.deadlock) return true;
  if (o.noDeadlock) return false;
  return std::nullopt;
}

void fillCommon(engine::Request& r, const Options& o, const Streams& s) {
  r.file = o.file;
  r.entry = o.entry;
  r.cls = o.cls;
  r.search = o.search;
  r.seed = o.seed;
  r.limits.maxStates = o.maxStates;
  r.limits.maxDepth = o.maxDepth;
  r.limits.timeoutSeconds = o.timeout;
  r.limits.memoryLimitMb = o.memoryLimitMb;
  r.interrupt = s.interrupt;
  r.keepMemory = s.keepMemory;
  r.progress = s.progress;
  r.diag = s.diag;
  r.quiet = o.quiet;
  r.tracked = trackedKinds(o);
  r.deadlock = deadlockMode(o);
  if (r.deadlock) r.tracked[static_cast<size_t>(ir::ErrorKind::Deadlock)] = *r.deadlock;
  r.solver.backend = o.solver;
  r.solver.timeoutMs = static_cast<unsigned>(std::min<uint64_t>(o.solverTimeoutMs, 1u << 31));
  r.solver.smtLog = o.smtLog;
  r.solver.crossCheck = o.solverCrossCheck;
  r.natives = o.natives;
}

// --heuristic, --paper-defaults and --max-tries tune one solving mode each.
symbolic::MixedOptions mixedOptions(const Options& o, symbolic::Solving solving) {
  using symbolic::Solving;
  if (o.wasGiven("heuristic") && solving != Solving::Mixed)
    throw engine::usageError("--heuristic applies to --solving mixed");
  if (o.paperDefaults && solving != Solving::Mixed)
    throw engine::usageError("--paper-defaults applies to --solving mixed");
  if (o.wasGiven("max-tries") && solving != Solving::Mixed && solving != Solving::Dart)
    throw engine::usageError("--max-tries applies to --solving mixed and --solving dart");
  symbolic::MixedOptions m;
  // The paper's settings: random solving (Sect. 3.5) with many cheap tries, unless --heuristic
  // or --max-tries says otherwise.
  const std::string list = o.paperDefaults && !o.wasGiven("heuristic") ? "random" : o.heuristic;
  std::string why;
  auto heuristics = symbolic::parseHeuristicList(list, &why);
  if (!heuristics) throw engine::usageError("--heuristic: " + why);
  m.heuristics = std::move(*heuristics);
  m.maxTries = o.paperDefaults && !o.wasGiven("max-tries") ? symbolic::kPaperMaxTries : o.maxTries;
  m.seed = o.seed;
  return m;
}

}  // namespace

engine::CheckRequest checkRequest(const Options& o, const Streams& s) {
  engine::CheckRequest r;
  fillCommon(r, o, s);
  if (o.testsOnly) r.inputs = *o.testsOnly ? engine::Inputs::Tests : engine::Inputs::Symbolic;
  r.testsFile = o.testsFile;
  if (!r.testsFile.empty()) {
    if (o.testsOnly && !*o.testsOnly)
      throw engine::usageError("--tests runs the tests of a file: it excludes --inputs symbolic");
    r.inputs = engine::Inputs::Tests;
  }
  r.maxCalls = o.maxCalls;
  r.threads = o.threads;
  if (!o.store.empty())
    r.store = o.store == "tree"       ? search::StoreKind::Tree
              : o.store == "hc"       ? search::StoreKind::HashCompaction
              : o.store == "bitstate" ? search::StoreKind::Bitstate
                                      : search::StoreKind::Exact;
  if (o.bitstateBits) {
    if (r.store != search::StoreKind::Bitstate)
      throw engine::usageError(
          "--bitstate-bits sizes the bit array of --store bitstate: give --store bitstate too");
    if (*o.bitstateBits < 8 || *o.bitstateBits > 40)
      throw engine::usageError("--bitstate-bits must be between 8 and 40 (2^B bits)");
    r.bitstateBits = static_cast<unsigned>(*o.bitstateBits);
  }
  r.solving = o.solving;
  r.mixed = mixedOptions(o, o.solving.value_or(symbolic::Solving::Classic));
  r.dot = o.dot;
  r.dotMaxStates = o.dotMaxStates;
  r.distributed = o.distributed;
  r.ranks = s.ranks;
  if (o.por && o.noPor) throw engine::usageError("--por and --no-por conflict");
  if (o.por || o.noPor) r.por = o.por;
  if (o.wasGiven("dot-max-states") && o.dot.empty())
    throw engine::usageError("--dot-max-states bounds the graph of --dot FILE: give --dot too");
  return r;
}

engine::ProveRequest proveRequest(const Options& o, const Streams& s) {
  engine::ProveRequest r;
  fillCommon(r, o, s);
  // Breadth first by default: Execute then covers the abstract states near the initial ones
  // before it goes deep into one interleaving, and fewer states are left to fabrication.
  if (!o.wasGiven("search")) r.search = search::Strategy::Bfs;
  r.cutpoints = o.cutpoints;
  r.autoPredicates = o.autoPredicates;
  if (o.wasGiven("max-predicates")) r.maxPredicates = static_cast<size_t>(o.maxPredicates);
  r.hybrid = o.hybrid || o.stall;  // --stall implies --hybrid
  r.stall = o.stall;
  r.executeBound = o.executeBound;
  r.predicatesFile = o.predicatesFile;
  r.annotate = o.annotate;
  if (!r.annotate.empty() && !r.cls.empty())
    throw engine::usageError("--annotate does not apply to prove --class");
  if (!r.annotate.empty() && isDvePath(o.file))
    throw engine::usageError("--annotate writes .tdm files: " + o.file + " is a DVE model");
  r.engine = o.engine;
  r.checkProof = o.checkProof;
  r.dot = o.dot;
  r.triage.maxStates = o.triageMaxStates;
  r.triage.maxDepth = o.triageMaxDepth;
  r.triage.maxCalls = o.triageMaxCalls;
  if (o.triageTimeout) r.triage.timeoutSeconds = *o.triageTimeout;
  return r;
}

engine::TestgenRequest testgenRequest(const Options& o, const Streams& s) {
  engine::TestgenRequest r;
  fillCommon(r, o, s);
  r.solving = o.solving.value_or(symbolic::Solving::Mixed);
  r.mixed = mixedOptions(o, r.solving);
  r.testsOut = o.testsOut;
  r.allErrors = o.allErrors;
  r.maxTests = o.maxTests;
  r.exitOnError = o.exitOnError;
  if (o.compositional && o.dse)
    throw engine::usageError("--compositional and --dse exclude each other");
  r.dse = o.compositional ? engine::Dse::Compositional
          : o.dse         ? engine::Dse::WholeProgram
                          : engine::Dse::Off;
  if (r.dse == engine::Dse::Off) {
    if (!o.target.empty())
      throw engine::usageError("--target applies to --compositional and --dse");
    if (o.maxExecutions)
      throw engine::usageError("--max-executions applies to --compositional and --dse");
  } else {
    // The loop decides conditions on its runs and asks the solver for inputs: no solving mode,
    // search order or mixed-solving heuristic applies.
    if (o.solving)
      throw engine::usageError("--solving does not apply to --compositional and --dse");
    if (o.wasGiven("heuristic") || o.wasGiven("max-tries") || o.paperDefaults)
      throw engine::usageError(
          "--heuristic, --max-tries and --paper-defaults do not apply to --compositional and "
          "--dse");
    // --search orders the choice of targets; by default Pex's fair choice (by branch, then depth).
    if (!o.wasGiven("search")) r.search = search::Strategy::Coverage;
  }
  r.target = o.target;
  if (o.maxExecutions) r.maxExecutions = *o.maxExecutions;
  r.guide = o.guide;
  if (o.guide && r.dse != engine::Dse::Off)
    throw engine::usageError("--guide does not apply to --compositional and --dse");
  if (o.guide && r.solving == symbolic::Solving::Dart)
    throw engine::usageError("--guide does not apply to --solving dart");
  if (o.maxInterrupts) {
    if (!o.guide || *o.guide == abstraction::Guide::Ignore ||
        *o.guide == abstraction::Guide::None || *o.guide == abstraction::Guide::May)
      throw engine::usageError("--max-interrupts applies to --guide must and may-must");
    if (*o.maxInterrupts > UINT32_MAX)
      throw engine::usageError("--max-interrupts " + std::to_string(*o.maxInterrupts) +
                               " is too large");
    r.maxInterrupts = static_cast<uint32_t>(*o.maxInterrupts);
  }
  return r;
}

engine::CoverRequest coverRequest(const Options& o, const Streams& s) {
  engine::CoverRequest r;
  fillCommon(r, o, s);
  if (o.unwind > UINT32_MAX)
    throw engine::usageError("--unwind " + std::to_string(o.unwind) + " is too large");
  r.unwind = static_cast<uint32_t>(o.unwind);
  r.algo = o.algo;
  r.testsOut = o.testsOut;
  r.proveInfeasible = o.proveInfeasible;
  r.guided = !o.noGuided;
  if (o.noGuided && r.algo != cover::Algo::Statements)
    throw engine::usageError("--no-guided applies to --algo statements only");
  r.summaries = o.summaries;
  // A path cover needs every path of each callee; a summary holds some.
  if (o.summaries && r.algo == cover::Algo::Paths)
    throw engine::usageError(
        "--summaries applies to --algo statements and fm (a path cover needs every path of each "
        "callee)");
  return r;
}

engine::RunRequest runRequest(const Options& o, const Streams& s) {
  engine::RunRequest r;
  fillCommon(r, o, s);
  r.args = o.args;
  r.steps = o.steps;
  return r;
}

engine::ReplayRequest replayRequest(const Options& o, const Streams& s) {
  engine::ReplayRequest r;
  fillCommon(r, o, s);
  r.reportFile = o.reportFile;
  return r;
}

engine::ExportChcRequest exportChcRequest(const Options& o, const Streams& s) {
  engine::ExportChcRequest r;
  fillCommon(r, o, s);
  r.cutpoints = o.cutpoints;
  r.output = o.output;
  return r;
}

}  // namespace tandem::cli
