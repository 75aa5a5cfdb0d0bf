#include "cover/modular.h"

#include <algorithm>

#include "mc/search/driver/budget.h"

namespace tandem::cover {

namespace {

class Modular {
 public:
  Modular(const CoverSetup& s, Algo algo) : s_(s), algo_(algo) {
    table_.byCfa.resize(s.p.cfas.size());
  }

  CoverRun run(ir::CfaId entry, bool summaries) {
    if (summaries) {
      const std::vector<bool> ok = symbolic::summarisable(s_.p);
      std::vector<bool> seen(s_.p.cfas.size(), false);
      std::vector<ir::CfaId> order;  // callees before their callers
      postOrder(entry, seen, order);
      for (ir::CfaId c : order) {
        if (c == entry || !ok[c]) continue;
        CoverResult r = analyse(c, Algo::Statements, false);
        run_.result.queries += r.queries;
        run_.result.paths += r.paths;
        if (!r.complete) {  // the budget ended it: nothing more can be said
          run_.result.reason = r.reason;
          run_.result.locCovered.assign(s_.p.locs.size(), false);
          run_.result.errorCovered.clear();
          run_.procedures = {entry};
          return std::move(run_);
        }
        table_.byCfa[c] = summaryOf(c, r);
        ++run_.summarised;
        run_.pairs += table_.byCfa[c]->pairs.size();
      }
    }
    const uint64_t q = run_.result.queries, n = run_.result.paths;
    run_.result = analyse(entry, algo_, true);
    run_.result.queries += q;
    run_.result.paths += n;
    return std::move(run_);
  }

 private:
  void postOrder(ir::CfaId c, std::vector<bool>& seen, std::vector<ir::CfaId>& order) const {
    seen[c] = true;
    for (ir::LocId l : s_.p.cfas[c].locs)
      for (ir::EdgeId id : s_.p.locs[l].out) {
        const ir::Edge& e = s_.p.edges[id];
        if (e.kind == ir::EdgeKind::Call && !seen[e.callee]) postOrder(e.callee, seen, order);
      }
    order.push_back(c);
  }

  // The procedures an unwinding reached, with those of the summaries it used.
  std::vector<ir::CfaId> reached(const Unwinding& u) const {
    std::vector<ir::CfaId> procs = u.procedures();
    for (const UnwindArc& a : u.arcs()) {
      const ir::Edge& e = s_.p.edges[a.edge];
      if (e.kind != ir::EdgeKind::Call || !table_.of(e.callee)) continue;
      for (ir::CfaId c : table_.of(e.callee)->procedures)
        if (std::find(procs.begin(), procs.end(), c) == procs.end()) procs.push_back(c);
    }
    return procs;
  }

  CoverResult stoppedResult() const {
    CoverResult r;
    r.reason = s_.budget.stopped() ? s_.budget.stopped()->reason : "unwinding stopped";
    r.locCovered.assign(s_.p.locs.size(), false);
    return r;
  }

  // Covers `entry` with the summaries made so far; then, if that leaves something open, again
  // with its calls inlined.
  CoverResult analyse(ir::CfaId entry, Algo algo, bool top) {
    Unwinding u(s_.p, entry, s_.unwind, s_.budget, &table_);
    run_.cuts += u.cuts();
    if (top) {
      run_.unwound = u.nodes().size();
      run_.procedures = reached(u);
      if (run_.procedures.empty()) run_.procedures = {entry};  // stopped before its first node
    }
    if (u.stopped()) return stoppedResult();
    ReachVc vc(s_.p, u, s_.sev, s_.tracked, entry, s_.budget, &table_);
    if (vc.stopped()) return stoppedResult();
    s_.admit(vc);
    if (top) {
      run_.copies = vc.nodes().size();
      run_.arcs = vc.arcs().size();
    }
    CoverResult r = enumerate(u, vc, algo, nullptr);
    if (!r.complete || !u.summarised()) return r;
    Open open = leftOpen(u, vc, r);
    if (!open.more && !open.own.empty() && !dismiss(u, entry, open, r)) return r;
    if (!open.more && open.own.empty()) return r;  // every test real, the rest infeasible
    ++run_.refinements;
    Unwinding inlined(s_.p, entry, s_.unwind, s_.budget);
    if (inlined.stopped()) return stoppedResult();
    ReachVc vc2(s_.p, inlined, s_.sev, s_.tracked, entry, s_.budget);
    if (vc2.stopped()) return stoppedResult();
    s_.admit(vc2);
    CoverResult r2 = enumerate(inlined, vc2, algo, &open.known);
    r2.tests.insert(r2.tests.begin(), std::make_move_iterator(r.tests.begin()),
                    std::make_move_iterator(r.tests.end()));
    r2.queries += r.queries;
    r2.paths += r.paths;
    return r2;
  }

  CoverResult enumerate(const Unwinding& u, const ReachVc& vc, Algo algo, const Known* known) {
    std::unique_ptr<smt::Solver> solver = s_.newSolver();
    Enumerator en(s_.p, u, vc, s_.ev, *solver, s_.budget);
    en.setGuided(s_.guided);
    CoverResult r = en.run(algo, known);
    run_.solverSeconds += solver->stats().seconds;
    return r;
  }

