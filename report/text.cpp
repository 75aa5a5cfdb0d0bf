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
std::string num(const json& j) {
  if (j.is_number_float()) {
    std::ostringstream os;
    os << j.get<double>();
    return os.str();
  }
  return j.is_null() ? "0" : j.dump();
}

// --stats in text: SPIN's summary for an explicit-state search, else every counter by name.
void statsText(std::ostream& os, const Report& r) {
  const json& st = r.stats;
  auto mb = [](const json& bytes) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(3) << bytes.get<double>() / (1024.0 * 1024.0);
    return s.str();
  };
  if (st.contains("matched_states")) {
    const json& m = st["memory_bytes"];
    os << "State-vector " << num(st["state_vector_bytes"]) << " byte (mean), depth reached "
       << num(st["depth"]) << "\n"
       << std::setw(12) << num(st["states"]) << " states, stored\n"
       << std::setw(12) << num(st["matched_states"]) << " states, matched\n"
       << std::setw(12) << num(st["transitions"]) << " transitions\n";
    const std::string store = r.extra.value("store", "exact");
    if (store == "bitstate")  // --store bitstate: the slots are the array's bits
      os << "bit array: 2^" << num(r.extra["bitstate"]["log2_bits"]) << " bits, "
         << num(r.extra["bitstate"]["hashes"]) << " hash functions\n";
    else
      os << "hash table: " << num(st["hash_slots"]) << " slots, load " << num(st["hash_load"])
         << "\n";
    os << "memory usage (MB):\n";
    if (store == "tree")  // --store tree's parts
      os << std::setw(12) << mb(m["states"]) << " roots (the states)\n"
         << std::setw(12) << mb(m["records"]) << " tree nodes\n"
         << std::setw(12) << mb(m["hash_table"]) << " node table\n";
    else if (store == "hc" || store == "bitstate")  // lossy: the table is all there is
      os << std::setw(12) << mb(m["hash_table"])
         << (store == "hc" ? " hash table (64-bit signatures)\n" : " bit array\n")
         << "omitted states (estimate): " << num(st["expected_omissions"])
         << " expected, probability " << num(st["omission_probability"]) << "\n";
    else
      os << std::setw(12) << mb(m["states"]) << " state vectors\n"
         << std::setw(12) << mb(m["records"]) << " record headers and index\n"
         << std::setw(12) << mb(m["hash_table"]) << " hash table\n"
         << std::setw(12) << mb(m["parents"]) << " parent pointers (counterexamples)\n";
    os << "peak resident set: " << num(st["peak_rss_mb"]) << " MB\n"
       << "time: " << num(st["explore_s"]) << " s exploring, " << num(st["time_s"]) << " s in all, "
       << num(st["states_per_s"]) << " states/s\n";
    if (st.contains("threads") && st["threads"].get<uint64_t>() > 1)
      os << "threads: " << num(st["threads"]) << " (sharing one hash table)\n";
    if (st.contains("por_reduced_states"))
      os << "partial-order reduction: " << num(st["por_reduced_states"]) << " states reduced, "
         << num(st["por_full_states"]) << " fully expanded\n";
    return;
  }
  for (const auto& [k, v] : st.items())
    os << k << ": " << (v.is_object() ? v.dump() : num(v)) << "\n";
  // Mixed solving: the heuristics the counters above come from, as listed.
  if (r.extra.is_object() && r.extra.contains("heuristic") && r.extra["heuristic"].is_string())
    os << "heuristic: " << r.extra["heuristic"].get<std::string>() << "\n";
}

// check --distributed: each rank's states (the load balance) and what they sent each other.
void distributedText(std::ostream& os, const Report& r) {
  const json& d = r.extra["distributed"];
  os << d["ranks"].size() << (d["ranks"].size() == 1 ? " rank (" : " ranks (")
     << d["transport"].get<std::string>() << "), states";
  std::string sep = " ";
  for (const json& k : d["ranks"]) {
    os << sep << num(k["states"]);
    sep = " + ";
  }
  os << "; " << num(r.stats["messages_sent"]) << " messages, " << num(r.stats["bytes_sent"])
     << " bytes sent\n";
}

