// `tandem replay FILE REPORT.json`: the saved report read within the bounds, the saved run's
// semantics (its invariants, --check overflow, entry or class) restored, and its counterexample
// re-executed (report/replay_trace.h).
#include <algorithm>

#include "engine/api.h"
#include "engine/load.h"
#include "engine/setup.h"
#include "mc/exec/evaluator.h"
#include "mc/search/generic_system.h"
#include "report/replay_report.h"
#include "report/replay_trace.h"

namespace tandem::engine {

using nlohmann::json;

Report replay(ir::Program& p, const ReplayRequest& r) {
  RunBudget rb(r);  // reading a large report counts against the bounds too
  std::unique_ptr<json> read = report::readReplayReport(r.reportFile, rb.budget, r.keepMemory);
  // Request::keepMemory: the report (a DOM of 1.3 GB for 138 MB of text) is left to the OS.
  const LeaveAtExit<json> leave{read, r.keepMemory};
  if (!read) {  // stopped while reading: the bound is the reason
    Report rep;
    rep.command = "replay";
    rep.file = r.file;
    rep.replay = report::ReplayKeys{r.reportFile, {}, {}, {}, {}};
    rep.reason = rb.budget.stopped()->reason;
    addRunStats(rep.stats, rb.budget);
    return rep;
  }
  const json& saved = *read;
  // The saved run's --invariant properties and --check overflow: part of the semantics the trace
  // was found under.
  if (const auto it = saved.find("invariants"); it != saved.end())
    for (const json& i : *it)
      p.invariants.push_back({i.get<std::string>(),
                              parseGlobalCondition(p, i.get<std::string>(), r.reportFile,
                                                   "an invariant of the report"),
                              {}});
  if (const auto it = saved.find("checks"); it != saved.end())
    if (std::find(it->begin(), it->end(), "overflow") != it->end()) p.checkOverflow = true;
  ReplayRequest req = r;
  if (req.entry.empty() && req.cls.empty()) {
    req.entry = report::stringAt(saved, "entry");
    req.cls = report::stringAt(saved, "class");
  }
  exec::NativeRegistry natives;
  loadNatives(req, p, natives);
  exec::Evaluator ev(p, natives);
  search::GenericOptions go;
  go.tracked.fill(true);
  go.initialUnchecked = true;
  const uint32_t cls = classOf(req, p);
  if (cls != ir::kNone) {
    go.entry = p.classes[cls].init;
    go.classIndex = cls;
    go.argPool = report::callArguments(saved["error"]["trace"]);
  } else if (!p.isClosed()) {
    go.entry = entryOf(req, p);
  }
  search::GenericSystem sys(p, ev, go);
  const ir::CfaId entry = cls == ir::kNone && !p.isClosed() ? entryOf(req, p) : ir::kNone;
  try {
    Report rep = report::replayTrace(p, saved, ev, sys, entry, cls, rb.budget);
    rep.file = r.file;
    rep.replay->report = r.reportFile;
    addRunStats(rep.stats, rb.budget);
    return rep;
  } catch (const json::exception& e) {  // a value the shape check lets through and JSON refuses
    throw fileError(r.reportFile, std::string("a malformed report: ") + e.what());
  }
}

}  // namespace tandem::engine