  // What a complete enumeration with summaries left open. Known: what it found, with the
  // locations the summarised callees' own analyses proved infeasible. Open: the entry's own
  // locations (and those of procedures inlined into it) not covered nor proved infeasible;
  // `more`: anything else open — a callee's location not covered in this context, an error not
  // covered, an unwound location no test of a callee leads to (an error there would go unasked).
  struct Open {
    Known known;
    std::vector<ir::LocId> own;
    bool more = false;
  };
  Open leftOpen(const Unwinding& u, const ReachVc& vc, const CoverResult& r) const {
    Open o;
    Known& k = o.known;
    k.locCovered = r.locCovered;
    k.locInfeasible.assign(s_.p.locs.size(), false);
    const std::vector<ir::CfaId> procs = reached(u);
    for (ir::CfaId c : procs)
      if (const Summary* sum = table_.of(c))
        for (ir::LocId l : sum->infeasible) k.locInfeasible[l] = true;
    const std::vector<ir::CfaId>& own = u.procedures();
    for (ir::CfaId c : procs)
      for (ir::LocId l : s_.p.cfas[c].locs) {
        if (r.locCovered[l] || k.locInfeasible[l]) continue;
        if (std::find(own.begin(), own.end(), c) != own.end())
          o.own.push_back(l);
        else
          o.more = true;
      }
    for (size_t g = 0; g < vc.errorGroups().size(); ++g) {
      if (r.errorCovered[g])
        k.errorsCovered.push_back(vc.errorGroups()[g]);
      else
        o.more = true;
    }
    std::vector<bool> copied(u.nodes().size(), false);
    for (const VcNode& n : vc.nodes()) copied[n.unwound] = true;
    o.more = o.more || std::find(copied.begin(), copied.end(), false) != copied.end();
    return o;
  }

  // The entry's own open locations that no execution reaches even when every summarised call
  // may return any value (the callees' errors aside): infeasible with the callees inlined too.
  // They move from o.own to o.known.locInfeasible. False when the budget ended it.
  bool dismiss(const Unwinding& u, ir::CfaId entry, Open& o, CoverResult& r) {
    const ReachVc vc(s_.p, u, s_.sev, s_.tracked, entry, s_.budget, &table_, /*anyResult=*/true);
    if (vc.stopped()) return false;
    s_.admit(vc);
    std::unique_ptr<smt::Solver> solver = s_.newSolver();
    for (ExprRef c : vc.clauses()) solver->add(c);
    // Ask whether any of the open locations is reached; those a model reaches stay open (it
    // need not be an execution), the rest are asked again, until unsat.
    std::vector<ir::LocId> ask = o.own;
    o.own.clear();
    while (!ask.empty()) {
      ExprRef any = s_.p.exprs->falseExpr();
      for (const VcNode& n : vc.nodes())
        if (std::find(ask.begin(), ask.end(), n.loc) != ask.end())
          any = s_.p.exprs->mkOr(any, n.reach);
      if (s_.budget.pollNow()) {
        r.reason = s_.budget.stopped()->reason;
        r.complete = false;
        break;
      }
      ++r.queries;
      const ExprRef assume[] = {any};
      const smt::CheckResult c = solver->check(assume);
      if (c.isUnsat()) {
        for (ir::LocId l : ask) o.known.locInfeasible[l] = true;
        break;
      }
      if (!c.isSat()) {
        r.reason = s_.budget.stopped() ? s_.budget.stopped()->reason
                                       : search::solverUnknownReason(c.reason);
        r.complete = false;
        break;
      }
      std::vector<ir::LocId> rest;
      for (ir::LocId l : ask) {
        bool reached = false;
        for (const VcNode& n : vc.nodes())
          reached = reached || (n.loc == l && solver->model().evalBool(n.reach).value_or(false));
        (reached ? o.own : rest).push_back(l);
      }
      ask = std::move(rest);
    }
    run_.solverSeconds += solver->stats().seconds;
    return r.complete;
  }

  std::unique_ptr<Summary> summaryOf(ir::CfaId c, const CoverResult& r) const {
    auto sum = std::make_unique<Summary>();
    const ir::Cfa& cfa = s_.p.cfas[c];
    for (const CoverTest& t : r.tests) {
      SummaryPair pair;
      pair.error = t.end.error;
      pair.edges = t.end.path;
      pair.locs = t.locs;
      if (pair.error)
        pair.errorEdge = t.end.errorAtEntry ? ir::kNone : t.end.path.back();
      else
        pair.edges.push_back(t.returnEdge);
      sum->pairs.push_back(std::move(pair));
    }
    for (ir::LocId l : cfa.locs)
      if (!r.locCovered[l]) sum->infeasible.push_back(l);
    // The procedures its tests can pass through: itself, and those of its calls' summaries.
    sum->procedures.push_back(c);
    for (ir::LocId l : cfa.locs)
      for (ir::EdgeId id : s_.p.locs[l].out) {
        const ir::Edge& e = s_.p.edges[id];
        if (e.kind != ir::EdgeKind::Call || !table_.of(e.callee)) continue;
        for (ir::CfaId d : table_.of(e.callee)->procedures)
          if (std::find(sum->procedures.begin(), sum->procedures.end(), d) == sum->procedures.end())
            sum->procedures.push_back(d);
      }
    return sum;
  }

  const CoverSetup& s_;
  Algo algo_;
  SummaryTable table_;
  CoverRun run_;
};

}  // namespace

CoverRun coverEntry(const CoverSetup& s, ir::CfaId entry, Algo algo, bool summaries) {
  return Modular(s, algo).run(entry, summaries);
}

}  // namespace tandem::cover