void checkText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const json& st = r.stats;
  if (r.extra.value("engine", "") != "symbolic") {
    if (r.error) {
      errorHead(os, *r.error);
      errorTrace(os, *r.error, o, r.file);
    }
    os << num(st["states"]) << " states, " << num(st["transitions"]) << " transitions, depth "
       << num(st["depth"]) << ", " << num(st["time_s"]) << " s\n";
    if (r.extra.contains("distributed")) distributedText(os, r);
    return;
  }
  if (r.error) {
    errorHead(os, *r.error);
    os << "inputs: " << r.extra["inputs"].dump() << "\n";
    if (r.extra.contains("calls")) {
      os << "calls:";
      std::string sep = " ";
      for (const auto& c : r.extra["calls"]) {
        os << sep << c["call"].get<std::string>();
        sep = "; ";
      }
      os << "\n";
    }
    errorTrace(os, *r.error, o, r.file);
  }
  os << num(st["states"]) << " symbolic states, " << num(st["paths"]) << " paths, "
     << num(st["solver_queries"]) << " solver queries, " << num(st["time_s"]) << " s\n";
}

// --auto-predicates: one line per scope ("SCOPE: PREDICATE" in the report).
void defaultPredicatesText(std::ostream& os, const json& preds) {
  os << "default predicates (" << preds.size() << "):\n";
  std::string scope;
  for (const json& x : preds) {
    const std::string s = x.get<std::string>();
    const size_t colon = s.find(": ");
    const std::string sc = s.substr(0, colon), text = s.substr(colon + 2);
    os << (sc == scope ? ", " : (scope.empty() ? "  " : "\n  ") + sc + ": ") << text;
    scope = sc;
  }
  if (!scope.empty()) os << "\n";
}

void proveText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  if (r.extra.contains("default_predicates"))
    defaultPredicatesText(os, r.extra["default_predicates"]);
  const json& st = r.stats;
  if (r.verdict == Verdict::Proved) {
    os << "invariant (" << num(st["abstract_states"]) << " abstract states):\n";
    const std::string inv = r.extra.value("invariant", "");
    size_t at = 0;
    while (at < inv.size()) {
      size_t nl = inv.find('\n', at);
      if (nl == std::string::npos) nl = inv.size();
      os << "  " << inv.substr(at, nl - at) << "\n";
      at = nl + 1;
    }
    if (r.extra.contains("class_invariant"))
      os << "class invariant of " << r.extra["class"].get<std::string>() << ": "
         << r.extra["class_invariant"].get<std::string>() << "\n";
  }
  if (r.verdict == Verdict::PotentialError)
    os << "(reached from a fabricated state; no execution from an initial state reached it "
          "within the triage bounds)\n";
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
  }
  const json& potential = r.extra.value("potential_errors", json::array());
  // A single potential error that triage reproduced is the error shown above.
  if (!potential.empty() && (r.verdict != Verdict::Error || potential.size() > 1)) {
    os << "potential errors (" << potential.size() << "), each from the first abstract state it "
       << "was reached from, and its triage:\n";
    for (const json& e : potential) {
      os << "  " << e["kind"].get<std::string>();
      if (e.value("line", 0) != 0)  // a deadlock has no source position
        os << " at line " << num(e["line"]) << ", column " << num(e["column"]);
      os << ", from " << e["location"].get<std::string>() << ": " << e["state"].get<std::string>()
         << "\n    " << e["triage"].get<std::string>() << "\n";
    }
  }
  if (r.extra.contains("annotations")) {  // --annotate
    os << "annotations written to " << r.extra["annotated_file"].get<std::string>() << ":\n";
    for (const json& a : r.extra["annotations"])
      os << "  line " << num(a["line"]) << ": " << a["assertion"].get<std::string>() << " -> "
         << a["result"].get<std::string>() << " (verified " << a["premise"].get<std::string>()
         << ")\n";
  }
  os << num(st["abstract_states"]) << " abstract states, " << num(st["fabricated_states"])
     << " fabricated states, " << num(st["solver_queries"]) << " solver queries, "
     << num(st["executions"]) << " executions, " << num(st["states"]) << " concrete states, "
     << num(st["time_s"]) << " s\n";
}

