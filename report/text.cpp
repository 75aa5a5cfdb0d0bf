#include "report/text.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace tandem::report {

namespace {

using nlohmann::json;

void verdictLine(std::ostream& os, const Report& r) {
  os << "verdict: " << verdictName(r.verdict);
  if (!r.reason.empty()) os << " (" << r.reason << ")";
  os << "\n";
}

void errorHead(std::ostream& os, const ErrorInfo& e) {
  os << "error: " << e.kind << " at " << e.label;
  if (e.line) os << " (line " << e.line << ")";
  if (!e.message.empty()) os << ": " << e.message;
  os << "\n";
}

// A value of a JSON state as the trace prints values: `[1, 0]`, `red`, `null`.
std::string valueText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_array()) return v.dump();
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + valueText(v[i]);
  return out + "]";
}

std::string valuesText(const json& state) {
  std::string out;
  for (const auto& [k, v] : state.items())
    out += (out.empty() ? "" : ", ") + k + " = " + valueText(v);
  return out.empty() ? "(no variables)" : out;
}

// --trace-format spin: as `spin -t -p` prints a trail (step, process number and name, file:line,
// the state before, the statement in brackets), the error, where the trail ends, and the final
// values and locations.
void spinTrace(std::ostream& os, const ErrorInfo& e, const std::string& file) {
  for (const auto& s : e.trace) {
    os << std::setw(3) << s.step + 1 << ":\tproc " << std::setw(2) << s.thread << " ("
       << (s.process.empty() ? "main" : s.process) << ":1) " << file << ":" << s.line << " (state "
       << s.label << ")\t[" << s.statement << "]\n";
  }
  os << "spin: " << file << ":" << e.line << ", Error: " << e.message << "\n";
  os << "spin: trail ends after " << e.trace.size() << " steps\n";
  const json& last = e.trace.empty() ? e.initial : e.trace.back().state;
  if (last.is_object())
    for (const auto& [k, v] : last.items()) os << "\t\t" << k << " = " << valueText(v) << "\n";
  if (!e.trace.empty() && e.trace.back().locations.is_object()) {
    os << "#processes: " << e.trace.back().locations.size() << "\n";
    for (const auto& [proc, loc] : e.trace.back().locations.items())
      os << std::setw(3) << e.trace.size() << ":\tproc " << proc << " (state "
         << loc.get<std::string>() << ")\n";
  }
}

// The trace as text: where it starts, each step with its process, its location and source line,
// the statement and what it changed, and where the processes end. --trace-format json: one JSON
// object per step (JSON Lines); spin: as spin -t -p.
void errorTrace(std::ostream& os, const ErrorInfo& e, const TextOptions& o, const std::string& file,
                bool always = false) {
  if (!o.trace && !always) {
    os << "(" << e.trace.size() << " steps; --trace prints them)\n";
    return;
  }
  if (o.traceFormat == TraceFormat::Json) {
    for (const auto& s : e.trace) os << traceStepJson(s).dump() << "\n";
    return;
  }
  if (o.traceFormat == TraceFormat::Spin) {
    spinTrace(os, e, file);
    return;
  }
  if (e.initial.is_object() && !e.initial.empty())
    os << (e.initialFabricated ? "fabricated state: " : "initial state: ") << valuesText(e.initial)
       << "\n";
  for (const auto& s : e.trace) printTraceStep(os, s);
  if (e.trace.empty()) os << "(the initial state violates it: no step)\n";
  if (!e.trace.empty() && e.trace.back().locations.is_object() &&
      !e.trace.back().locations.empty()) {
    std::string where;
    for (const auto& [proc, loc] : e.trace.back().locations.items())
      where += (where.empty() ? "" : ", ") + proc + " at " + loc.get<std::string>();
    os << "final locations: " << where << "\n";
  }
}

// Numbers as the stream prints them (seconds as 0.012405, not 0.0124051234).
template <class N>
std::string num(const N& n) {
  return numText(std::optional<N>(n));
}
template <class N>
std::string num(const std::optional<N>& n) {
  return numText(n);
}

template <class T>
std::string listText(const std::vector<T>& v) {
  return nlohmann::json(v).dump();
}

