#include "report/explore_report.h"

#include <cstdio>

#include "mc/search/stores/bitstate_store.h"
#include "report/trace_steps.h"

namespace tandem::report {

ErrorInfo explicitError(const ir::Program& p, const search::ExploreResult& r,
                        const search::Trace& tr) {
  ErrorInfo e;
  if (r.outcome == search::Outcome::Deadlock) {
    e.kind = "deadlock";
    e.message = "no process can move";
  } else {
    e.kind = ir::errorKindName(r.error->kind);
    e.message = r.error->message;
    e.line = r.error->loc.line;
  }
  e.trace = traceSteps(p, tr);
  if (!tr.initial.threads.empty()) e.initial = stateJson(p, tr.initial);
  if (!e.trace.empty()) {
    const auto& last = tr.steps.back();
    e.label = p.locName(last.before.threads[last.move.thread].top().pc);
  } else {
    e.label = "(initial state)";
  }
  return e;
}

// The statistics of the explicit search, with SPIN's summary: the state vector, matched states,
// the hash table's load, memory by part.
void searchStats(Stats& stats, const search::ExploreResult& res, unsigned workers, bool por) {
  stats.states = res.states;
  stats.transitions = res.transitions;
  stats.depth = res.maxDepth;
  stats.states_per_s =
      res.seconds > 0 ? static_cast<uint64_t>(res.states / res.seconds) : res.states;
  stats.store_bytes_per_state = res.states ? static_cast<double>(res.storeBytes) / res.states : 0.0;
  const search::StateStore::Memory& m = res.storeMemory;
  stats.matched_states = res.matched;
  stats.state_vector_bytes = res.states ? static_cast<double>(m.encodedBytes) / res.states : 0.0;
  stats.hash_slots = m.tableSlots;
  stats.hash_load = m.tableSlots ? static_cast<double>(res.states) / m.tableSlots : 0.0;
  stats.memory_bytes = MemoryBytes{m.stateBytes, m.recordBytes, m.tableBytes, m.parentBytes};
  stats.explore_s = res.seconds;
  stats.threads = workers;
  if (por) {
    stats.por_reduced_states = res.porReduced;
    stats.por_full_states = res.porFull;
  }
}

Report initialStatesStop(const std::string& file, const symbolic::InitialModels& initial,
                         const std::string& stopReason, uint64_t queries) {
  Report rep;
  rep.command = "check";
  rep.file = file;
  rep.verdict = Verdict::Unknown;
  if (initial.error) {
    rep.verdict = Verdict::Error;
    rep.error = ErrorInfo{ir::errorKindName(initial.error->kind),
                          "(initial state)",
                          initial.error->loc.line,
                          initial.error->message,
                          {},
                          {},
                          false};
  } else {
    rep.reason = !stopReason.empty()
                     ? stopReason
                     : "the initial values are inputs: " + initial.reason +
                           " (symbolic exploration of closed systems is not implemented yet)";
  }
  rep.stats.states = 0;
  rep.stats.transitions = 0;  // the text report prints them (closed_int_inputs_report)
  rep.stats.depth = 0;
  rep.stats.initial_states = initial.states.size();
  rep.stats.solver_queries = queries;
  return rep;
}

// Each rank's share (load balance) and the messages between them.
void distributedStats(Report& rep, const search::DistributedResult& d) {
  ExploreKeys::Distributed dist{d.transport, {}};
  uint64_t messages = 0, bytes = 0;
  for (const search::RankStats& s : d.perRank) {
    dist.ranks.push_back({s.states, s.transitions, s.messages, s.bytes, s.peakRssMb, s.seconds});
    messages += s.messages;
    bytes += s.bytes;
  }
  rep.stats.ranks = d.ranks;
  rep.stats.peak_rss_mb = d.result.peakRssMb;  // the largest rank's
  rep.stats.messages_sent = messages;
  rep.stats.bytes_sent = bytes;
  rep.explore->distributed = std::move(dist);
}

// What a lossy store's report adds: its estimate of the states it omitted, and an exhausted
// search that is `unknown`, not `verified` (a state may have been omitted).
void lossyStore(Report& rep, const search::ExploreResult& res, search::StoreKind store,
                unsigned bits) {
  const search::Omission o = res.omission.value_or(search::Omission{});
  rep.stats.omission_probability = o.probability;
  rep.stats.expected_omissions = o.expected;
  if (store == search::StoreKind::Bitstate)
    rep.explore->bitstate = ExploreKeys::BitArray{bits, search::BitstateStore::kHashes};
  if (rep.verdict != Verdict::Verified) return;
  char p[64];
  std::snprintf(p, sizeof p, "%.3g (expected omissions %.3g)", o.probability, o.expected);
  rep.verdict = Verdict::Unknown;
  rep.reason =
      "the search is exhausted, but the store is lossy: " +
      (store == search::StoreKind::Bitstate
           ? "a bitstate array of 2^" + std::to_string(bits) + " bits with 3 hash functions"
           : std::string("hash compaction (64-bit signatures)")) +
      " omitted a state with probability about " + p;
}

}  // namespace tandem::report
