// Symbolic states of the symbolic executor (SPF-style): the shape of exec::State for one thread,
// with values that are expressions (concrete constants or terms over symbols), a path condition,
// and the record of the path that a concrete replay must follow.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mc/exec/state.h"
#include "mc/exec/value.h"
#include "mc/ir/program.h"

namespace tandem::symbolic {

// A construct the symbolic executor does not handle: the command says "not implemented yet"
// rather than give a verdict that ignores it.
class NotImplemented : public std::runtime_error {
 public:
  explicit NotImplemented(const std::string& what)
      : std::runtime_error(what + ": not implemented yet in symbolic execution") {}
};

// Formulas whose models are inputs that make the concrete execution follow a path (mixed solving:
// simplePC, extraPC and complexPC with the concrete results; path_solver.h). Null means the path
// condition itself.
using Certificate = std::shared_ptr<const std::vector<ExprRef>>;

// A place in a symbolic state: a variable (a global, a local of the frame at depth `frame`, a
// field of heap object `object`, a process-local variable of thread `thread`) and a path of array
// indices below it, each a constant or a term. An lvalue whose evaluation failed has
// slot == ir::kNone (no place: the path fails there).
struct SymAddress {
  exec::AddressBase base = exec::AddressBase::Global;
  uint32_t frame = 0;                       // Local
  exec::ObjectId object = exec::kNoObject;  // Field
  uint32_t slot = 0;
  std::vector<ExprRef> path;
  exec::ThreadId thread = 0;  // ProcessLocal

  bool valid() const { return slot != ir::kNone; }
  static SymAddress none() { return SymAddress{exec::AddressBase::Global, 0, 0, ir::kNone, {}}; }
};

// Values:
// - Scalar: an expression of a scalar type.
// - Ref: a reference to a SymAddress (its indices may be symbolic), or null (no address). Null of
//   a class type is a Ref without address too.
// - Object: a reference to a heap object (its id is concrete: allocation is deterministic).
// - Array, two forms: `elems` (a concrete length, one value per element: arrays from literals and
//   from `new` with a constant length), or symbolic (elems null): `expr` is an array-typed term
//   (a symbol, `new T[n]`, stores over them) and `length` an int term. The symbolic form holds
//   scalar elements only.
struct SymValue {
  enum class Kind : uint8_t { Scalar, Ref, Object, Array };
  Kind kind = Kind::Scalar;
  ExprRef expr = nullptr;                              // Scalar; symbolic Array: the array term
  ExprRef length = nullptr;                            // symbolic Array
  std::optional<SymAddress> addr;                      // Ref: nullopt is null
  exec::ObjectId object = exec::kNoObject;             // Object
  std::shared_ptr<const std::vector<SymValue>> elems;  // Array with a concrete length

  static SymValue scalar(ExprRef e) {
    SymValue v;
    v.expr = e;
    return v;
  }
  static SymValue nullRef() {
    SymValue v;
    v.kind = Kind::Ref;
    return v;
  }
  static SymValue ref(SymAddress a) {
    SymValue v;
    v.kind = Kind::Ref;
    v.addr = std::move(a);
    return v;
  }
  static SymValue objectRef(exec::ObjectId o) {
    SymValue v;
    v.kind = Kind::Object;
    v.object = o;
    return v;
  }
  static SymValue array(std::vector<SymValue> xs) {
    SymValue v;
    v.kind = Kind::Array;
    v.elems = std::make_shared<const std::vector<SymValue>>(std::move(xs));
    return v;
  }
  static SymValue symbolicArray(ExprRef term, ExprRef length) {
    SymValue v;
    v.kind = Kind::Array;
    v.expr = term;
    v.length = length;
    return v;
  }
  bool isSymbolicArray() const { return kind == Kind::Array && !elems; }
  bool isNull() const { return kind == Kind::Ref && !addr; }
};

struct SymObject {
  uint32_t classIndex = ir::kNone;
  std::vector<SymValue> fields;  // by field index (Variable::slot)
};

// Globals and heap at a frame's entry, for `old(e)`.
struct SymSnapshot {
  std::vector<SymValue> globals;
  std::vector<SymObject> heap;
};

struct SymFrame {
  ir::CfaId cfa = ir::kNone;
  ir::LocId pc = ir::kNone;
  std::vector<SymValue> locals;  // by Variable::slot
  ir::EdgeId callEdge = ir::kNone;
  exec::ObjectId self = exec::kNoObject;   // `this` of a method or class initialiser
  std::shared_ptr<const SymSnapshot> old;  // when the CFA uses old()
};

// A method call of the class analysis: the method, its argument symbols (one input per
// parameter) and where its edges start in SymState::path.
struct SymCall {
  ir::CfaId method = ir::kNone;
  std::vector<ExprRef> args;
  size_t pathStart = 0;
};

// A thread of a closed system (exec::Thread without its call stack): its process, its `pid` and
// its process-local variables. The rule set's thread has none.
struct SymThread {
  ir::CfaId cfa = ir::kNone;
  uint32_t instance = 0;
  std::vector<SymValue> locals;  // by Variable::slot
};

struct SymState {
  std::vector<SymValue> globals;  // by Variable::slot
  // Closed systems: every thread, and the one whose code `frames` run (its `pid` and process
  // locals are the ones unqualified names mean). Open systems: none.
  std::vector<SymThread> threads;
  exec::ThreadId thread = 0;
  std::vector<SymObject> heap;       // by object id, in allocation order
  std::vector<SymFrame> frames;      // bottom first
  std::vector<ExprRef> pathCond;     // conjuncts, none of them constant true
  Certificate certificate;           // of the last sat answer about pathCond
  std::vector<uint32_t> pathCondAt;  // per conjunct: the number of path edges before it was added
  std::vector<ir::EdgeId> path;      // edges taken from the entry state
  std::vector<ExprRef> havocs;       // havoc symbols, in the order a concrete chooser is asked
  std::vector<SymCall> calls;        // class analysis: the method calls after init, in order
  // Conditions that keep the path within the reference evaluator's limits (array lengths), which
  // symbolic execution does not have: a concrete replay needs them, exploration does not.
  std::vector<ExprRef> limits;
  uint32_t depth = 0;  // steps taken
  // Set aside by a `tryfirst` of --guide and explored later: no `tryfirst` interrupts it again.
  bool resumed = false;
  // --guide: when the execution so far ran an assertion without its premise, or an implicit
  // check (null: never).
  ExprRef unverified = nullptr;
  // During a rendezvous step only: the values sent, which the receiver's guard and assignments
  // read (Op::Received).
  std::vector<SymValue> message;

  SymFrame& top() { return frames.back(); }
  const SymFrame& top() const { return frames.back(); }
  // Gives the conjuncts added to pathCond since the last stamp the path's length now.
  void stampPathCond() {
    if (pathCondAt.size() < pathCond.size())
      pathCondAt.resize(pathCond.size(), static_cast<uint32_t>(path.size()));
  }
};

}  // namespace tandem::symbolic