// --stats in text: SPIN's summary for an explicit-state search, else every counter by name.
void statsText(std::ostream& os, const Report& r) {
  const Stats& st = r.stats;
  auto mb = [](uint64_t bytes) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(3) << static_cast<double>(bytes) / (1024.0 * 1024.0);
    return s.str();
  };
  if (st.matched_states) {
    const MemoryBytes m = st.memory_bytes.value_or(MemoryBytes{});
    os << "State-vector " << num(st.state_vector_bytes) << " byte (mean), depth reached "
       << num(st.depth) << "\n"
       << std::setw(12) << num(st.states) << " states, stored\n"
       << std::setw(12) << num(st.matched_states) << " states, matched\n"
       << std::setw(12) << num(st.transitions) << " transitions\n";
    const std::string store = r.explore ? r.explore->store : "exact";
    if (store == "bitstate" && r.explore->bitstate)  // --store bitstate: the array's bits
      os << "bit array: 2^" << r.explore->bitstate->log2Bits << " bits, "
         << r.explore->bitstate->hashes << " hash functions\n";
    else
      os << "hash table: " << num(st.hash_slots) << " slots, load " << num(st.hash_load) << "\n";
    os << "memory usage (MB):\n";
    if (store == "tree")  // --store tree's parts
      os << std::setw(12) << mb(m.states) << " roots (the states)\n"
         << std::setw(12) << mb(m.records) << " tree nodes\n"
         << std::setw(12) << mb(m.hash_table) << " node table\n";
    else if (store == "hc" || store == "bitstate")  // lossy: the table is all there is
      os << std::setw(12) << mb(m.hash_table)
         << (store == "hc" ? " hash table (64-bit signatures)\n" : " bit array\n")
         << "omitted states (estimate): " << num(st.expected_omissions) << " expected, probability "
         << num(st.omission_probability) << "\n";
    else
      os << std::setw(12) << mb(m.states) << " state vectors\n"
         << std::setw(12) << mb(m.records) << " record headers and index\n"
         << std::setw(12) << mb(m.hash_table) << " hash table\n"
         << std::setw(12) << mb(m.parents) << " parent pointers (counterexamples)\n";
    os << "peak resident set: " << num(st.peak_rss_mb) << " MB\n"
       << "time: " << num(st.explore_s) << " s exploring, " << num(st.time_s) << " s in all, "
       << num(st.states_per_s) << " states/s\n";
    if (st.threads.value_or(0) > 1)
      os << "threads: " << num(st.threads) << " (sharing one hash table)\n";
    if (st.por_reduced_states)
      os << "partial-order reduction: " << num(st.por_reduced_states) << " states reduced, "
         << num(st.por_full_states) << " fully expanded\n";
    return;
  }
  for (const auto& [k, v] : st.texts()) os << k << ": " << v << "\n";
  // Mixed solving: the heuristics the counters above come from, as listed.
  if (r.symbolic && r.symbolic->heuristic) os << "heuristic: " << *r.symbolic->heuristic << "\n";
}

// check --distributed: each rank's states (the load balance) and what they sent each other.
void distributedText(std::ostream& os, const Report& r, const ExploreKeys::Distributed& d) {
  os << d.ranks.size() << (d.ranks.size() == 1 ? " rank (" : " ranks (") << d.transport
     << "), states";
  std::string sep = " ";
  for (const ExploreKeys::Rank& k : d.ranks) {
    os << sep << k.states;
    sep = " + ";
  }
  os << "; " << num(r.stats.messages_sent) << " messages, " << num(r.stats.bytes_sent)
     << " bytes sent\n";
}

void checkText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const Stats& st = r.stats;
  if (!r.symbolic) {
    if (r.error) {
      errorHead(os, *r.error);
      errorTrace(os, *r.error, o, r.file);
    }
    os << num(st.states) << " states, " << num(st.transitions) << " transitions, depth "
       << num(st.depth) << ", " << num(st.time_s) << " s\n";
    if (r.explore && r.explore->distributed) distributedText(os, r, *r.explore->distributed);
    return;
  }
  if (r.error) {
    errorHead(os, *r.error);
    os << "inputs: " << r.symbolic->inputs.value_or(nlohmann::json(nullptr)).dump() << "\n";
    if (r.symbolic->calls) {
      os << "calls:";
      std::string sep = " ";
      for (const SymbolicKeys::Call& c : *r.symbolic->calls) {
        os << sep << c.call;
        sep = "; ";
      }
      os << "\n";
    }
    errorTrace(os, *r.error, o, r.file);
  }
  os << num(st.states) << " symbolic states, " << num(st.paths) << " paths, "
     << num(st.solver_queries) << " solver queries, " << num(st.time_s) << " s\n";
}

