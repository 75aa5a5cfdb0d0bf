// The one concrete evaluator shared by every engine (explorer, symbolic executor's concrete
// side, fabrication, `tandem run`): expressions, lvalues, the step function on IR edges,
// invariants and initial states. It holds no mutable state, so one evaluator serves any number
// of states (and threads).
//
// Definitions are split by topic: eval_expr.cpp (expressions), eval_call.cpp (calls from
// expressions), eval_lvalue.cpp (addresses, load, store), step.cpp (edges), frames.cpp (call
// frames, object creation), initial_state.cpp (initial states, invariants).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mc/exec/chooser.h"
#include "mc/exec/natives.h"
#include "mc/exec/result.h"
#include "mc/exec/state.h"
#include "mc/exec/value.h"
#include "mc/ir/program.h"

namespace tandem::exec {

struct EvalLimits {
  uint64_t callSteps = 1'000'000;  // steps of one procedure called from an expression
  unsigned callDepth = 64;         // nesting of calls from expressions (each one C++ recursion)
  uint64_t maxArrayLength = uint64_t{1} << 20;  // `new T[n]` beyond this is refused (limit error)
};

enum class StepStatus : uint8_t {
  Ok,          // the edge executed
  Blocked,     // its guard is false: nothing changed
  Error,       // an error of the program (or a limit); the state is then unspecified
  Terminated,  // the thread's bottom frame is at its exit: nothing left to execute
};

class [[nodiscard]] StepResult {
 public:
  static StepResult executed() { return StepResult(StepStatus::Ok); }
  static StepResult blocked() { return StepResult(StepStatus::Blocked); }
  static StepResult terminated() { return StepResult(StepStatus::Terminated); }
  static StepResult failed(ExecError e) {
    StepResult r(StepStatus::Error);
    r.error_ = std::move(e);
    return r;
  }
  // failed(e), located at the statement `loc` when the error has no location of its own.
  static StepResult failedAt(ExecError e, SourceLoc loc) {
    if (!e.loc.valid()) e.loc = loc;
    return failed(std::move(e));
  }
  StepStatus status() const { return status_; }
  bool ok() const { return status_ == StepStatus::Ok; }
  const ExecError& error() const {
    assert(error_ && "StepResult::error() without an error");
    return *error_;
  }

 private:
  explicit StepResult(StepStatus s) : status_(s) {}
  StepStatus status_;
  std::optional<ExecError> error_;
};

// The one wording of a violated global invariant: `invariant 'mutex' violated`.
std::string invariantMessage(const ir::Property& p);

class Evaluator {
 public:
  // Natives are bound by name when the evaluator is made: register plugins before.
  Evaluator(const ir::Program& program, NativeRegistry& natives, EvalLimits limits = {});
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  const ir::Program& program() const { return program_; }
  const EvalLimits& limits() const { return limits_; }

  // --- Expressions, in the context of thread `t` (kNoThread: globals and processes only). ---
  // Errors carry no location (expressions have none); the step function adds the edge's.
  Result<Value> eval(ExprRef e, const State& s, ThreadId t) const;
  // The address of an lvalue expression (Var, Select, Field, Deref, ProcLocal).
  Result<Address> evalLvalue(ExprRef e, const State& s, ThreadId t) const;
  Result<Value> load(const State& s, const Address& a) const;
  // Writes `v` at `a`; arrays on the way get private storage (copy-on-write).
  Status store(State& s, const Address& a, Value v) const;

  // --- Steps. `e` must leave the pc of `t`'s top frame. ---
  // The edge can be taken: its guard holds, or evaluating the guard fails (so that executing it
  // reports the error). Return edges are disabled in a bottom frame.
  bool enabled(const State& s, ThreadId t, ir::EdgeId e) const;
  std::vector<ir::EdgeId> enabledEdges(const State& s, ThreadId t) const;
  // The bottom frame is at a location that nothing but Return edges leave (exec::terminatedAt,
  // system.h: a procedure's exit, the end of a process body).
  bool terminated(const State& s, ThreadId t) const;
  StepResult execute(State& s, ThreadId t, ir::EdgeId e, Chooser& chooser) const;

  // --- Rendezvous (rendezvous.cpp); the pairs are System::forEachRendezvous (system.h). ---
  // Thread t's send `send` and thread u's receive `recv` as one step. In the pre-state: the
  // sender's guard holds, its values are computed, the receiver's guard (which reads the message:
  // constants that must match) holds, and the channel indices are equal (else Blocked). Then the
  // sender's assignments run, then the receiver's (its targets first, then DVE effects), and
  // both threads move.
  StepResult executeSync(State& s, ThreadId t, ir::EdgeId send, ThreadId u, ir::EdgeId recv,
                         Chooser& chooser) const;

  // --- Properties. ---
  // The first violated `invariant` (ErrorKind::Invariant at its declaration), or an error raised
  // while evaluating one.
  Status checkInvariants(const State& s) const;
  // Whether every `init e;` holds in `s`.
  Result<bool> initsHold(const State& s) const;