void testgenText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const json& tests = r.extra["tests"];
  for (size_t i = 0; i < tests.size(); ++i) {
    os << "test " << i << ": " << tests[i]["inputs"].dump() << " -> "
       << tests[i]["result"].get<std::string>();
    if (tests[i].contains("error"))
      os << " (" << tests[i]["error"]["kind"].get<std::string>() << " at line "
         << num(tests[i]["error"]["line"]) << ")";
    os << "\n";
  }
  if (r.error && o.trace) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file, true);
  }
  const json& st = r.stats;
  if (st.value("duplicate_errors", 0) > 0)
    os << num(st["duplicate_errors"])
       << " more failing paths repeat an error above (one test per distinct error; "
          "--all-errors keeps them)\n";
  const json& cov = r.extra["coverage"];
  os << "coverage: " << num(cov["lines"]["covered"]) << "/" << num(cov["lines"]["total"])
     << " lines, " << num(cov["branches"]["covered"]) << "/" << num(cov["branches"]["total"])
     << " branches";
  if (!cov["lines"]["uncovered"].empty())
    os << " (lines not covered: " << cov["lines"]["uncovered"].dump() << ")";
  os << "\n";
  if (!r.extra["covered_labels"].empty() || !r.extra["uncovered_labels"].empty())
    os << "labels covered: " << r.extra["covered_labels"].dump()
       << ", uncovered: " << r.extra["uncovered_labels"].dump() << "\n";
  if (r.extra.contains("mode")) {  // --compositional, --dse
    if (!r.extra["unreachable_targets"].empty())
      os << "unreachable: " << r.extra["unreachable_targets"].dump() << "\n";
    os << num(st["executions"]) << " executions (" << r.extra["mode"].get<std::string>();
    if (!r.extra["summarised"].empty()) os << ", summarised: " << r.extra["summarised"].dump();
    os << "), " << num(st["lazy_queries"]) << " lazy and " << num(st["relevant_queries"])
       << " relevant queries, " << num(st["mispredictions"]) << " mispredictions, "
       << num(st["divergences"]) << " divergences, " << num(st["time_s"]) << " s\n";
    return;
  }
  if (r.extra.contains("guide"))  // ICSE'16's counts
    os << "guide " << r.extra["guide"].get<std::string>() << ": " << num(st["non_redundant_tests"])
       << " non-redundant and " << num(st["redundant_tests"]) << " redundant tests, "
       << num(st["failing"]) << " failing, " << num(st["pruned"]) << " executions pruned, "
       << num(st["interrupts"]) << " interrupted\n";
  os << tests.size() << " tests, " << num(st["paths"]) << " paths, " << num(st["divergences"])
     << " divergences, " << num(st["undecided"]) << " undecided, " << num(st["solver_queries"])
     << " solver queries, " << num(st["time_s"]) << " s (" << r.extra["solving"].get<std::string>()
     << ")\n";
}

