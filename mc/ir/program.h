// The control-flow IR: one control-flow automaton (CFA) per procedure, method, class
// initialiser, process and rule set. Locations are the points before statements; every edge is
// one atomic step and a guarded command (guard, parallel assignment, havoc), an assertion, a
// call, or the return to a caller. All analyses run on this form (LANGUAGE.md, "Semantics").
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/lang/source.h"

namespace tandem::ir {

using VarId = uint32_t;
using LocId = uint32_t;
using EdgeId = uint32_t;
using CfaId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;

enum class ErrorKind : uint8_t {
  Assert,
  Invariant,
  IndexOutOfBounds,
  NullDeref,
  DivByZero,
  NegativeSize,
  Deadlock,         // closed systems: no process can move and some is not at a valid end
  Overflow,         // --check overflow: i32/i64 arithmetic that wraps (Program::checkOverflow)
  FloatConversion,  // int(x) of an f64 that is NaN or outside [-2^63, 2^63)
};
inline constexpr int kErrorKinds = 9;
const char* errorKindName(ErrorKind k);  // "assert", "index-out-of-bounds", ...
std::optional<ErrorKind> parseErrorKind(const std::string& s);
// The kinds tracked by default (--check without a list): all but Overflow, which is only on
// when asked for (it changes what i32/i64 arithmetic does: Program::checkOverflow).
constexpr std::array<bool, kErrorKinds> defaultErrorKinds() {
  std::array<bool, kErrorKinds> t{};
  t.fill(true);
  t[static_cast<size_t>(ErrorKind::Overflow)] = false;
  return t;
}

enum class VarScope : uint8_t {
  Global,        // one slot in the global store
  ProcessLocal,  // one slot per instance of the owning process
  Local,         // one slot per frame of the owning CFA (parameters first)
  Field,         // a field of the owning class, read through the frame's `this`
};

struct Variable {
  std::string name;
  TypeRef type = nullptr;
  VarScope scope = VarScope::Global;
  CfaId owner = kNone;  // Local/ProcessLocal: the CFA; Field: the class index
  uint32_t slot = 0;    // index within its store (globals, process locals, frame, fields)
  bool isParam = false;
  bool hidden = false;  // compiler-made (e.g. the return value); not shown to users
  // Initial value for globals, process locals and fields (null: unconstrained for globals,
  // zero/default otherwise).
  ExprRef init = nullptr;
  SourceLoc loc;
};

struct Assignment {
  ExprRef lhs;  // an lvalue: Var, Select, Field, Deref
  ExprRef rhs;  // null: havoc (any value of the type)
};

enum class EdgeKind : uint8_t {
  Command,  // enabled iff guard; then the assignments, in parallel
  Assert,   // cond must hold (else error `errorKind`); then continue
  Assumed,  // verification annotation: `assumed cond as id` (executes as `skip`, records cond)
  Call,     // push a frame of `callee` with `args`; `result` receives the return value
  Return,   // from the exit location: pop the frame, resume the caller at its call's `to`
  Sync,     // a send or receive on a rendezvous channel: never a step alone; paired with a
            // matching Sync edge of another thread into one step (Evaluator::executeSync)
};

struct Edge {
  EdgeKind kind = EdgeKind::Command;
  LocId from = kNone, to = kNone;
  ExprRef guard = nullptr;  // Command: null means true
  std::vector<Assignment> assigns;
  // Command: the assignments run one after another (DVE effects), not in parallel.
  bool sequential = false;
  ExprRef cond = nullptr;      // Assert, Assumed
  ExprRef premise = nullptr;   // Assert: `verified A` premise over assumed ids (null: none)
  uint32_t assumedId = kNone;  // Assumed: index into Program::assumedNames
  ErrorKind errorKind = ErrorKind::Assert;
  CfaId callee = kNone;  // Call
  std::vector<ExprRef> args;
  ExprRef result = nullptr;  // Call: lvalue for the result, or null
  // Sync: the rendezvous channel, whether this end sends, and the channel's index in an array
  // (null for a single channel). A send's values are in `args`. A receive reads the message as
  // Op::Received in its guard (constants that must match) and its assignments (the targets).
  // Guard and assignments (DVE effects) belong to this end.
  uint32_t channel = kNone;
  bool syncSend = false;
  ExprRef chanIndex = nullptr;
  SourceLoc loc;
  std::string text;  // the statement as written, for traces and `tandem ir`
};

// A channel (LANGUAGE.md, Channels), lowered by ChannelLowering (mc/ir/channels.h).
struct Channel {
  std::string name;
  uint32_t count = 1;     // channels in the array (1 for a single channel)
  bool isArray = false;   // `chan c[N]`: named c[i]
  uint32_t capacity = 0;  // 0: rendezvous
  std::vector<TypeRef> fields;
  // Buffered: the number of messages held (int, or int[count] for an array) and per field the
  // slots (T[count * capacity]; channel i's messages at i*capacity .., the head first, unused
  // slots at their default so that equal contents are equal states).
  VarId length = kNone;
  std::vector<VarId> slots;
  SourceLoc loc;
};

struct Location {
  LocId id = kNone;
  CfaId cfa = kNone;
  std::vector<std::string> labels;  // user labels naming this location
  SourceLoc loc;                    // the statement that starts here
  std::vector<EdgeId> out;
  bool loopHead = false;  // target of a back edge
  bool atomic = false;    // strictly inside an `atomic` block: its process keeps the turn
  bool isEntry = false, isExit = false;
  bool callSite = false, afterCall = false, property = false;
  // A thread may stay here for ever without a deadlock, as at an `end` label (Horn clauses: a
  // derivation may stop anywhere).
  bool validEnd = false;
  // A cutpoint in every mode: the CHC front end's predicates, whose invariants a certificate
  // states (prove --certificate).
  bool keepCutpoint = false;
};

enum class CfaKind : uint8_t { Proc, Method, ClassInit, Process, Rules };

struct Cfa {
  std::string name;
  CfaKind kind = CfaKind::Proc;
  std::vector<VarId> params;
  std::vector<VarId> locals;  // all frame variables (params first), indexed by Variable::slot
  TypeRef returnType = nullptr;
  VarId resultVar = kNone;  // hidden local receiving `return e`
  LocId entry = kNone, exit = kNone;
  std::vector<LocId> locs;
  // Declarations initialised on entry, without a step (before the first statement).
  std::vector<Assignment> entryInits;
  bool concrete = false;  // @concrete: executed atomically, opaque to the solver
  bool pure = false;      // no writes to globals/fields/refs, no calls of impure code
  bool usesOld = false;
  std::vector<ExprRef> partitions;
  std::vector<ExprRef> predicates;   // scoped abstraction predicates
  uint32_t instances = 1;            // Process: N of `process P[N]`
  std::vector<VarId> processLocals;  // Process: its local variables (VarScope::ProcessLocal)
  uint32_t classIndex = kNone;       // Method, ClassInit
};

struct Native {
  std::string name;
  std::vector<TypeRef> params;
  std::vector<VarId> paramVars;  // hidden variables naming the parameters in `partitions`
  TypeRef returnType = nullptr;
  std::vector<ExprRef> partitions;
  SourceLoc loc;
};

struct Property {  // `invariant name: e;` (and --invariant from the command line)
  std::string name;
  ExprRef expr = nullptr;
  SourceLoc loc;
};

struct ClassInfo {
  std::string name;
  TypeRef type = nullptr;
  std::vector<VarId> fields;  // VarScope::Field, slot = field index
  CfaId init = kNone;
  std::vector<CfaId> methods;
  std::vector<ExprRef> predicates;  // the declared ones, then the class invariants'
  // `invariant [name:] e;` in the class: asserted (ErrorKind::Invariant) at the exit of init and
  // of every method, so every engine checks it; prove also abstracts by it.
  std::vector<Property> invariants;
  std::vector<std::string> invariantTexts;  // as written, for traces: `class invariant n: e`
};

struct Test {
  bool isState = false;
  std::string target;             // procedure or class
  CfaId cfa = kNone;              // entry procedure or class initialiser
  std::vector<ExprRef> args;      // constants
  std::vector<Assignment> state;  // isState: global := constant
  SourceLoc loc;
};

// A callee of Op::Call: natives first, then procedures by CFA id.
struct Callee {
  bool native = false;
  uint32_t index = 0;  // into natives or cfas
};

// The `partition(c1, ..., ck)` conditions of a native or @concrete procedure, over the variables
// that name its parameters (mixed concrete-symbolic solving tries them one at a time).
struct CalleePartitions {
  std::span<const ExprRef> conditions;
  std::span<const VarId> params;  // params[i] is the variable of parameter i in `conditions`
};

struct Program {
  std::string file;
  // Shared by a program's clones (the tables only grow: a clone's new expressions do not
  // change the original's).
  std::shared_ptr<TypeTable> types;
  std::shared_ptr<ExprManager> exprs;
  // `--check overflow` (off by default, as CBMC's --signed-overflow-check): i32/i64 +, -, *, unary
  // -, abs, / and % that wrap raise ErrorKind::Overflow in every evaluator instead of wrapping.
  // Part of the program's semantics (like -ftrapv), so the evaluators read it here.
  bool checkOverflow = false;