// --auto-predicates: one line per scope ("SCOPE: PREDICATE" in the report).
void defaultPredicatesText(std::ostream& os, const std::vector<std::string>& preds) {
  os << "default predicates (" << preds.size() << "):\n";
  std::string scope;
  for (const std::string& s : preds) {
    const size_t colon = s.find(": ");
    const std::string sc = s.substr(0, colon), text = s.substr(colon + 2);
    os << (sc == scope ? ", " : (scope.empty() ? "  " : "\n  ") + sc + ": ") << text;
    scope = sc;
  }
  if (!scope.empty()) os << "\n";
}

// --stats: where the dead-variable reduction leaves predicates out.
void droppedPredicatesText(std::ostream& os, const std::vector<std::string>& dropped) {
  if (dropped.empty()) return;
  os << "predicates left out where they read a dead variable (" << dropped.size() << "):\n";
  for (const std::string& d : dropped) os << "  " << d << "\n";
}

// --refine: the rounds, and the predicates each spurious path gave.
void refinementText(std::ostream& os, const RefinementKeys& k) {
  size_t found = 0;
  for (const RefinementRow& s : k.steps) found += s.predicates.size();
  if (!k.afterDefaults.empty()) os << k.afterDefaults << ": refinement from none\n";
  os << "refinement: " << k.rounds << (k.rounds == 1 ? " round, " : " rounds, ") << found
     << " predicates found\n";
  for (const RefinementRow& s : k.steps) {
    os << "  round " << s.round << ", " << s.error << " (abstract path of " << s.length
       << " steps): ";
    for (size_t i = 0; i < s.predicates.size(); ++i) os << (i ? "; " : "") << s.predicates[i];
    os << "\n";
  }
  if (!k.stopped.empty()) os << "  refinement stopped: " << k.stopped << "\n";
}

void proveText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const ProveKeys none;
  const ProveKeys& k = r.prove ? *r.prove : none;
  if (k.defaultPredicates) defaultPredicatesText(os, *k.defaultPredicates);
  if (k.refinement) refinementText(os, *k.refinement);
  const Stats& st = r.stats;
  if (r.verdict == Verdict::Proved) {
    os << "invariant (" << num(st.abstract_states) << " abstract states):\n";
    if (k.invariant)
      for (const auto& [loc, f] : *k.invariant) os << "  " << loc << ": " << f << "\n";
    if (k.classInvariant)
      os << "class invariant of " << k.cls.value_or("") << ": " << *k.classInvariant << "\n";
  }
  if (r.verdict == Verdict::PotentialError)
    os << "(reached from a fabricated state; no execution from an initial state reached it "
          "within the triage bounds)\n";
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
  }
  const std::vector<PotentialErrorRow> noRows;
  const std::vector<PotentialErrorRow>& potential = k.potentialErrors ? *k.potentialErrors : noRows;
  // A single potential error that triage reproduced is the error shown above.
  if (!potential.empty() && (r.verdict != Verdict::Error || potential.size() > 1)) {
    os << "potential errors (" << potential.size() << "), each from the first abstract state it "
       << "was reached from, and its triage:\n";
    for (const PotentialErrorRow& e : potential) {
      os << "  " << e.kind;
      if (e.line != 0)  // a deadlock has no source position
        os << " at line " << e.line << ", column " << e.column;
      os << ", from " << (e.from.empty() ? "" : e.from.front().location) << ": "
         << (e.from.empty() ? "" : e.from.front().state) << "\n    " << e.triage << "\n";
    }
  }
  if (auto c = r.extra.find("certificate"); c != r.extra.end() && c->is_string())
    os << "certificate: " << c->get<std::string>() << "\n";  // --certificate
  if (k.annotations) {                                       // --annotate
    os << "annotations written to " << k.annotatedFile << ":\n";
    for (const fabricate::AnnotatedAssertion& a : *k.annotations)
      os << "  line " << a.line << ": " << a.assertion << " -> " << fabricate::resultName(a.result)
         << " (verified " << a.premise << ")\n";
  }
  os << num(st.abstract_states) << " abstract states, " << num(st.fabricated_states)
     << " fabricated states, " << num(st.solver_queries) << " solver queries, "
     << num(st.executions) << " executions, " << num(st.states) << " concrete states, "
     << num(st.time_s) << " s\n";
}

