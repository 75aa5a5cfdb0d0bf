#include "cover/algorithms.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "mc/search/driver/budget.h"
#include "mc/symbolic/model_state.h"

namespace tandem::cover {

namespace {
constexpr EnumName<Algo> kAlgoNames[] = {
    {Algo::Paths, "paths"}, {Algo::Statements, "statements"}, {Algo::Fm, "fm"}};
}  // namespace

const char* algoName(Algo a) { return enumName(kAlgoNames, a, "statements"); }

std::optional<Algo> parseAlgo(std::string_view s) { return enumFromName(kAlgoNames, s); }

Enumerator::Enumerator(const ir::Program& p, const Unwinding& u, const ReachVc& vc,
                       const exec::Evaluator& ev, smt::Solver& solver, search::Budget& budget)
    : p_(p), u_(u), vc_(vc), ev_(ev), solver_(solver), budget_(budget), em_(*p.exprs) {}

CoverResult Enumerator::run(Algo algo, const Known* known) {
  CoverResult r;
  r.locCovered.assign(p_.locs.size(), false);
  r.errorCovered.assign(vc_.errorGroups().size(), false);
  if (known) {
    r.locCovered = known->locCovered;
    for (size_t g = 0; g < vc_.errorGroups().size(); ++g)
      for (const VcErrorGroup& k : known->errorsCovered)
        r.errorCovered[g] = r.errorCovered[g] || sameError(k, vc_.errorGroups()[g]);
  }
  for (ExprRef c : vc_.clauses()) solver_.add(c);
  switch (algo) {
    case Algo::Paths:
      paths(r);
      break;
    case Algo::Statements:
      statements(r, known);
      break;
    case Algo::Fm:
      fm(r, known);
      break;
  }
  return r;
}

std::optional<bool> Enumerator::check(CoverResult& r, std::span<const ExprRef> assumptions) {
  if (budget_.pollNow()) {
    r.reason = budget_.stopped()->reason;
    return std::nullopt;
  }
  ++r.queries;
  smt::CheckResult c = solver_.check(assumptions);
  if (c.isSat()) return true;
  if (c.isUnsat()) return false;
  budget_.pollNow();
  r.reason = budget_.stopped() ? budget_.stopped()->reason : search::solverUnknownReason(c.reason);
  return std::nullopt;
}

bool Enumerator::taken(uint32_t arc) const {
  return solver_.model().evalBool(vc_.arcs()[arc].taken).value_or(false);
}

bool Enumerator::newTarget(const CoverResult& r, uint32_t arc) const {
  const VcArc& a = vc_.arcs()[arc];
  if (arcTarget(r, arc)) return true;
  return a.to != VcArc::kEnd && !r.locCovered[vc_.nodes()[a.to].loc];
}

bool Enumerator::arcTarget(const CoverResult& r, uint32_t arc) const {
  const VcArc& a = vc_.arcs()[arc];
  if (a.error && !r.errorCovered[a.errorGroup]) return true;
  if (a.pair)
    for (ir::LocId l : a.pair->locs)
      if (!r.locCovered[l]) return true;
  return false;
}

void Enumerator::testThrough(CoverResult& r, uint32_t node, uint32_t viaArc) {
  const uint32_t start = viaArc == ir::kNone ? node : vc_.arcs()[viaArc].from;
  std::vector<uint32_t> back;  // from `start` back to the root
  for (uint32_t n = start; n != VcArc::kRoot;) {
    uint32_t pick = ir::kNone;
    for (uint32_t a : vc_.in(n))
      if (taken(a)) {
        pick = a;
        break;
      }
    if (pick == ir::kNone) throw std::logic_error("cover: a reached node without a taken arc in");
    back.push_back(pick);
    n = vc_.arcs()[pick].from;
  }
  std::vector<uint32_t> arcs(back.rbegin(), back.rend());
  uint32_t n = start;
  if (viaArc != ir::kNone) {
    arcs.push_back(viaArc);
    n = vc_.arcs()[viaArc].to;
  }
  while (n != VcArc::kEnd) {
    uint32_t pick = ir::kNone;
    for (uint32_t a : vc_.out(n)) {
      if (!taken(a)) continue;
      if (pick == ir::kNone || (newTarget(r, a) && !newTarget(r, pick))) pick = a;
    }
    if (pick == ir::kNone) throw std::logic_error("cover: a reached node without a taken arc out");
    arcs.push_back(pick);
    n = vc_.arcs()[pick].to;
  }
  addTest(r, std::move(arcs));
}

void Enumerator::addTest(CoverResult& r, std::vector<uint32_t> arcs) {
  const smt::Model& m = solver_.model();
  CoverTest t;
  symbolic::PathEnd& end = t.end;
  const ir::CfaId entry = u_.procedures()[0];
  for (const VcInput& in : vc_.inputs()) {
    if (in.kind == symbolic::InputKind::Param) {
      end.args.push_back(symbolic::modelValue(in.value, in.type, m));
      end.inputs.emplace_back(in.name, end.args.back());
    } else if (in.kind == symbolic::InputKind::Global) {
      end.script.push_back(symbolic::modelValue(in.value, in.type, m));
      end.inputs.emplace_back(in.name, end.script.back());
    }
  }
  size_t havoc = 0;
  for (uint32_t a : arcs) {
    const VcArc& arc = vc_.arcs()[a];
    for (uint32_t h : arc.havocs) {
      const VcInput& in = vc_.inputs()[h];
      end.script.push_back(symbolic::modelValue(in.value, in.type, m));
      end.inputs.emplace_back("havoc#" + std::to_string(++havoc), end.script.back());
    }
    if (arc.from != VcArc::kRoot) t.locs.push_back(vc_.nodes()[arc.from].loc);
    if (arc.to != VcArc::kEnd) t.locs.push_back(vc_.nodes()[arc.to].loc);
    if (arc.pair) {  // the callee's test, spliced in
      end.path.push_back(arc.call);
      end.path.insert(end.path.end(), arc.pair->edges.begin(), arc.pair->edges.end());
      t.locs.insert(t.locs.end(), arc.pair->locs.begin(), arc.pair->locs.end());
      if (arc.error) end.error = arc.error;
      continue;
    }
    if (arc.to == VcArc::kEnd && !arc.error) t.returnEdge = arc.edge;
    if (arc.error) {
      end.error = arc.error;
      if (arc.edge == ir::kNone)
        end.errorAtEntry = true;
      else
        end.path.push_back(arc.edge);
    } else if (arc.edge != ir::kNone && arc.to != VcArc::kEnd) {
      end.path.push_back(arc.edge);  // the entry's own return ends the path unrecorded
    }
  }
  t.replay = symbolic::replayPath(ev_, entry, end, /*keepStates=*/false);
  if (!t.replay.followed)
    throw std::logic_error("cover: test " + std::to_string(r.tests.size() + 1) +
                           " does not replay: " + t.replay.problem);
  for (uint32_t a : arcs)
    if (vc_.arcs()[a].error) r.errorCovered[vc_.arcs()[a].errorGroup] = true;
  std::sort(t.locs.begin(), t.locs.end());
  t.locs.erase(std::unique(t.locs.begin(), t.locs.end()), t.locs.end());
  for (ir::LocId l : t.locs) r.locCovered[l] = true;
  t.arcs = std::move(arcs);
  r.tests.push_back(std::move(t));
}

void Enumerator::paths(CoverResult& r) {
  for (;;) {
    auto sat = check(r);
    if (!sat) return;
    if (!*sat) break;
    testThrough(r, VcArc::kRoot);
    ++r.paths;
    std::vector<ExprRef> block;
    for (uint32_t a : r.tests.back().arcs) block.push_back(em_.mkNot(vc_.arcs()[a].taken));
    ExprRef clause = em_.falseExpr();
    for (ExprRef b : block) clause = em_.mkOr(clause, b);
    solver_.add(clause);
  }
  r.complete = true;
}

std::vector<ExprRef> Enumerator::guidedTargets(const CoverResult& r, const Aims& aims) const {
  const auto& nodes = vc_.nodes();
  auto gain = [&](uint32_t n) {
    return !r.locCovered[nodes[n].loc] && !aims.suspectLoc[nodes[n].loc] && !aims.deadNode[n];
  };
  auto arcGain = [&](uint32_t a) {
    const VcArc& arc = vc_.arcs()[a];
    return arcTarget(r, a) && !aims.deadArc[a] && !aims.suspectArc[a] &&
           !(arc.error && aims.suspectError[arc.errorGroup]);
  };
  // Arcs lead from a copy to a later one: the best gain to an end, from the last copy back.
  std::vector<uint32_t> best(nodes.size(), 0);
  auto via = [&](uint32_t a) -> uint32_t {
    const VcArc& arc = vc_.arcs()[a];
    return (arcGain(a) ? 1u : 0u) + (arc.to == VcArc::kEnd ? 0 : best[arc.to]);
  };
  auto bestArc = [&](uint32_t n) {
    uint32_t pick = ir::kNone;
    for (uint32_t a : vc_.out(n))
      if (pick == ir::kNone || via(a) > via(pick)) pick = a;
    return pick;
  };
  for (size_t i = nodes.size(); i-- > 0;) {
    const uint32_t a = bestArc(static_cast<uint32_t>(i));
    best[i] = (gain(static_cast<uint32_t>(i)) ? 1 : 0) + (a == ir::kNone ? 0 : via(a));
  }
  // One target per location: a later copy on the path (another iteration) would only add an
  // assumption that can conflict. Copies on a straight line share their literal.
  std::vector<ExprRef> targets;
  std::set<ir::LocId> aimed;
  for (uint32_t n = VcArc::kRoot;;) {
    const uint32_t a = bestArc(n);
    if (a == ir::kNone) break;
    const VcArc& arc = vc_.arcs()[a];
    if (arcGain(a) && std::find(targets.begin(), targets.end(), arc.taken) == targets.end())
      targets.push_back(arc.taken);
    if (arc.to == VcArc::kEnd) break;
    n = arc.to;
    if (!gain(n) || !aimed.insert(nodes[n].loc).second) continue;
    if (std::find(targets.begin(), targets.end(), nodes[n].reach) == targets.end())
      targets.push_back(nodes[n].reach);
  }
  // A conflict the path holds whole would make the query unsat again: leave out its last target
  // (it is aimed at again once the others are covered or by another path).
  for (const std::vector<ExprRef>& c : aims.conflicts) {
    size_t last = 0, found = 0;
    for (size_t i = 0; i < targets.size(); ++i)
      if (std::find(c.begin(), c.end(), targets[i]) != c.end()) {
        ++found;
        last = i;
      }
    if (found == c.size()) targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(last));
  }
  return targets;
}

