#include "cover/prove_infeasible.h"

#include "mc/expr/enum_names.h"

#include <set>

namespace tandem::cover {

namespace {

constexpr double kProveSecondsPerLocation = 30;  // per location, without a deadline

// `assert false` at `l`, the program's own assertions assumed.
void makeErrorLocation(ir::Program& q, ir::LocId l) {
  ir::assumeAssertions(q);
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

constexpr EnumName<InfeasibleAnswer::Result> kResultNames[] = {
    {InfeasibleAnswer::Result::Infeasible, "infeasible"},
    {InfeasibleAnswer::Result::Feasible, "feasible"},
    {InfeasibleAnswer::Result::Bounded, "bounded"}};
}  // namespace

const char* resultName(InfeasibleAnswer::Result r) { return enumName(kResultNames, r); }

std::vector<InfeasibleAnswer> proveInfeasible(const ir::Program& p,
                                              const std::vector<ir::LocId>& locs,
                                              const symbolic::ProveOnCopy& hooks,
                                              search::Budget& budget) {
  using Kind = symbolic::ProveOnCopy::Outcome::Kind;
  std::vector<InfeasibleAnswer> out;
  std::set<uint32_t> lines;
  for (ir::LocId l : locs) {
    const ir::Location& loc = p.locs[l];
    InfeasibleAnswer a;
    if (!loc.labels.empty())
      a.label = loc.labels[0];
    else if (loc.loc.line && lines.insert(loc.loc.line).second)
      a.line = loc.loc.line;
    else
      continue;
    if (budget.pollNow()) {
      a.reason = budget.stopped()->reason;
      out.push_back(std::move(a));
      continue;
    }
    std::unique_ptr<ir::Program> q = p.clone();
    makeErrorLocation(*q, l);
    const symbolic::ProveOnCopy::Outcome o =
        hooks.prove(*q, budget.secondsLeft(kProveSecondsPerLocation));
    a.prove = o.verdict;
    // An error of prove is an execution that reaches the location: feasible with more unwinding.
    a.result = o.kind == Kind::Proved  ? InfeasibleAnswer::Result::Infeasible
               : o.kind == Kind::Error ? InfeasibleAnswer::Result::Feasible
                                       : InfeasibleAnswer::Result::Bounded;
    a.reason = o.reason;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace tandem::cover