// `test I: {inputs} -> result`, and the error a failing test raised.
void testLines(std::ostream& os, const std::vector<TestRecord>& tests, bool withError) {
  for (size_t i = 0; i < tests.size(); ++i) {
    os << "test " << i << ": " << tests[i].inputs.dump() << " -> " << tests[i].result;
    if (withError && tests[i].error)
      os << " (" << tests[i].error->kind << " at line " << tests[i].error->line << ")";
    os << "\n";
  }
}

void testgenText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const TestsKeys noTests;
  const TestsKeys& t = r.tests ? *r.tests : noTests;
  testLines(os, t.tests, true);
  if (r.error && o.trace) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file, true);
  }
  const Stats& st = r.stats;
  if (st.duplicate_errors.value_or(0) > 0)
    os << num(st.duplicate_errors)
       << " more failing paths repeat an error above (one test per distinct error; "
          "--all-errors keeps them)\n";
  const TestsKeys::Coverage cov = t.coverage.value_or(TestsKeys::Coverage{});
  os << "coverage: " << cov.linesCovered << "/" << cov.linesTotal << " lines, "
     << cov.branchesCovered << "/" << cov.branchesTotal << " branches";
  if (!cov.uncoveredLines.empty())
    os << " (lines not covered: " << listText(cov.uncoveredLines) << ")";
  os << "\n";
  if (!t.coveredLabels.empty() || !t.uncoveredLabels.empty())
    os << "labels covered: " << listText(t.coveredLabels)
       << ", uncovered: " << listText(t.uncoveredLabels) << "\n";
  if (r.testgen && r.testgen->mode) {  // --compositional, --dse
    const TestgenKeys& g = *r.testgen;
    if (!g.unreachableTargets.empty())
      os << "unreachable: " << unreachableJson(g.unreachableTargets).dump() << "\n";
    os << num(st.executions) << " executions (" << *g.mode;
    if (!g.summarised.empty()) os << ", summarised: " << listText(g.summarised);
    os << "), " << num(st.lazy_queries) << " lazy and " << num(st.relevant_queries)
       << " relevant queries, " << num(st.mispredictions) << " mispredictions, "
       << num(st.divergences) << " divergences, " << num(st.time_s) << " s\n";
    return;
  }
  if (r.testgen && r.testgen->guide)  // ICSE'16's counts
    os << "guide " << *r.testgen->guide << ": " << num(st.non_redundant_tests)
       << " non-redundant and " << num(st.redundant_tests) << " redundant tests, "
       << num(st.failing) << " failing, " << num(st.pruned) << " executions pruned, "
       << num(st.interrupts) << " interrupted\n";
  os << t.tests.size() << " tests, " << num(st.paths) << " paths, " << num(st.divergences)
     << " divergences, " << num(st.undecided) << " undecided, " << num(st.solver_queries)
     << " solver queries, " << num(st.time_s) << " s ("
     << (r.symbolic ? r.symbolic->solving : std::string()) << ")\n";
}

void coverText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const TestsKeys noTests;
  const TestsKeys& t = r.tests ? *r.tests : noTests;
  const CoverKeys noCover;
  const CoverKeys& c = r.cover ? *r.cover : noCover;
  testLines(os, t.tests, false);
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
  }
  const bool complete = r.verdict != Verdict::Unknown;
  os << "covered: " << listText(t.coveredLabels);
  if (complete)
    os << ", infeasible within the bound: " << listText(c.infeasibleLabels) << " (lines "
       << listText(c.infeasibleLines) << ")\n";
  else
    os << ", not covered: " << listText(t.uncoveredLabels) << "\n";
  if (c.provedInfeasible)
    for (const cover::InfeasibleAnswer& a : *c.provedInfeasible) {
      os << (!a.label.empty() ? a.label : "line " + std::to_string(a.line)) << ": "
         << cover::resultName(a.result);
      if (a.result == cover::InfeasibleAnswer::Result::Infeasible)
        os << " for every unwinding (proved)";
      else
        os << " (prove: " << (a.prove.empty() ? std::string("not run") : a.prove) << ")";
      os << "\n";
    }
  const Stats& st = r.stats;
  os << t.tests.size() << " tests, ";
  if (c.algo == "paths") os << num(st.paths) << " paths, ";
  os << num(st.solver_queries) << " solver queries, " << num(st.locations) << " locations ("
     << num(st.unwound_locations) << " unwound), " << num(st.time_s) << " s (" << c.algo
     << ", unwind " << c.unwind << ")\n";
}

