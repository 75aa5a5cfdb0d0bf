// THE symbolic transfer relation (DESIGN.md, "One rule, one place"): what every IR edge does to
// a symbolic state, mirroring the reference evaluator (mc/exec/step.cpp, frames.cpp):
//   Command  guard, then the assignments (in parallel, or one after another) and havocs;
//   Assert   a tracked failure is an error, then the condition is assumed;
//   Assumed  a skip;
//   Call     arguments, then the callee's frame (`new C(...)` allocates the object and runs the
//            field initialisers), then its entry declarations;
//   Return   the result to the caller's lvalue; the bottom frame's return ends the frame.
// The implicit checks of every evaluation (SymEvaluator's obligations) fork errors off and are
// then assumed. Engines differ only in a TransferPolicy: when the solver is asked, where
// successors, errors and fresh values go, and what the bottom frame's return means. The symbolic
// explorer (symbolic_explorer.h) and the fragment builder of `prove` (fragments.h) both run it.
//
// Definitions: transfer.cpp (edges, obligations, assignments), transfer_frames.cpp (entry
// states, frames, objects, calls, returns, method calls).
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

// Where an input value is needed.
enum class InputKind : uint8_t {
  Param,      // a parameter of the entry (procedure or class initialiser)
  Global,     // a global without initialiser (or `= *`)
  Havoc,      // `x = *` in a command or an entry declaration
  MethodArg,  // class analysis: an argument of a method called at a method boundary
};

class TransferPolicy {
 public:
  virtual ~TransferPolicy() = default;
  // A condition that is not constant joined the path condition of `s`: may the path go on? The
  // explorer asks its path solver (keeping the certificate); the fragment builder keeps every
  // path (an infeasible one has an unsatisfiable condition).
  virtual bool feasible(SymState& s) = 0;
  // A tracked error can happen: under `s`'s path condition and `bad`, `error` is raised by edge
  // `id`, or (ir::kNone) on entry of the top frame by its field initialisers or entry
  // declarations. The transfer then goes on assuming !bad.
  virtual void fail(const SymState& s, ExprRef bad, const exec::ExecError& error,
                    ir::EdgeId id) = 0;
  // A value for an input of type `t`, named `name` in reports.
  virtual SymValue input(SymState& s, InputKind kind, TypeRef t, const std::string& name) = 0;
  // `s` after edge `id` (recorded in s.path).
  virtual void successor(SymState&& s, ir::EdgeId id) = 0;
  // Closed systems: `s` after the rendezvous of its thread's send `sendId` with the receive
  // `recvId` of thread `u` (both recorded in s.path, the send first); `s`'s frame is the
  // sender's, the receiver is now at the receive's target.
  // Default: the engine has no closed systems with channels.
  virtual void synced(SymState&& /*s*/, ir::EdgeId /*sendId*/, exec::ThreadId /*u*/,
                      ir::EdgeId /*recvId*/) {
    throw NotImplemented("rendezvous channels in this analysis");
  }
  // The bottom frame of `s` returns by edge `id` (not recorded): the explorer ends the path or
  // calls the methods of the class analysis; fragments end or call every method.
  virtual void returned(const SymState& s, ir::EdgeId id) = 0;
  // Before the arguments of a call of `callee` from `s` are evaluated: throws NotImplemented for
  // calls the engine does not handle.
  virtual void calling(const SymState& /*s*/, const ir::Cfa& /*callee*/) {}
  // After the arguments of call edge `id` from `s` (at the call site) are evaluated: true when
  // the policy takes the call by a summary of the callee and hands on the successors itself
  // (Transfer::enterCall helps); false (default): the callee runs in a frame of its own.
  virtual bool summarise(const SymState& /*s*/, ir::EdgeId /*id*/,
                         const std::vector<SymValue>& /*args*/) {
    return false;
  }
  // `within` keeps the path within the reference evaluator's limits (array lengths), which are
  // not errors of the program. Default: recorded for a concrete replay, not assumed.
  virtual void limit(SymState& s, ExprRef within) { s.limits.push_back(within); }
  // After each evaluation on `s`: constraints the evaluation made (EXE's pins) join its path
  // condition.
  virtual void absorb(SymState& /*s*/) {}
  // True once the engine wants nothing more (the explorer's first error): the step stops.
  virtual bool stopped() const { return false; }
};

// The thread that takes a step. Symbolic states hold one call stack (SymState::frames) so far:
// the caller puts the moving thread's frames there (an open system's one thread, or a frame
// selected for a process of a closed system, with SymState::thread naming it). `locations` are
// every thread's locations (closed systems: `P@L` folds to a constant against them); empty for
// open systems.
struct Mover {
  exec::ThreadId thread = 0;
  std::span<const ir::LocId> locations;
};

class Transfer {
 public:
  // Errors of the kinds not in `tracked` are not reported: their paths just end there.
  Transfer(const SymEvaluator& ev, std::array<bool, ir::kErrorKinds> tracked);