ExprRef Enumerator::blame(const std::vector<ExprRef>& targets, Aims& aims) const {
  auto core = solver_.unsatAssumptions();
  if (core && core->size() == 1) {
    // Unsat with this one literal assumed: no execution within the bound reaches that copy.
    const ExprRef t = targets[core->front()];
    for (uint32_t n = 0; n < vc_.nodes().size(); ++n)
      if (vc_.nodes()[n].reach == t) aims.deadNode[n] = true;
    for (uint32_t a = 0; a < vc_.arcs().size(); ++a)
      if ((vc_.arcs()[a].error || vc_.arcs()[a].pair) && vc_.arcs()[a].taken == t)
        aims.deadArc[a] = true;
    return t;
  }
  if (core && !core->empty()) {
    std::vector<ExprRef> conflict;
    for (size_t i : *core) conflict.push_back(targets[i]);
    aims.conflicts.push_back(std::move(conflict));
    return nullptr;
  }
  for (ExprRef t : targets) {
    for (const VcNode& n : vc_.nodes())
      if (n.reach == t) aims.suspectLoc[n.loc] = true;
    for (uint32_t a = 0; a < vc_.arcs().size(); ++a) {
      const VcArc& arc = vc_.arcs()[a];
      if (arc.error && arc.taken == t) aims.suspectError[arc.errorGroup] = true;
      if (arc.pair && arc.taken == t) aims.suspectArc[a] = true;
    }
  }
  return nullptr;
}

