// The keys of a `cover` report (Christ, Hoenicke, Schaef; cover/algorithms.h): the labels and
// lines covered and infeasible within the bound, the tests (the first failing one's error with
// its trace), the counters, and the --tests-out file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cover/modular.h"
#include "mc/exec/evaluator.h"
#include "report/report.h"

namespace tandem::report {

// Locations of every procedure the unwinding reached, by label and by line.
struct LocationCover {
  std::vector<std::string> covered, notCovered;  // labels, in the order of the program
  std::map<uint32_t, bool> lines;                // line -> some location on it is covered
  std::vector<uint32_t> notCoveredLines;
  uint64_t blocks = 0, infeasibleBlocks = 0;
  std::vector<ir::LocId> infeasibleLocs;
  // The infeasible locations prove is asked about: labelled, or on a line where nothing is
  // covered.
  std::vector<ir::LocId> toProve(const ir::Program& p) const;
};

LocationCover coverage(const ir::Program& p, const std::vector<ir::CfaId>& procs,
                       const cover::CoverResult& res);

// Each test into the report's tests; the first failing one's error, replayed with its states, into
// the report. The number of failing tests.
uint64_t recordTests(Report& rep, const ir::Program& p, const exec::Evaluator& ev, ir::CfaId entry,
                     const cover::CoverResult& res);

// What the run was asked for, as the report repeats it.
struct CoverSettings {
  cover::Algo algo;
  uint32_t unwind = 0;
  bool guided = false;
  std::string solver;
  bool summaries = false;
};
void coverKeys(Report& rep, const cover::CoverRun& run, const LocationCover& cov,
               const CoverSettings& s);

void coverStats(Stats& stats, const cover::CoverRun& run, const LocationCover& cov,
                uint64_t failing, bool summaries);

// --tests-out: the tests as `test` declarations under the comment `header`.
void writeCoverTests(const std::string& path, const std::string& header, const ir::Program& p,
                     ir::CfaId entry, const cover::CoverResult& res);

}  // namespace tandem::report
