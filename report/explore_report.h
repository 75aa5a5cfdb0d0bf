// The parts of `check`'s report that come from the explicit search (mc/search): the error with
// its trace (replayed by the reference evaluator), the search's statistics with SPIN's summary, a
// lossy store's omission estimate, and the ranks of a distributed search.
#pragma once

#include <nlohmann/json.hpp>

#include "mc/ir/program.h"
#include "mc/search/explore/distributed_explorer.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/trace.h"
#include "mc/symbolic/initial_models.h"
#include "report/report.h"

namespace tandem::report {

// The error an explicit search found (a deadlock, or an error of the model) with its trace.
ErrorInfo explicitError(const ir::Program& p, const search::ExploreResult& r,
                        const search::Trace& tr);

// The statistics of the search into `stats`: `workers` threads, `por` whether it was reduced.
void searchStats(Stats& stats, const search::ExploreResult& res, unsigned workers, bool por);

// check's report when enumerating the initial states ends the run: an initialiser fails (an
// error), or they are too many or the solver did not say (unknown: `stopReason`, the bound that
// stopped it, or else why they are not all enumerated). `queries`: the solver's.
Report initialStatesStop(const std::string& file, const symbolic::InitialModels& initial,
                         const std::string& stopReason, uint64_t queries);

// Each rank's share (load balance) and the messages between them.
void distributedStats(Report& rep, const search::DistributedResult& d);

// What a lossy store (hash compaction, bitstate of 2^bits) adds: its estimate of the states it
// omitted, and an exhausted search that is `unknown`, not `verified`.
void lossyStore(Report& rep, const search::ExploreResult& res, search::StoreKind store,
                unsigned bits);

}  // namespace tandem::report
