// The abstract post of one thread's fragment in a closed system, on the predicates it can change
// (a Cartesian reading of ISSTA'06's invariance check). A thread's step reads and writes few
// variables, and most abstract states differ from each other only elsewhere: in other threads'
// locations and in predicates over variables the step does not touch. So the possible truth
// values of the predicates the step can change are computed once per (thread, path, the
// pre-state's truths of the predicates over what the path reads or writes), by enumerating the
// solver's models, and every abstract state with that key reuses them: its candidate successors
// are its own truths with the changed predicates replaced. The candidates are a superset of the
// real successors (predicates over other variables are left out of the enumeration), so the
// prover checks a candidate that is not known yet with the full query before fabricating it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "abstraction/abstraction.h"
#include "mc/smt/solver.h"
#include "mc/symbolic/fragments.h"

namespace tandem::fabricate {

class LocalPosts {
 public:
  // `check`: one solver query over the conjuncts (the prover's, with its budget and counts).
  using Check = std::function<smt::CheckResult(std::vector<ExprRef>)>;

  LocalPosts(const ir::Program& p, const abstraction::Abstraction& abs);
  // A closed system whose code names no process's location (`P@L`) and no process's local
  // (`P[i].v`): a fragment of a thread then reads only globals and its own locals.
  bool usable() const { return usable_; }

  // The candidate abstract successors of abstract state `pre` (with `preVal`, its prestate's
  // valuation) by the fragment `end`; nullopt when they cannot be enumerated (an unknown answer,
  // too many models): the prover then asks the full query.
  std::optional<std::vector<abstraction::AbstractState>> candidates(
      const abstraction::AbstractState& pre, const abstraction::Abstraction::Valuation& preVal,
      const symbolic::FragmentEnd& end, const abstraction::Abstraction::Valuation& postVal,
      const smt::Solver& solver, const Check& check);

  // Error ends: true when the error is impossible already under the pre-state's truths of the
  // predicates over the moving thread's own locals that the path touches (a loop index against
  // an array's bounds, say); cached per (thread, path, those truths). A subset of gamma, so a
  // `true` is sound; `false` leaves the question to the full query.
  bool errorExcluded(const abstraction::AbstractState& pre,
                     const abstraction::Abstraction::Valuation& preVal,
                     const symbolic::FragmentEnd& end, const Check& check);

  uint64_t hits() const { return hits_; }

 private:
  // A variable as a thread sees it: a global (thread part 0) or thread t's local (t + 1).
  using QVar = uint64_t;
  static constexpr QVar kLocations = UINT64_MAX;  // what a path always changes: the locations
  QVar qualify(ir::VarId v, uint32_t thread) const;
  const std::vector<QVar>& varsOf(ExprRef e, uint32_t thread);
  struct ReadWrite {
    std::vector<QVar> touched, written;  // sorted
  };
  const ReadWrite& readWriteOf(const symbolic::FragmentEnd& end);
  bool meets(const std::vector<QVar>& vars, const std::vector<QVar>& set) const;

  // Per key: the affected entries' values of each candidate (truths, then exact values).
  struct Entry {
    std::vector<std::vector<uint32_t>> values;
  };

  const ir::Program& p_;
  const abstraction::Abstraction& abs_;
  bool usable_ = false;
  std::map<std::pair<ExprRef, uint32_t>, std::vector<QVar>> vars_;
  std::map<std::pair<uint32_t, std::vector<ir::EdgeId>>, ReadWrite> rw_;
  std::unordered_map<std::string, Entry> cache_;
  std::unordered_map<std::string, bool> excluded_;  // errorExcluded's answers
  uint64_t hits_ = 0;
};

}  // namespace tandem::fabricate