std::optional<bool> Enumerator::sweepClones(CoverResult& r, ExprRef dead, Aims& aims) {
  // The other live copies of the dead copy's locations (and error arcs of its error groups).
  std::vector<bool> loc(p_.locs.size(), false), group(vc_.errorGroups().size(), false);
  for (const VcNode& n : vc_.nodes())
    if (n.reach == dead) loc[n.loc] = true;
  for (const VcArc& a : vc_.arcs())
    if (a.error && a.taken == dead) group[a.errorGroup] = true;
  std::vector<uint32_t> nodes, arcs;
  ExprRef any = em_.falseExpr();
  for (uint32_t n = 0; n < vc_.nodes().size(); ++n)
    if (loc[vc_.nodes()[n].loc] && !r.locCovered[vc_.nodes()[n].loc] && !aims.deadNode[n]) {
      nodes.push_back(n);
      any = em_.mkOr(any, vc_.reach(n));
    }
  for (uint32_t a = 0; a < vc_.arcs().size(); ++a) {
    const VcArc& arc = vc_.arcs()[a];
    if (arc.error && group[arc.errorGroup] && !r.errorCovered[arc.errorGroup] && !aims.deadArc[a]) {
      arcs.push_back(a);
      any = em_.mkOr(any, arc.taken);
    }
  }
  if (any->isFalse()) return true;
  solver_.push();
  solver_.add(any);
  auto sat = check(r);
  if (sat && *sat) coverModel(r);
  solver_.pop();
  if (sat && !*sat) {
    for (uint32_t n : nodes) aims.deadNode[n] = true;
    for (uint32_t a : arcs) aims.deadArc[a] = true;
  }
  return sat ? std::optional<bool>(true) : std::nullopt;
}

