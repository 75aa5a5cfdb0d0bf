#include "engine/cover_prove.h"

#include <algorithm>
#include <set>

#include "engine/api.h"
#include "engine/load.h"

namespace tandem::engine {

namespace {

constexpr double kProveSecondsPerLocation = 30;  // per location, without --timeout

// `assert false` at `l`, the program's own assertions assumed.
void makeErrorLocation(ir::Program& q, ir::LocId l) {
  for (ir::Edge& e : q.edges)
    if (e.kind == ir::EdgeKind::Assert) {
      e.kind = ir::EdgeKind::Command;
      e.guard = e.cond;
      e.cond = nullptr;
    }
  ir::Edge e;
  e.kind = ir::EdgeKind::Assert;
  e.from = l;
  e.to = q.cfas[q.locs[l].cfa].exit;
  e.cond = q.exprs->falseExpr();
  e.errorKind = ir::ErrorKind::Assert;
  e.loc = q.locs[l].loc;
  e.text = "unreachable";
  q.edges.push_back(std::move(e));
  q.locs[l].out.push_back(static_cast<ir::EdgeId>(q.edges.size() - 1));
  q.locs[l].property = true;
}

}  // namespace

nlohmann::json proveInfeasible(const ir::Program& p, const CoverRequest& r,
                               const std::vector<ir::LocId>& locs, search::Budget& budget) {
  nlohmann::json out = nlohmann::json::array();
  std::set<uint32_t> lines;
  for (ir::LocId l : locs) {
    const ir::Location& loc = p.locs[l];
    nlohmann::json j;
    if (!loc.labels.empty()) {
      j["label"] = loc.labels[0];
    } else if (loc.loc.line && lines.insert(loc.loc.line).second) {
      j["line"] = loc.loc.line;
    } else {
      continue;
    }
    if (budget.pollNow()) {
      j["result"] = "bounded";
      j["reason"] = budget.stopped()->reason;
      out.push_back(j);
      continue;
    }
    std::unique_ptr<ir::Program> q = loadModel(r.file, {});
    q->checkOverflow = r.tracked[static_cast<size_t>(ir::ErrorKind::Overflow)];
    makeErrorLocation(*q, l);
    ProveRequest pr;
    static_cast<Request&>(pr) = static_cast<const Request&>(r);
    pr.search = searchOrder(r);  // cover's own order (prove alone defaults to bfs)
    pr.progress = nullptr;
    pr.quiet = true;
    pr.keepMemory = false;
    pr.tracked = {};
    pr.tracked[static_cast<size_t>(ir::ErrorKind::Assert)] = true;
    pr.limits.maxStates.reset();
    pr.limits.maxDepth.reset();
    double seconds = kProveSecondsPerLocation;
    if (auto d = budget.deadline()) {
      const double left = std::chrono::duration<double>(*d - search::Budget::Clock::now()).count();
      seconds = std::max(0.1, left);
    }
    pr.limits.timeoutSeconds = seconds;
    Report pv = prove(*q, pr);
    j["prove"] = verdictName(pv.verdict);
    // An error of prove is an execution that reaches the location: feasible with more unwinding.
    j["result"] = pv.verdict == Verdict::Proved  ? "infeasible"
                  : pv.verdict == Verdict::Error ? "feasible"
                                                 : "bounded";
    if (!pv.reason.empty()) j["reason"] = pv.reason;
    out.push_back(j);
  }
  return out;
}

}  // namespace tandem::engine
