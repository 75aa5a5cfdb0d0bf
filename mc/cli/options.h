// Every command-line option, declared once, with its default (shown by `tandem --help`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tandem::cli {

struct Options {
  std::string command;
  std::string file;

  // Entry points.
  std::string entry;
  std::string cls;
  std::optional<uint64_t> maxCalls;  // check --class: none means unbounded
  std::vector<std::string> args;     // --args a,b (run)
  uint64_t steps = 1000;             // --steps (run of a closed system)
  std::string inputs = "symbolic";   // check --entry: symbolic|tests

  // Search and bounds.
  std::string search = "dfs";
  uint64_t seed = 0;
  std::optional<uint64_t> maxDepth, maxStates;
  std::optional<double> timeout;          // seconds
  std::optional<uint64_t> memoryLimitMb;  // MB

  // Properties.
  std::vector<std::string> checkKinds;  // empty: all
  std::vector<std::string> invariants;
  bool deadlock = false;

  // Output.
  bool json = false, trace = false, stats = false, quiet = false;
  std::string dot;
  std::string output;  // -o FILE (export-chc)

  // Solver (used by the symbolic and proving commands).
  std::string solver = "z3";
  bool checkProof = false;
  uint64_t solverTimeoutMs = 10000;
  std::string smtLog;
  bool solverCrossCheck = false;

  // prove
  std::string cutpoints = "loops";
  bool autoPredicates = false, hybrid = false;
  std::string predicatesFile;
  std::string engine = "fabricate";

  // testgen
  std::string solving = "mixed";  // testgen's default; check --entry: classic unless given
  bool solvingGiven = false;      // --solving was on the command line
  std::string heuristic = "incremental";
  uint64_t maxTries = 10;
  bool compositional = false;
  std::string target;
  std::string guide = "none";
  std::string testsOut;
  std::vector<std::string> natives;

  // cover
  uint64_t unwind = 2;
  std::string algo = "statements";
};

enum class ParseStatus { Ok, Help, Version, ListCommands, Error };

struct ParseResult {
  ParseStatus status = ParseStatus::Ok;
  Options options;
  std::string message;  // usage error or help text
};

ParseResult parseOptions(int argc, const char* const* argv);

// The commands this build implements (for `--list-commands` and usage).
const std::vector<std::string>& implementedCommands();

}  // namespace tandem::cli