void Enumerator::statements(CoverResult& r, const Known* known) {
  // Guided queries first: the path of the unwinding through the most locations (and errors) not
  // covered yet, its targets as assumptions. When it holds, one query covers them all. When not,
  // the unsat core is a conflict that later paths leave out, or, for a core of one literal, a
  // copy no execution reaches (dead: it leaves the enabling clause too, and one more query asks
  // about its clones); without a core (a chain that cannot name one) the targets are suspected
  // and not aimed at again. The enabling query (the paper's AlgSC) comes when fewer than two
  // targets are left (for one, it asks as much and more): it covers something, or its unsat
  // answer ends the enumeration; when every location is covered or dead, it is not needed.
  Aims aims{{},
            std::vector<bool>(p_.locs.size(), false),
            std::vector<bool>(vc_.errorGroups().size(), false),
            std::vector<bool>(vc_.arcs().size(), false),
            std::vector<bool>(vc_.nodes().size(), false),
            std::vector<bool>(vc_.arcs().size(), false)};
  if (known)
    for (uint32_t n = 0; n < vc_.nodes().size(); ++n)
      aims.deadNode[n] = known->locInfeasible[vc_.nodes()[n].loc];
  for (;;) {
    if (guided_) {
      std::vector<ExprRef> targets = guidedTargets(r, aims);
      if (targets.size() >= 2) {
        auto sat = check(r, targets);
        if (!sat) return;
        if (*sat) {
          coverModel(r);
          continue;
        }
        // A dead copy: its clones are asked about in one query (the paper's RemoveClones), not
        // one query each.
        if (ExprRef dead = blame(targets, aims); dead && !sweepClones(r, dead, aims)) return;
        continue;
      }
    }
    // RemoveClones: a location is covered by any of its copies.
    ExprRef enabling = em_.falseExpr();
    for (size_t n = 0; n < vc_.nodes().size(); ++n)
      if (!r.locCovered[vc_.nodes()[n].loc] && !aims.deadNode[n])
        enabling = em_.mkOr(enabling, vc_.reach(static_cast<uint32_t>(n)));
    // Errors not covered, and tests of summarised callees through locations not covered.
    for (uint32_t a = 0; a < vc_.arcs().size(); ++a)
      if (arcTarget(r, a) && !aims.deadArc[a]) enabling = em_.mkOr(enabling, vc_.arcs()[a].taken);
    if (enabling->isFalse()) break;  // everything is covered or dead
    solver_.push();
    solver_.add(enabling);
    auto sat = check(r);
    if (!sat || !*sat) {
      solver_.pop();
      if (!sat) return;
      break;
    }
    coverModel(r);
    solver_.pop();
  }
  r.complete = true;
}

