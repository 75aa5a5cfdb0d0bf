// Predicate abstraction of program states (Yorsh, Ball, Sagiv, ISSTA'06, Sect. 3): alpha maps a
// concrete state to its abstract state; gamma turns an abstract state into a formula over a
// symbolic state, for the SMT solver. Predicates in scope at a location vector are the global
// ones (declared, or from --predicates) and the scoped ones of each thread's current procedure,
// method (with its class's predicates) or process. Bool and enum variables in scope, and the
// elements of their fixed-length arrays of up to kMaxExactElements, are exact. In closed
// systems a process's predicates and exact values that read one of its locals dead at its
// location (mc/ir/liveness.h) are out of scope there.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "abstraction/abstract_state.h"
#include "mc/exec/evaluator.h"
#include "mc/symbolic/sym_config.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::abstraction {

// Predicates from outside the model (--predicates, --auto-predicates), by the scope they belong
// to, as `predicate` declarations are: global ones read globals only; those of a procedure,
// method or process read its frame (or process instance); those of a class read its fields.
struct ScopedPredicates {
  std::vector<ExprRef> global;
  std::map<ir::CfaId, std::vector<ExprRef>> ofCfa;
  std::map<uint32_t, std::vector<ExprRef>> ofClass;
  // Process predicates kept where they read a dead local (refinement found that a proof needs
  // them there: a value that no later step reads can still be what excludes an error state).
  std::set<ExprRef> keepWhereDead;
};

// What one location vector sees: predicates (with the thread and call-stack depth whose locals
// they read) and exact variables. Closed systems: one location per thread (its top frame); open
// systems: the one thread's call stack, bottom first, so the callers' predicates stay in scope
// while a callee runs.
inline constexpr uint32_t kTopFrame = UINT32_MAX;
inline constexpr int64_t kMaxExactElements = 16;
struct Scope {
  struct Pred {
    ExprRef expr;
    exec::ThreadId thread;
    uint32_t frame = kTopFrame;
  };
  // A bool or enum variable, or one element of a short fixed-length array of them.
  struct Exact {
    ir::VarId var;
    ExprRef expr;  // the variable, or `var[i]`
    exec::ThreadId thread;
    uint32_t frame = kTopFrame;
  };
  std::vector<Pred> preds;
  std::vector<Exact> exact;
};

class Abstraction {
 public:
  // `extra` joins the model's predicates in their scopes. A global predicate that reads a local,
  // a field or a process variable would be read in whatever frame is on top: refused
  // (std::invalid_argument).
  Abstraction(const ir::Program& p, const exec::Evaluator& ev, const ScopedPredicates& extra);

  const Scope& scopeAt(const std::vector<ir::LocId>& pcs) const;
  AbstractState alpha(const exec::State& s) const;
  // The formula gamma(a) over the symbolic configuration `c` (at a's locations).
  ExprRef gamma(const AbstractState& a, const symbolic::SymConfig& c,
                const symbolic::SymEvaluator& sev) const;
  // The values of the predicates and exact terms in scope at `pcs` over one configuration,
  // computed once: gamma of many abstract states over the same configuration reuses them.
  struct Valuation {
    std::vector<ExprRef> value, defined;  // per predicate: its truth, and that it is defined
    std::vector<ExprRef> exact;           // per exact term
  };
  Valuation valuate(const std::vector<ir::LocId>& pcs, const symbolic::SymConfig& c,
                    const symbolic::SymEvaluator& sev) const;
  // gamma(a) over a valuation of a's locations (of a configuration, or of free symbols).
  ExprRef gamma(const AbstractState& a, const Valuation& v) const;
  // gamma's literals: a predicate (its definedness and value) with truth `truth` (a Truth), and
  // an exact term of type `t` with code `code` (bool 0/1, enum index).
  ExprRef literal(ExprRef defined, ExprRef value, uint8_t truth) const;
  ExprRef exactLiteral(ExprRef value, TypeRef t, uint32_t code) const;
  // The locations of a concrete state: each thread's top location, or (open systems) the call
  // stack of the one thread.
  std::vector<ir::LocId> locations(const exec::State& s) const;
  // One predicate of `c`, as a symbolic boolean.
  ExprRef predicateValue(const Scope::Pred& pr, const symbolic::SymConfig& c,
                         const symbolic::SymEvaluator& sev, ExprRef* definedOut) const;
  // AtLoc replaced by constants for the threads' locations `pcs` (symbolic::foldLocations).
  ExprRef foldLocations(ExprRef e, const std::vector<ir::LocId>& pcs) const;

  // Text for reports (abstraction_text.cpp): "P[0]@C, Q@A" and the raw valuation
  // "x1 <= x2 && !(px == null) && P[1].b == true" (process-scoped predicates name the instance).
  std::string locationText(const std::vector<ir::LocId>& pcs) const;
  std::string formulaText(const AbstractState& a) const;
  // The disjunction of abstract states at one location vector, for the invariant in reports:
  // cubes that differ in one predicate merged (x && y || x && !y is printed as x), literals the
  // others imply left out (literals.h), false comparisons complemented (`t != s`).
  // Only the first `keepPreds` predicates and `keepExact` exact variables of the scope count
  // (a projection).
  std::string disjunctionText(const std::vector<const AbstractState*>& as,
                              size_t keepPreds = SIZE_MAX, size_t keepExact = SIZE_MAX) const;
  // The class invariant (Sect. 5.1): abstract states at the exits of a class's init and methods
  // (one frame each), projected on the global and class predicates and global exact variables.
  std::string classInvariantText(uint32_t classIndex,
                                 const std::vector<const AbstractState*>& as) const;
  size_t globalPredicateCount() const { return global_.size(); }
  // The dead-variable reduction: a procedure's or process's predicate is left out at the
  // locations of its code where it reads a variable that is dead there (its value cannot matter
  // any more), unless refinement kept it there (ScopedPredicates::keepWhereDead).
  struct Dropped {
    ExprRef predicate;
    ir::CfaId cfa;
    std::vector<ir::LocId> locations;
  };
  std::vector<Dropped> droppedPredicates() const;
  // Closed systems: `e`, a predicate of thread `t`'s process, with `pid` and the process's own
  // variables named for that instance (`P[1].t`); other expressions unchanged.
  ExprRef instantiate(ExprRef e, exec::ThreadId t) const;

 private:
  std::pair<ir::CfaId, uint32_t> processOf(exec::ThreadId t) const;  // (CFA, instance)
  // Adds the exact terms of variable `v` (nothing when it is not exact) to `sc`.
  void addExact(Scope& sc, ir::VarId v, exec::ThreadId thread, uint32_t frame) const;
  std::string exactText(const Scope::Exact& x, uint32_t value) const;
  // Whether `e` reads a process local dead at location `l` (closed systems).
  bool readsDead(ExprRef e, ir::LocId l) const;

  const ir::Program& p_;
  const exec::Evaluator& ev_;
  // The model's predicates with `extra` added, per scope.
  std::vector<ExprRef> global_;
  std::vector<std::vector<ExprRef>> cfaPreds_;    // by CfaId
  std::vector<std::vector<ExprRef>> classPreds_;  // by class index
  std::vector<std::vector<ir::VarId>> dead_;      // closed systems: by LocId, sorted
  std::set<ExprRef> keepWhereDead_;
  mutable std::map<std::vector<ir::LocId>, Scope> scopes_;
};

}  // namespace tandem::abstraction
