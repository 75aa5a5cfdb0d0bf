// Enumerating the executions of the reachability verification condition (Christ, Hoenicke,
// Schaef, Sect. 4) with one incremental solver:
//   Paths       AlgPC: each model gives a path; a blocking clause (not all of its arcs taken)
//               excludes it; unsat ends the enumeration: a feasible path cover.
//   Statements  AlgSC: an enabling clause (some location not covered yet is reached, in any of
//               its unwound copies: RemoveClones) is asserted for one query; each model covers
//               at least one new location (every newly reached location is covered by a test
//               through it); unsat proves the rest infeasible: a compact statement cover.
//   Fm          AlgFM, the baseline: one query per location (and per error), asking whether any
//               copy is reached.
// Every test is a path of taken arcs from the root to an end, whose inputs are the model's; it is
// replayed by the reference evaluator, and a replay that leaves the path is an internal error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cover/reach_vc.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/replay.h"

namespace tandem::cover {

enum class Algo : uint8_t { Paths, Statements, Fm };
const char* algoName(Algo a);
std::optional<Algo> parseAlgo(std::string_view s);

struct CoverTest {
  std::vector<uint32_t> arcs;         // ReachVc arcs from the root to an end
  symbolic::PathEnd end;              // the path and inputs as the replay takes them
  symbolic::Replay replay;            // followed; its error, if the path ends in one
  std::vector<ir::LocId> locs;        // the locations it visits (summarised callees' too)
  ir::EdgeId returnEdge = ir::kNone;  // a test that returns: the entry's return edge
};

struct CoverResult {
  std::vector<CoverTest> tests;
  std::vector<bool> locCovered;    // per IR location
  std::vector<bool> errorCovered;  // per ReachVc error group
  // The enumeration ended with unsat (Paths, Statements) or every query answered (Fm): what is
  // not covered is infeasible within the bound. Otherwise `reason` says why not.
  bool complete = false;
  std::string reason;
  uint64_t queries = 0, paths = 0;
};

// What an earlier enumeration of the same entry (with summaries) found: locations covered and
// proved infeasible, errors covered (by edge and error, as VcErrorGroup names them).
struct Known {
  std::vector<bool> locCovered, locInfeasible;  // per IR location
  std::vector<VcErrorGroup> errorsCovered;
};

class Enumerator {
 public:
  // `budget` ends the enumeration between queries (the solver's own stop ends a query).
  Enumerator(const ir::Program& p, const Unwinding& u, const ReachVc& vc, const exec::Evaluator& ev,
             smt::Solver& solver, search::Budget& budget);
  // With `known`, only what it leaves open is asked about (Statements and Fm).
  CoverResult run(Algo algo, const Known* known = nullptr);
  // Statements: whether a guided query (the path through the most uncovered locations) comes
  // before each enabling query (on by default; off: the paper's AlgSC exactly).
  void setGuided(bool on) { guided_ = on; }

 private:
  void paths(CoverResult& r);
  void statements(CoverResult& r, const Known* known);
  void fm(CoverResult& r, const Known* known);
  // What the guided queries of Statements learned from unsat cores: sets of targets no execution
  // reaches together, copies and error arcs that no execution within the bound reaches (a core
  // of their literal alone), and, when the solver names no core, locations and errors not to aim
  // at again.
  struct Aims {
    std::vector<std::vector<ExprRef>> conflicts;
    std::vector<bool> suspectLoc, suspectError, suspectArc, deadNode, deadArc;
  };
  // The literals of the targets on the path of the unwinding through the most locations and
  // errors that are neither covered, suspected nor dead, less the last target of each known
  // conflict the path holds whole.
  std::vector<ExprRef> guidedTargets(const CoverResult& r, const Aims& aims) const;
  // After a guided query answered unsat: a conflict, a dead copy or error arc (its literal is
  // returned), or suspects.
  ExprRef blame(const std::vector<ExprRef>& targets, Aims& aims) const;
  // After copy or error arc `dead` was found dead: one query whether any other live copy of its
  // locations (error arcs of its groups) is reached; covers it, or marks them all dead. Nullopt
  // when the query ended without an answer (the reason is in `r`).
  std::optional<bool> sweepClones(CoverResult& r, ExprRef dead, Aims& aims);
  // Tests through every location and error the model reaches that is not covered yet.
  void coverModel(CoverResult& r);
  // A check; false (with the reason in `r`) unless it answered sat or unsat.
  std::optional<bool> check(CoverResult& r, std::span<const ExprRef> assumptions = {});
  bool taken(uint32_t arc) const;
  // A path of taken arcs through `node` (a node copy, or kRoot), or through arc `viaArc`,
  // preferring arcs into locations and errors not covered yet; then its test.
  void testThrough(CoverResult& r, uint32_t node, uint32_t viaArc = ir::kNone);
  void addTest(CoverResult& r, std::vector<uint32_t> arcs);
  bool newTarget(const CoverResult& r, uint32_t arc) const;
  // An arc that is itself a target: an error not covered, or a test of a summarised callee
  // through a location not covered.
  bool arcTarget(const CoverResult& r, uint32_t arc) const;

  const ir::Program& p_;
  const Unwinding& u_;
  const ReachVc& vc_;
  const exec::Evaluator& ev_;
  smt::Solver& solver_;
  search::Budget& budget_;
  ExprManager& em_;
  bool guided_ = true;
};

}  // namespace tandem::cover