void Enumerator::coverModel(CoverResult& r) {
  // Every location and error the model reaches gets a test through it.
  const size_t before = r.tests.size();
  for (uint32_t a = 0; a < vc_.arcs().size(); ++a)
    if (arcTarget(r, a) && taken(a)) testThrough(r, ir::kNone, a);
  for (uint32_t n = 0; n < vc_.nodes().size(); ++n)
    if (!r.locCovered[vc_.nodes()[n].loc] && solver_.model().evalBool(vc_.reach(n)).value_or(false))
      testThrough(r, n);
  if (r.tests.size() == before) throw std::logic_error("cover: a model that covers nothing new");
}

void Enumerator::fm(CoverResult& r, const Known* known) {
  std::vector<std::vector<uint32_t>> copies(p_.locs.size()), viaTests(p_.locs.size());
  for (uint32_t n = 0; n < vc_.nodes().size(); ++n) copies[vc_.nodes()[n].loc].push_back(n);
  // A summarised callee's location: the arcs of its tests through it.
  for (uint32_t a = 0; a < vc_.arcs().size(); ++a)
    if (const SummaryPair* pair = vc_.arcs()[a].pair)
      for (ir::LocId l : pair->locs) viaTests[l].push_back(a);
  // Locations whose copies share their booleans (a straight line of statements) are one block:
  // one query.
  std::set<ExprRef> asked;
  for (ir::LocId l = 0; l < p_.locs.size(); ++l) {
    if (copies[l].empty() && viaTests[l].empty()) continue;
    if (known && (known->locCovered[l] || known->locInfeasible[l])) continue;
    ExprRef any = em_.falseExpr();
    for (uint32_t n : copies[l]) any = em_.mkOr(any, vc_.reach(n));
    for (uint32_t a : viaTests[l]) any = em_.mkOr(any, vc_.arcs()[a].taken);
    if (!asked.insert(any).second) continue;
    const ExprRef assume[] = {any};
    auto sat = check(r, assume);
    if (!sat) return;
    if (!*sat || r.locCovered[l]) continue;
    for (uint32_t n : copies[l])
      if (solver_.model().evalBool(vc_.reach(n)).value_or(false)) {
        testThrough(r, n);
        break;
      }
    for (uint32_t a : viaTests[l])
      if (!r.locCovered[l] && taken(a)) testThrough(r, ir::kNone, a);
  }
  for (size_t g = 0; g < vc_.errorGroups().size(); ++g) {
    if (known && r.errorCovered[g]) continue;
    ExprRef any = em_.falseExpr();
    for (size_t a = 0; a < vc_.arcs().size(); ++a)
      if (vc_.arcs()[a].error && vc_.arcs()[a].errorGroup == g)
        any = em_.mkOr(any, vc_.arcs()[a].taken);
    const ExprRef assume[] = {any};
    auto sat = check(r, assume);
    if (!sat) return;
    if (!*sat || r.errorCovered[g]) continue;
    for (size_t a = 0; a < vc_.arcs().size(); ++a)
      if (vc_.arcs()[a].error && vc_.arcs()[a].errorGroup == g && taken(static_cast<uint32_t>(a))) {
        testThrough(r, ir::kNone, static_cast<uint32_t>(a));
        break;
      }
  }
  r.complete = true;
}

}  // namespace tandem::cover
