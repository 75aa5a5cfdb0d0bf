// The loop-free fragments of abstraction fabrication (Yorsh, Ball, Sagiv, ISSTA'06, Sect. 3.2):
// from a symbolic state at a cutpoint, every path of edges up to the next cutpoints, executed
// symbolically. A fragment end carries its path condition and post-state (whose strongest
// postcondition the invariance check compares with the abstract states there), or an error
// that the path reaches. No solver is called here: infeasible paths are simply unsatisfiable.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "abstraction/abstraction.h"
#include "mc/exec/result.h"

namespace tandem::fabricate {

using symbolic::SymConfig;

struct FragmentEnd {
  enum class Kind : uint8_t { Cutpoint, Terminated, Error };
  Kind kind = Kind::Cutpoint;
  SymConfig post;                        // Cutpoint, Terminated: the state reached
  std::vector<ExprRef> pathCond;         // conjuncts
  std::vector<ir::EdgeId> edges;         // the path
  std::optional<exec::ExecError> error;  // Error: what fails on the last edge
};

class FragmentBuilder {
 public:
  FragmentBuilder(const ir::Program& p, const abstraction::Abstraction& abs,
                  const symbolic::SymEvaluator& sev, std::vector<bool> cutpoints,
                  std::array<bool, ir::kErrorKinds> tracked, uint32_t classIndex = ir::kNone);

  // A symbolic configuration at `pcs` (one location per thread, or the call stack of an open
  // system) whose scalar variables and arrays (of symbolic length) are fresh symbols. References
  // take each value they can have (null or the address of a variable whose address the code
  // takes), one configuration per combination. Class analysis: the object under test (object 0,
  // `this` of the class's frames) has fresh fields. Conditions every state satisfies (array
  // lengths are not negative) are in the configuration's path condition. Throws
  // symbolic::NotImplemented for state shapes the fabrication does not handle yet (references
  // between objects, process-local variables).
  std::vector<SymConfig> prestates(const std::vector<ir::LocId>& pcs) const;
  // The symbolic initial configuration: inputs (entry parameters, uninitialised globals) are
  // fresh symbols; `init` conditions and failing initialisers go into `initCond`.
  SymConfig initialConfig(ir::CfaId entry, std::vector<ExprRef>& initCond) const;
  // Class analysis: a fragment that reaches the return of init or of a method goes on with a call
  // of every method, with fresh symbols as arguments (so that the invariance check quantifies
  // over them).
  std::vector<FragmentEnd> fragments(const SymConfig& pre) const;
  bool isCutpoint(const std::vector<ir::LocId>& pcs) const;

 private:
  struct Branch {
    SymConfig c;
    std::vector<ExprRef> pc;
    std::vector<ir::EdgeId> edges;
  };
  // Runs edge `id` of thread `t`; the successor (if any) goes to `next`, errors to `ends`.
  void step(const Branch& b, size_t t, ir::EdgeId id, std::vector<Branch>& next,
            std::vector<FragmentEnd>& ends) const;
  // Records the tracked obligations' failures as error ends and assumes them; false when one is
  // constant false (the path cannot go on).
  bool oblige(Branch& b, const std::vector<symbolic::Obligation>& obls, ir::EdgeId id,
              std::vector<FragmentEnd>& ends) const;
  void assign(Branch& b, const std::vector<ir::Assignment>& as, bool parallel, ir::EdgeId id,
              std::vector<FragmentEnd>& ends, bool& ok) const;
  symbolic::SymValue freshValue(TypeRef t, const std::string& name) const;
  void selectFrame(SymConfig& c, size_t t) const;
  // Values a reference of frame `depth` can have: null, or the address of a variable whose
  // address the code of that frame or of a caller takes.
  std::vector<symbolic::SymValue> refCandidates(TypeRef refType, const std::vector<ir::LocId>& pcs,
                                                size_t depth) const;
  // The location of thread `t` (closed systems), or of the top frame (open systems).
  ir::LocId& pcOf(SymConfig& c, size_t t) const;
  ExprRef nonNegative(ExprRef length) const;  // length >= 0
  // Class analysis: fresh values for the fields of object `self` of the class under test.
  symbolic::SymObject freshObject(std::vector<ExprRef>& facts) const;
  // Class analysis: the branches calling each method after the object's init or method returned.
  void callMethods(const Branch& b, ir::EdgeId ret, std::vector<Branch>& next,
                   std::vector<FragmentEnd>& ends) const;
  static constexpr size_t kMaxStack = 16;

  const ir::Program& p_;
  const abstraction::Abstraction& abs_;
  const symbolic::SymEvaluator& sev_;
  std::vector<bool> cut_;
  std::array<bool, ir::kErrorKinds> tracked_;
  std::vector<ir::CfaId> threadCfa_;  // closed systems: the CFA of each thread
  uint32_t class_;                    // class analysis: the class under test (else kNone)
};

}  // namespace tandem::fabricate