void coverText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const json& tests = r.extra["tests"];
  for (size_t i = 0; i < tests.size(); ++i)
    os << "test " << i << ": " << tests[i]["inputs"].dump() << " -> "
       << tests[i]["result"].get<std::string>() << "\n";
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
  }
  const bool complete = r.verdict != Verdict::Unknown;
  os << "covered: " << r.extra["covered_labels"].dump();
  if (complete)
    os << ", infeasible within the bound: " << r.extra["infeasible_labels"].dump() << " (lines "
       << r.extra["infeasible_lines"].dump() << ")\n";
  else
    os << ", not covered: " << r.extra["uncovered_labels"].dump() << "\n";
  if (r.extra.contains("proved_infeasible"))
    for (const json& j : r.extra["proved_infeasible"]) {
      os << (j.contains("label") ? j["label"].get<std::string>() : "line " + j["line"].dump())
         << ": " << j["result"].get<std::string>();
      if (j["result"] == "infeasible")
        os << " for every unwinding (proved)";
      else
        os << " (prove: " << j.value("prove", std::string("not run")) << ")";
      os << "\n";
    }
  const json& st = r.stats;
  os << tests.size() << " tests, ";
  if (r.extra["algo"] == "paths") os << num(st["paths"]) << " paths, ";
  os << num(st["solver_queries"]) << " solver queries, " << num(st["locations"]) << " locations ("
     << num(st["unwound_locations"]) << " unwound), " << num(st["time_s"]) << " s ("
     << r.extra["algo"].get<std::string>() << ", unwind " << r.extra["unwind"].dump() << ")\n";
}

void runText(std::ostream& os, const Report& r) {
  if (r.error) {
    os << "error: " << r.error->kind << " at " << r.error->label;
    if (r.error->line) os << " (line " << r.error->line << ")";
    os << ": " << r.error->message << "\n";
  } else {
    os << r.reason << " after " << num(r.stats["steps"]) << " steps\n";
  }
}

void exportText(std::ostream& os, const Report& r) {
  if (r.extra.contains("smtlib")) {
    os << r.extra["smtlib"].get<std::string>();
    if (!r.reason.empty()) verdictLine(os, r);  // only when incomplete, after the clauses
    return;
  }
  if (!r.reason.empty()) verdictLine(os, r);
  const json& st = r.stats;
  os << r.extra["output"].get<std::string>() << ": " << num(st["predicates"]) << " predicates, "
     << num(st["clauses"]) << " clauses (" << num(st["init_clauses"]) << " initial, "
     << num(st["step_clauses"]) << " steps, " << num(st["query_clauses"]) << " queries)\n";
}

// replay: the error it reproduced (with the trace it took), or the first step that differs and
// the moves possible there.
void replayText(std::ostream& os, const Report& r, const TextOptions& o) {
  verdictLine(os, r);
  const std::string saved = r.extra.value("report", "");
  const std::string cmd = r.extra.value("replayed_command", "");
  if (r.error) {
    errorHead(os, *r.error);
    errorTrace(os, *r.error, o, r.file);
    const std::string n = num(r.extra["steps"]);
    os << "reproduced: " << (n == "1" ? "the 1 step" : "the " + n + " steps") << " of " << saved
       << " (" << cmd << ")" << (r.error->initialFabricated ? ", from its fabricated state" : "")
       << "\n";
    return;
  }
  if (!r.extra.contains("difference")) return;
  const json& d = r.extra["difference"];
  os << "not reproduced: " << num(r.extra["replayed_steps"]) << " of " << num(r.extra["steps"])
     << " steps of " << saved << " (" << cmd << ") replayed\n";
  if (d.contains("expected"))
    os << "step " << num(d["step"]) << " saved: " << d["expected"].get<std::string>() << "\n";
  if (!d["possible"].empty()) {
    os << "moves possible there:\n";
    for (const auto& m : d["possible"]) os << "  " << m.get<std::string>() << "\n";
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
    if (o.stats && r.extra.contains("smtlib")) {  // the clauses are on stdout: comments
      std::ostringstream text;
      statsText(text, r);
      std::istringstream lines(text.str());
      for (std::string l; std::getline(lines, l);) os << "; " << l << "\n";
      return;
    }
  } else if (r.command == "ir") {
    os << r.extra["ir"].get<std::string>();
    return;
  }
  if (o.stats) statsText(os, r);
}

}  // namespace tandem::report
