// `tandem run`'s steps as the report shows them: each step of the random walk
// (mc/search/driver/random_walk.h) becomes a trace step, handed to a StepObserver as it happens
// (the CLI prints it at once: a run may be long).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "mc/search/driver/random_walk.h"
#include "report/report.h"

namespace tandem::report {

// `run` reports each step as it happens (so a long run holds no trace in memory).
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void step(const TraceStep& s) = 0;
};

// Each step of the walk as a trace step to the observer; the last ones kept for the error's
// trace.
class WalkRecorder final : public search::WalkObserver {
 public:
  // Keeps the last `keep` steps.
  WalkRecorder(const ir::Program& p, StepObserver& observer, size_t keep)
      : p_(p), observer_(observer), keep_(keep) {}

  void before(const exec::State& s, const exec::Move& mv) override;
  void after(const exec::State& s, const exec::Move&, uint64_t step, bool failed) override;

  std::deque<TraceStep> recent;  // the last `keep` steps

 private:
  const ir::Program& p_;
  StepObserver& observer_;
  size_t keep_;
  std::map<std::string, std::string> values_;
  std::vector<size_t> frames_;
  TraceStep ts_;
};

// run's report of the walk `out`: its verdict, the error with the last steps `steps` kept, and
// the final state `last` (null when the walk did not start).
Report walkReport(const ir::Program& p, const std::string& file, const search::WalkOutcome& out,
                  const WalkRecorder& steps, const exec::State* last);

}  // namespace tandem::report
