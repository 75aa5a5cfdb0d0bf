// The loop-free fragments of abstraction fabrication (Yorsh, Ball, Sagiv, ISSTA'06, Sect. 3.2):
// from a symbolic state at a cutpoint, every path of edges up to the next cutpoints, executed by
// the symbolic transfer relation (transfer.h). A fragment end carries its path condition and
// post-state (whose strongest postcondition the invariance check compares with the abstract
// states there), or an error that the path reaches. No solver is called here: infeasible paths
// are simply unsatisfiable. `prove` (fabricate/prover.h) and `export-chc` (chc/horn_export.h)
// use the same fragments.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "mc/exec/result.h"
#include "mc/symbolic/sym_config.h"
#include "mc/symbolic/transfer.h"

namespace tandem::symbolic {

struct FragmentEnd {
  enum class Kind : uint8_t { Cutpoint, Terminated, Error };
  Kind kind = Kind::Cutpoint;
  SymConfig post;                        // Cutpoint, Terminated: the state reached
  std::vector<ExprRef> pathCond;         // conjuncts
  std::vector<ir::EdgeId> edges;         // the path
  std::optional<exec::ExecError> error;  // Error: what fails on the last edge
  uint32_t thread = 0;                   // closed systems: the thread that moved
};

class FragmentBuilder {
 public:
  FragmentBuilder(const ir::Program& p, const SymEvaluator& sev, std::vector<bool> cutpoints,
                  std::array<bool, ir::kErrorKinds> tracked, uint32_t classIndex = ir::kNone);

  // A symbolic configuration at `pcs` (one location per thread, or the call stack of an open
  // system) whose scalar variables and arrays (of symbolic length) are fresh symbols. References
  // take each value they can have (null or the address of a variable whose address the code
  // takes), one configuration per combination. Class analysis: the object under test (object 0,
  // `this` of the class's frames) has fresh fields. Conditions every state satisfies (array
  // lengths are not negative) are in the configuration's path condition. Throws NotImplemented
  // for state shapes the fabrication does not handle yet (references between objects).
  std::vector<SymConfig> prestates(const std::vector<ir::LocId>& pcs) const;
  // The symbolic initial configuration: inputs (entry parameters, uninitialised globals) are
  // fresh symbols; `init` conditions and the initialisers' checks go into `initCond` (an
  // initialiser that cannot succeed makes it false). A failing initialiser is an error of the
  // model (LANGUAGE.md): its Error ends go to `errors` (no edges; each condition is complete).
  // When no initial state exists (`initCond` then holds false), an open system's configuration
  // may have no frame and no locations: callers stop there.
  SymConfig initialConfig(ir::CfaId entry, std::vector<ExprRef>& initCond,
                          std::vector<FragmentEnd>* errors = nullptr) const;
  // Class analysis: a fragment that reaches the return of init or of a method goes on with a call
  // of every method, with fresh symbols as arguments (so that the invariance check quantifies
  // over them).
  std::vector<FragmentEnd> fragments(const SymConfig& pre) const;
  // Where a fragment ends: every thread at a cutpoint, none inside an atomic block.
  bool isCutpoint(const std::vector<ir::LocId>& pcs) const;
  // Where abstract states can be: the cutpoints, and in closed systems also the states where a
  // thread is blocked inside an atomic block (then the others move; fragments end there under
  // the condition that it is blocked).
  bool isAbstractionPoint(const std::vector<ir::LocId>& pcs) const;

 private:
  class Policy;  // the transfer relation's policy for fragments
  // The state in which thread `t` of `c` takes its step: open systems, the call stack; closed
  // systems, a frame of its process at its location.
  SymState threadState(const SymConfig& c, size_t t) const;
  SymValue freshValue(TypeRef t, const std::string& name) const;
  // Thread `t`'s moves from `b` (exec::forEachMoveOf): its edges, and for a rendezvous send, one
  // step per receive of another thread on the same channel.
  void stepThread(const SymConfig& b, size_t t, Policy& policy) const;
  // The condition under which the steps from `from` that produced `next` and the error ends
  // from `ends[firstEnd]` on happen: some step is taken (or fails).
  ExprRef moved(const SymConfig& from, const std::vector<SymConfig>& next,
                const std::vector<FragmentEnd>& ends, size_t firstEnd) const;
  // Values a reference of frame `depth` can have: null, or the address of a variable whose
  // address the code of that frame or of a caller takes.
  std::vector<SymValue> refCandidates(TypeRef refType, const std::vector<ir::LocId>& pcs,
                                      size_t depth) const;
  ExprRef nonNegative(ExprRef length) const;  // length >= 0
  // The old() snapshot of a frame at `pc` in the prestate `c` (its path condition may grow).
  std::shared_ptr<const SymSnapshot> oldSnapshot(SymConfig& c, ir::LocId pc) const;
  // Closed systems: every thread with fresh process locals (named `P[1].t`); facts about them
  // (array lengths) go to `facts`.
  std::vector<SymThread> freshThreads(std::vector<ExprRef>& facts) const;
  // Class analysis: fresh values for the fields of object `self` of the class under test.
  SymObject freshObject(std::vector<ExprRef>& facts) const;
  static constexpr size_t kMaxStack = 16;

  const ir::Program& p_;
  const SymEvaluator& sev_;
  Transfer transfer_;
  std::vector<bool> cut_;
  std::vector<ir::CfaId> threadCfa_;  // closed systems: the CFA of each thread
  uint32_t class_;                    // class analysis: the class under test (else kNone)
};

}  // namespace tandem::symbolic