void runText(std::ostream& os, const Report& r) {
  if (r.error) {
    os << "error: " << r.error->kind << " at " << r.error->label;
    if (r.error->line) os << " (line " << r.error->line << ")";
    os << ": " << r.error->message << "\n";
  } else {
    os << r.reason << " after " << num(r.stats.steps) << " steps\n";
  }
}

void exportText(std::ostream& os, const Report& r) {
  const ExportKeys none;
  const ExportKeys& e = r.exported ? *r.exported : none;
  if (e.smtlib) {
    os << *e.smtlib;
    if (!r.reason.empty()) verdictLine(os, r);  // only when incomplete, after the clauses
    return;
  }
  if (!r.reason.empty()) verdictLine(os, r);
  const Stats& st = r.stats;
  os << e.output.value_or("") << ": " << num(st.predicates) << " predicates, " << num(st.clauses)
     << " clauses (" << num(st.init_clauses) << " initial, " << num(st.step_clauses) << " steps, "
     << num(st.query_clauses) << " queries)\n";
}

// replay: the error it reproduced (with the trace it took), or the first step that differs and
// the moves possible there.
void replayText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const ReplayKeys none;
  const ReplayKeys& k = r.replay ? *r.replay : none;
  const std::string& saved = k.report;
  const std::string cmd = k.replayedCommand.value_or("");
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
    const std::string n = num(k.steps);
    os << "reproduced: " << (n == "1" ? "the 1 step" : "the " + n + " steps") << " of " << saved
       << " (" << cmd << ")" << (r.error->initialFabricated ? ", from its fabricated state" : "")
       << "\n";
    return;
  }
  if (!k.difference) return;
  const ReplayKeys::Difference& d = *k.difference;
  os << "not reproduced: " << num(k.replayedSteps) << " of " << num(k.steps) << " steps of "
     << saved << " (" << cmd << ") replayed\n";
  if (d.expected) os << "step " << d.step << " saved: " << *d.expected << "\n";
  if (!d.possible.empty()) {
    os << "moves possible there:\n";
    for (const std::string& m : d.possible) os << "  " << m << "\n";
  }
}

}  // namespace

void printTraceStep(std::ostream& os, const TraceStep& s) {
  os << std::setw(5) << s.step << "  ";
  if (!s.process.empty()) os << s.process << "  ";
  os << s.label;
  if (s.line) os << " (line " << s.line << ")";
  os << ": " << s.statement;
  if (!s.changed.empty()) {
    os << "    {";
    bool first = true;
    for (auto& [k, v] : s.changed) os << (first ? "" : ", ") << k << " = " << v, first = false;
    os << "}";
  }
  os << '\n';
}

void printText(std::ostream& os, const Report& r, const TextOptions& o) {
  if (r.command == "check") {
    checkText(os, r, o);
  } else if (r.command == "prove") {
    proveText(os, r, o);
  } else if (r.command == "testgen") {
    testgenText(os, r, o);
  } else if (r.command == "cover") {
    coverText(os, r, o);
  } else if (r.command == "run") {
    runText(os, r);
  } else if (r.command == "replay") {
    replayText(os, r, o);
  } else if (r.command == "export-chc") {
    exportText(os, r);
    if (o.stats && r.exported && r.exported->smtlib) {  // the clauses are on stdout: comments
      std::ostringstream text;
      statsText(text, r);
      std::istringstream lines(text.str());
      for (std::string l; std::getline(lines, l);) os << "; " << l << "\n";
      return;
    }
  } else if (r.command == "ir") {
    os << r.ir.value_or("");
    return;
  }
  if (o.stats && r.prove) droppedPredicatesText(os, r.prove->droppedPredicates);
  if (o.stats) statsText(os, r);
}

}  // namespace tandem::report
