// The `stats` object of a report, typed: every counter any command reports is declared once in
// the lists below, which give the struct its fields and the JSON and text printers their keys.
// A field left empty is not reported (the JSON report still has CLI.md's common keys, as 0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tandem::report {

// clang-format off
// Counts (unsigned integers), by their key in the report (docs/json.md).
#define TANDEM_REPORT_COUNTERS(X) \
  X(abstract_states) X(arcs) X(automata) X(bounds_hit) X(bytes_sent) X(call_bound_cuts)       \
  X(calls) X(clauses) X(completed_calls) X(concrete_refutations) X(concretizations)           \
  X(cut_executions) X(dangling_left) X(dart_mispredictions) X(dart_restarts) X(dart_runs)     \
  X(depth) X(divergences) X(dropped_predicates) X(duplicate_errors) X(edges) X(executions) X(fabricated_states)     \
  X(failing) X(hash_slots) X(heuristic_successes) X(infeasible_locations) X(init_clauses)     \
  X(initial_states) X(interrupts) X(invariance_checks) X(lazy_queries) X(lazy_sat)            \
  X(location_copies) X(locations) X(matched_states) X(max_arity) X(may_conditions)            \
  X(messages_sent) X(mispredictions) X(mixed_checks) X(mixed_exhausted) X(mixed_tries)        \
  X(must_conditions) X(non_redundant_tests) X(paths) X(peak_rss_mb) X(por_full_states)        \
  X(por_reduced_states) X(predicates) X(pruned) X(query_clauses) X(random_brackets) X(ranks)  \
  X(redundant_tests) X(refinements) X(relevant_queries) X(relevant_sat) X(resumed)            \
  X(solver_queries) X(solver_unknown) X(stalled_executions) X(states) X(states_per_s)         \
  X(step_clauses) X(steps) X(summarised_procedures) X(summary_pairs) X(tests) X(threads)      \
  X(transitions) X(tree_nodes) X(undecided) X(unknown_answers) X(unwinding_cuts)              \
  X(unwound_locations)

// Reals: seconds, ratios, estimates.
#define TANDEM_REPORT_REALS(X) \
  X(expected_omissions) X(explore_s) X(hash_load) X(omission_probability) X(solver_time_s)  \
  X(state_vector_bytes) X(store_bytes_per_state) X(time_s)
// clang-format on

// The explicit search's memory by part (SPIN's summary).
struct MemoryBytes {
  uint64_t states = 0, records = 0, hash_table = 0, parents = 0;
};

struct Stats {
#define TANDEM_REPORT_COUNTER_FIELD(name) std::optional<uint64_t> name;
  TANDEM_REPORT_COUNTERS(TANDEM_REPORT_COUNTER_FIELD)
#undef TANDEM_REPORT_COUNTER_FIELD
#define TANDEM_REPORT_REAL_FIELD(name) std::optional<double> name;
  TANDEM_REPORT_REALS(TANDEM_REPORT_REAL_FIELD)
#undef TANDEM_REPORT_REAL_FIELD
  std::optional<MemoryBytes> memory_bytes;

  // The JSON object, with CLI.md's common keys (states, transitions, ..., time_s, peak_rss_mb)
  // always present, 0 when the command has nothing to count.
  nlohmann::json toJson() const;
  // The reported counters as (key, value as text), by key: what --stats prints.
  std::vector<std::pair<std::string, std::string>> texts() const;
};

// A count or a time as the text report prints it: integers whole, reals as the stream does
// (0.012405), an absent one as 0.
std::string numText(const std::optional<uint64_t>& n);
std::string numText(const std::optional<double>& x);

}  // namespace tandem::report