  // --- Initial states. Globals without an initialiser are inputs: the Chooser gives them. ---
  // Inits::Check: each `init` is evaluated when due (ir::Program::initSchedule); inputs it
  // excludes give ExecError::excluded. Inits::Ignore: a state shape for states made from solver
  // models (their inputs satisfy `init` by construction).
  enum class Inits : uint8_t { Check, Ignore };
  // Closed system: a thread per process instance (Program::processes order, then instance), then
  // one for the rule set; process locals initialised, entry declarations run.
  Result<State> makeInitialState(Chooser& chooser, Inits inits = Inits::Check) const;
  // Open system: one thread with one frame of `entry`, parameters from `args`.
  Result<State> makeEntryState(ir::CfaId entry, std::vector<Value> args, Chooser& chooser,
                               Inits inits = Inits::Check) const;
  // A new object of the class (fields from their initialisers) and one thread with the frame of
  // the class's init CFA, `this` set, at its entry: nothing of the body has run.
  Result<State> makeClassInitState(uint32_t classIndex, std::vector<Value> args, Chooser& chooser,
                                   Inits inits = Inits::Check) const;
  // Class analysis: replaces thread `t`'s call stack by one frame of `method` running on object
  // `self`, at its entry (globals and heap stay as they are).
  Status startMethod(State& s, ThreadId t, ir::CfaId method, std::vector<Value> args, ObjectId self,
                     Chooser& chooser) const;
  // The state a `test` declaration describes (its arguments are constants).
  Result<State> makeTestState(const ir::Test& test, Chooser& chooser) const;

  // --- Threads of a closed system. ---
  size_t closedThreadCount() const { return closedThreads_; }
  // The thread of a process instance (kNoThread if `process` is not a process CFA or the instance
  // does not exist), and of the rule set (kNoThread if there are no rules).
  ThreadId threadOf(ir::CfaId process, uint32_t instance) const;
  ThreadId ruleThread() const { return ruleThread_; }

 private:
  struct Ctx;  // eval_context.h

  // eval_expr.cpp
  Result<Value> evalIn(const Ctx& c, ExprRef e) const;
  Result<Value> evalVar(const Ctx& c, ExprRef e) const;
  Result<Value> evalArrayOp(const Ctx& c, ExprRef e) const;
  Result<Value> evalProcessOp(const Ctx& c, ExprRef e) const;
  // The process instance an AtLoc or ProcLocal expression names.
  struct ProcessRef {
    ir::CfaId cfa = ir::kNone;
    ThreadId thread = kNoThread;
    uint32_t id = 0;  // the location (AtLoc) or variable (ProcLocal)
  };
  Result<ProcessRef> processRef(const Ctx& c, ExprRef e) const;
  Result<bool> evalBool(const Ctx& c, ExprRef e) const;
  Result<bool> guardHolds(const Ctx& c, ExprRef guard) const;
  // eval_call.cpp
  Result<Value> evalCall(const Ctx& c, ExprRef e) const;
  Result<Value> callNative(uint32_t index, std::vector<Value> args) const;
  Result<Value> runProcedure(const Ctx& c, ir::CfaId cfa, std::vector<Value> args) const;
  // eval_lvalue.cpp
  Result<Address> lvalueIn(const Ctx& c, ExprRef e) const;
  Result<Value> loadIn(const Ctx& c, const Address& a) const;
  // step.cpp
  StepResult executeAt(State& s, ThreadId t, ir::EdgeId e, Chooser& chooser, unsigned depth) const;
  StepResult executeCommand(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                            unsigned depth) const;
  // The assignments of a command (in parallel, or one after another when edge.sequential),
  // without its guard or move.
  // `message`: what a rendezvous receive takes (Op::Received).
  StepResult runAssignments(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                            unsigned depth, const std::vector<Value>* message = nullptr) const;
  StepResult runSequential(State& s, ThreadId t, const ir::Edge& edge, Chooser& chooser,
                           unsigned depth, const std::vector<Value>* message) const;
  StepResult executeCall(State& s, ThreadId t, const ir::Edge& edge, ir::EdgeId id,
                         Chooser& chooser, unsigned depth) const;
  StepResult executeReturn(State& s, ThreadId t, unsigned depth) const;
  bool enabledAt(const State& s, ThreadId t, ir::EdgeId e, unsigned depth) const;
  // A frame of `cfa` at its entry: parameters from `args`, other locals default.
  Result<Frame> makeFrame(const State& s, ir::CfaId cfa, std::vector<Value> args, ObjectId self,
                          ir::EdgeId callEdge) const;
  // Runs the top frame's entry declarations (in order: later ones may read earlier ones).
  Status runEntryInits(State& s, ThreadId t, Chooser& chooser, unsigned depth) const;
  // makeFrame, push on thread `t`, runEntryInits.
  Status pushFrame(State& s, ThreadId t, ir::CfaId cfa, std::vector<Value> args, ObjectId self,
                   ir::EdgeId callEdge, Chooser& chooser, unsigned depth) const;
  // `new C(args)`: allocates the object, pushes the frame of C's init with `this` set, runs the
  // field initialisers and the entry declarations. The frame's Return yields the object.
  Status pushInitFrame(State& s, ThreadId t, uint32_t classIndex, std::vector<Value> args,
                       ir::EdgeId callEdge, Chooser& chooser, unsigned depth) const;
  // initial_state.cpp
  Result<State> initialState(Chooser& chooser, const ir::Test* overrides, Inits inits) const;
  Status initGlobals(State& s, Chooser& chooser, const ir::Test* overrides, Inits inits) const;
  Result<std::vector<Value>> constantArgs(const std::vector<ExprRef>& args) const;

  const ir::Program& program_;
  EvalLimits limits_;
  std::vector<const NativeFunction*> bound_;  // by index into Program::natives (null: unbound)
  std::vector<ThreadId> threadBase_;          // by CfaId: first thread of a process CFA
  size_t closedThreads_ = 0;
  ThreadId ruleThread_ = kNoThread;
};

}  // namespace tandem::exec