  // Takes edge `id` (out of the location of `t`'s top frame) from `s`; the successor, errors and
  // the bottom frame's return go to `policy`.
  void step(SymState s, const Mover& t, ir::EdgeId id, TransferPolicy& policy) const;
  // Closed systems: the rendezvous of the send `sendId` of `t` (whose frame `s` holds) with the
  // receive `recvId` of thread `u` (at its source), as one step (transfer_sync.cpp); the
  // successor goes to policy.synced.
  void stepSync(SymState s, const Mover& t, ir::EdgeId sendId, exec::ThreadId u, ir::EdgeId recvId,
                TransferPolicy& policy) const;
  // The callee of call edge `id` starts from `s` (at the call site) with `args` evaluated: its
  // frame is pushed and its entry declarations run, as the call does when no summary takes it.
  // False when the path fails or cannot go on.
  bool enterCall(SymState& s, ir::EdgeId id, std::vector<SymValue> args,
                 TransferPolicy& policy) const;
  // Over-approximating a call: `s` (at the call site of call edge `id`) goes on as if the callee
  // had returned `result` at once; the result is stored as a return stores it (errors of the
  // store raised by `id`), and the successor goes to `policy`.
  void skipCall(SymState s, ir::EdgeId id, const std::optional<SymValue>& result,
                TransferPolicy& policy) const;
  // The path of `s` ends here: its bottom frame can only return (or is stuck).
  bool atBottomExit(const SymState& s) const;

  // The initial state of a run, built in `s` (empty): globals (inputs from the policy, or their
  // initialisers), the `init` conditions, then (open systems: `entry` is not ir::kNone) the
  // entry's frame with its parameters as inputs. Each `init` is assumed as soon as the globals
  // it reads are set (ir::Program::initSchedule); a failing initialiser (global, process local,
  // field or entry declaration) is an error reported at entry, as a failing step's is, under
  // the conditions assumed before it. False when the path cannot start (infeasible or failing).
  bool enter(SymState& s, ir::CfaId entry, TransferPolicy& policy) const;
  // Class analysis: `s` is at a method boundary (its bottom frame returned); its frames become
  // one frame of `method` on object `self` with inputs as arguments. Errors of the entry
  // declarations are raised by edge `at` (ir::kNone: on entry). False when the path fails.
  bool callMethod(SymState& s, ir::CfaId method, exec::ObjectId self, ir::EdgeId at,
                  TransferPolicy& policy) const;

  // A frame of `cfa` at its entry, every local at its default value.
  SymFrame makeFrame(ir::CfaId cfa, exec::ObjectId self, ir::EdgeId callEdge) const;
  // The call edge out of `site` that calls `callee` (the one a caller waiting at `site` took),
  // or ir::kNone.
  ir::EdgeId callEdgeAt(ir::LocId site, ir::CfaId callee) const;
  const SymEvaluator& evaluator() const { return ev_; }
  bool tracks(ir::ErrorKind k) const { return tracked_[static_cast<size_t>(k)]; }
  // testgen --guide none|may|must|may-must: an assertion `verified true` is assumed, not checked.
  void setTrustVerified(bool on) { trustVerified_ = on; }

 private:
  struct Ctx;  // one run of the relation: the state, the mover, the policy
  SymValue eval(Ctx& c, ExprRef e, std::vector<Obligation>& obls) const;
  SymLvalue lvalue(Ctx& c, ExprRef e, std::vector<Obligation>& obls) const;
  // Forks the tracked errors of `obls` (raised by edge `id`, or on entry) and assumes the
  // obligations. False when the path cannot go on.
  // An error on entry is reported at `declared` (the failing declaration) when it is valid.
  bool require(Ctx& c, const std::vector<Obligation>& obls, ir::EdgeId id,
               SourceLoc declared = {}) const;
  // Adds `cond` to the path condition; false when the path cannot go on.
  bool assume(Ctx& c, ExprRef cond) const;
  // Assignments in parallel (a command) or one after another (entry declarations): lvalues and
  // right-hand sides in the pre-state, then the havocs in order, then the stores.
  bool runAssignments(Ctx& c, const std::vector<ir::Assignment>& as, bool parallel,
                      ir::EdgeId id) const;

  // --- transfer_frames.cpp ---
  // Globals in declaration order, each `init` assumed when due; false when the path fails.
  bool initGlobals(Ctx& c) const;
  // Closed systems: every thread (processes in order, their instances, then the rule set) with
  // its process locals initialised, as the reference evaluator makes them.
  bool initThreads(Ctx& c) const;
  // Assumes the `init` conditions `which` (indices into Program::inits) and their checks.
  void assumeInits(Ctx& c, const std::vector<size_t>& which) const;
  std::shared_ptr<const SymSnapshot> snapshot(const SymState& s) const;
  // Allocates an object of the class with default fields; its id.
  exec::ObjectId allocate(SymState& s, uint32_t classIndex) const;
  // Pushes a frame of `cfa` (a class initialiser allocates its object first and runs the field
  // initialisers), then runs its entry declarations; their errors are raised by edge `at`.
  bool pushFrame(Ctx& c, ir::CfaId cfa, std::vector<SymValue> args, exec::ObjectId self,
                 ir::EdgeId callEdge, ir::EdgeId at) const;
  bool initFields(Ctx& c, ir::EdgeId at) const;
  bool call(Ctx& c, const ir::Edge& edge, ir::EdgeId id) const;
  bool returnToCaller(Ctx& c, ir::EdgeId id) const;
  bool enterCallee(Ctx& c, const ir::Edge& edge, ir::EdgeId id, std::vector<SymValue> args) const;
  // The caller (its callee's frame popped) receives `result` of call edge `call` and moves to the
  // call's target; errors of the store are raised by edge `at`.
  bool receiveResult(Ctx& c, const ir::Edge& call, const std::optional<SymValue>& result,
                     ir::EdgeId at) const;

  const ir::Program& p_;
  ExprManager& em_;
  const SymEvaluator& ev_;
  std::array<bool, ir::kErrorKinds> tracked_;
  bool trustVerified_ = false;
};

}  // namespace tandem::symbolic