  std::vector<Variable> vars;
  std::vector<Location> locs;
  std::vector<Edge> edges;
  std::vector<Cfa> cfas;
  std::vector<Native> natives;
  std::vector<ClassInfo> classes;
  std::vector<Callee> callees;      // Op::Call payload
  std::vector<VarId> globals;       // in slot order
  std::vector<ExprRef> inits;       // `init e;`
  std::vector<ExprRef> predicates;  // global predicates
  // Whether the model declares `predicate`s (those above also hold the conjuncts of contracts
  // and class invariants, which do not keep prove from adding its default predicates).
  bool declaredPredicates = false;
  std::vector<Property> invariants;
  std::vector<Test> tests;
  std::vector<CfaId> processes;  // closed system: process CFAs in declaration order
  CfaId rules = kNone;           // the CFA holding every `rule` (one location, self-loops)
  std::vector<std::string> assumedNames;
  std::vector<Channel> channels;
  // Whether threads have valid end states (the end of a body, a label starting with `end`, as
  // SPIN's end labels). DVE models have none: DiVinE reports every state without successors.
  bool endStates = true;
  // The CHC front end (mc/horn/lower.h): each predicate as the input declares it (its SMT-LIB
  // symbol and argument sorts), with its location and the locals holding its arguments.
  struct HornPredicate {
    std::string symbol;              // as SMT-LIB text: `inv`, `|main@%_1|`
    std::vector<std::string> sorts;  // "Int", "Bool"
    LocId loc = kNone;
    std::vector<VarId> args;
  };
  std::vector<HornPredicate> hornPredicates;

