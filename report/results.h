// The typed parts of a report that the printers read (text, SARIF, JUnit): each command's
// results as the engine made them, rendered into the JSON report under their keys
// (docs/json.md) by toJson, and into text by report/text.cpp. No printer reads back a JSON key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cover/prove_infeasible.h"
#include "fabricate/annotate.h"

namespace tandem::report {

// A test of testgen or cover.
struct TestRecord {
  nlohmann::json inputs = nlohmann::json::object();  // input -> value
  std::vector<std::string> labels;
  std::string result;  // pass, error, unknown
  struct Failure {
    std::string kind;
    uint32_t line = 0;
  };
  std::optional<Failure> error;
  std::optional<std::string> diverged;           // why the replay left the path
  std::string unfinished;                        // what the concrete run after the path needed
  std::optional<uint64_t> unverifiedAssertions;  // --guide (ICSE'16's unverified executions)
  bool mispredicted = false;  // --dse: the execution missed the node its query promised
};

// The tests of testgen and cover, and the labels they covered.
struct TestsKeys {
  std::vector<TestRecord> tests;
  std::vector<std::string> coveredLabels, uncoveredLabels;
  // testgen: the lines and branches of the entry and its callees the tests took.
  struct Coverage {
    uint64_t linesCovered = 0, linesTotal = 0;
    std::vector<uint32_t> uncoveredLines;
    uint64_t branchesCovered = 0, branchesTotal = 0;
  };
  std::optional<Coverage> coverage;
};

// check's explicit search.
struct ExploreKeys {
  std::string engine;  // compiled, generic
  std::string store;   // exact, tree, hc, bitstate
  struct BitArray {
    unsigned log2Bits = 0, hashes = 0;
  };
  std::optional<BitArray> bitstate;
  struct Rank {
    uint64_t states = 0, transitions = 0, messagesSent = 0, bytesSent = 0, peakRssMb = 0;
    double exploreS = 0;
  };
  struct Distributed {
    std::string transport;
    std::vector<Rank> ranks;
  };
  std::optional<Distributed> distributed;
};

// The symbolic executor's settings and counterexample (check --entry/--class, testgen).
struct SymbolicKeys {
  std::string solving;                   // classic, mixed, exe, dart
  std::optional<std::string> heuristic;  // mixed: the heuristics, as listed
  std::optional<uint64_t> maxTries;      // mixed and dart
  std::optional<nlohmann::json> inputs;  // the counterexample's inputs, by name
  struct Call {
    std::string method, call;
    nlohmann::json args;  // parameter -> value
  };
  std::optional<std::vector<Call>> calls;  // the class analysis: the counterexample's calls
};

// testgen --dse/--compositional and --guide.
struct TestgenKeys {
  std::optional<std::string> mode;  // compositional, dse
  std::vector<std::string> summarised;
  struct Unreachable {
    std::optional<std::string> label, procedure;
    std::optional<uint32_t> line;
  };
  std::vector<Unreachable> unreachableTargets;
  std::optional<std::string> guide;
};

// A potential error of prove, from the first abstract state it was reached from.
struct PotentialErrorRow {
  std::string kind, message;
  uint32_t line = 0, column = 0;
  struct From {
    std::string location, state;
  };
  std::vector<From> from;
  std::string triage;
};

// prove --refine: what each round's spurious abstract path gave (refine/refine_loop.h).
struct RefinementRow {
  uint32_t round = 0;
  std::string error;                    // the potential error the path led to
  size_t length = 0;                    // abstract steps of the path
  std::vector<std::string> predicates;  // "SCOPE: PREDICATE"
};
struct RefinementKeys {
  uint32_t rounds = 1;
  // Not asked for: why the default predicates' round gave way to refinement from no predicates
  // (engine/prove.cpp); empty when refinement was asked for.
  std::string afterDefaults;
  std::vector<RefinementRow> steps;
  std::string stopped;  // why potential errors remained (empty otherwise)
};

struct ProveKeys {
  std::optional<std::vector<std::string>> defaultPredicates;  // "SCOPE: PREDICATE"
  // The dead-variable reduction: "SCOPE: PREDICATE at L1, L2" (abstraction.h's Dropped).
  std::vector<std::string> droppedPredicates;
  std::optional<RefinementKeys> refinement;  // --refine
  // A proof's invariant: (cutpoint, formula), in the prover's order.
  std::optional<std::vector<std::pair<std::string, std::string>>> invariant;
  std::optional<std::string> cls, classInvariant;
  std::optional<std::vector<PotentialErrorRow>> potentialErrors;
  std::optional<std::vector<fabricate::AnnotatedAssertion>> annotations;  // --annotate
  std::string annotatedFile;
};

struct CoverKeys {
  std::string algo;
  uint32_t unwind = 0;
  std::vector<std::string> infeasibleLabels;
  std::vector<uint32_t> infeasibleLines;
  std::optional<std::vector<cover::InfeasibleAnswer>> provedInfeasible;  // --prove-infeasible
};

// export-chc: the clauses (on stdout) or the file they went to.
struct ExportKeys {
  std::optional<std::string> smtlib, output;
};

struct ReplayKeys {
  std::string report;  // the saved report's file
  std::optional<std::string> replayedCommand;
  std::optional<uint64_t> steps, replayedSteps;
  struct Difference {
    uint64_t step = 0;
    std::string why;
    std::vector<std::string> possible;  // the moves possible there
    std::optional<std::string> expected;
  };
  std::optional<Difference> difference;
};

// Each part into the report's top-level keys.
void addJson(nlohmann::json& j, const TestsKeys& k);
void addJson(nlohmann::json& j, const ExploreKeys& k);
void addJson(nlohmann::json& j, const SymbolicKeys& k);
void addJson(nlohmann::json& j, const TestgenKeys& k);
void addJson(nlohmann::json& j, const ProveKeys& k);
void addJson(nlohmann::json& j, const CoverKeys& k);
void addJson(nlohmann::json& j, const ExportKeys& k);
void addJson(nlohmann::json& j, const ReplayKeys& k);

nlohmann::json testJson(const TestRecord& t);
nlohmann::json unreachableJson(const std::vector<TestgenKeys::Unreachable>& u);

}  // namespace tandem::report