  bool isClosed() const { return !processes.empty() || rules != kNone; }
  // A copy to rewrite (ir::assumeAssertions, an error location of cover --prove-infeasible):
  // its own variables, locations, edges and procedures; the types and expressions shared.
  std::unique_ptr<Program> clone() const { return std::make_unique<Program>(*this); }
  // When each `init` condition is evaluated while an initial state is built (LANGUAGE.md,
  // "Initial states"): as soon as every global it reads is initialised. Entry i lists the
  // conditions (indices into `inits`) due once globals[0..i-1] are, so entry 0 holds those that
  // read no global and the vector has globals.size() + 1 entries. An initialiser that fails is an
  // error for the inputs where every condition due before it holds; the others are not initial.
  std::vector<std::vector<size_t>> initSchedule() const;
  // Whether some edge is a rendezvous (Sync) edge: engines without pairing refuse the model.
  bool hasRendezvous() const;
  // A location labelled `end...` (SPIN's end labels) or marked Location::validEnd: a valid end
  // state of its process.
  bool endLabelled(LocId l) const;
  const Cfa* findCfa(const std::string& name) const;
  CfaId findCfaId(const std::string& name, CfaKind kind) const;
  // The location labelled `label`, anywhere (labels are unique per CFA; reports use the first).
  std::optional<LocId> findLabel(const std::string& label) const;
  // The first label of a location, or a synthetic name like `foo#3`.
  std::string locName(LocId l) const;
  // The partitions of callee `callee` (an Op::Call payload); empty for a bad id.
  CalleePartitions partitionsOf(uint32_t callee) const;
  // The name of a callee of Op::Call (native or procedure).
  std::string calleeName(uint32_t callee) const;
  const Location& loc(LocId l) const { return locs[l]; }
  const Edge& edge(EdgeId e) const { return edges[e]; }
  const Variable& var(VarId v) const { return vars[v]; }
  // Appends a variable (its other fields at their defaults) and returns its id.
  VarId addVariable(std::string name, TypeRef type, VarScope scope, CfaId owner, uint32_t slot);
};

// The out-edge lists of a program whose front end filled `edges` only, and the loop heads of its
// processes (targets of back edges of a depth-first search from their entries).
void linkEdges(Program& p);

// Every assertion of `p` but `keep` becomes an assumption: an execution that fails one ends there
// silently (prove --annotate proves one assertion alone; cover --prove-infeasible asks about
// reaching a location, as the reachability verification condition does).
void assumeAssertions(Program& p, EdgeId keep = kNone);

}  // namespace tandem::ir
