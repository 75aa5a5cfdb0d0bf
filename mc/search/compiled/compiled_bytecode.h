// The bytecode of the compiled transition system: a small stack machine over the int64 slots of
// a state (compiled_layout.h). Guards, assertions, invariants and effects are compiled to it
// (compiled_compiler.h). Integers are the language's unbounded `int`: an operation whose result
// leaves int64 stops with Overflow and the caller hands that step to the reference evaluator;
// division by zero and indices out of bounds stop with the error the reference would report.
// Running never allocates (except to format an error message).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::search {

enum class Opc : uint8_t {
  Const,     // push b
  Load,      // push s[a]
  LoadT,     // push s[tb + a]  (a variable of the running thread)
  LoadDyn,   // x = pop; push s[x]  (x an absolute slot, computed from checked indices)
  LoadMsg,   // push msg[a]: a field of the message a rendezvous receive takes
  AddrT,     // push tb + a
  Index,     // i = pop; out of [0, a): error; push i * b
  Inst,      // i = pop; out of [0, a): error (process strings[b]); push i
  AddU,      // slot arithmetic on checked values: cannot overflow
  IndexAdd,  // Index, then AddU
  Pow2,      // i = pop; out of [0, a): error; push 2^i  (a table [1, 2, 4, ...] indexed by i)
  SlotAddK,  // top += b (slot arithmetic)
  SlotMulK,  // top *= b (slot arithmetic)
  Drop,      // pop
  Pid,       // push the running thread's instance
  PcEq,      // push s[a] == b
  Neg,
  Not,
  Abs,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Min,
  Max,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  // The operator with the constant b as its right operand (a Const folded in).
  AddK,
  SubK,
  MulK,
  EqK,
  NeK,
  LtK,
  LeK,
  GtK,
  GeK,
  Jmp,      // pc = a
  Jz,       // pop; if zero: pc = a
  JzKeep,   // if top is zero: pc = a (keeping it); else pop
  JnzKeep,  // if top is nonzero: pc = a (keeping it); else pop
  Store,    // v = pop; x = pop; s[x] = v
  StoreA,   // s[a] = pop
  StoreT,   // s[tb + a] = pop
  StoreN,   // a pairs (slot, value) on the stack, stored in order (a parallel assignment)
  Ret,      // stop; the result (if any) is the top of the stack
};

struct Ins {
  Opc op;
  int32_t a = 0;
  int64_t b = 0;
};

struct Code {
  std::vector<Ins> ins;  // ends with Ret
  unsigned maxStack = 0;
  bool empty() const { return ins.size() <= 1; }
};

enum class RunStatus : uint8_t { Ok, Error, Overflow };

struct RunError {
  ir::ErrorKind kind = ir::ErrorKind::Assert;
  std::string message;
};

// What code runs on: the slots (read and written in place), the running thread's base slot and
// instance, a stack of at least Code::maxStack entries, and names for error messages.
struct RunContext {
  int64_t* slots = nullptr;
  int64_t tb = 0;
  int64_t pid = 0;
  int64_t* stack = nullptr;
  const std::vector<std::string>* names = nullptr;  // process names for Inst errors
  const int64_t* msg = nullptr;                     // LoadMsg: the message received
};

// Runs `code`; on Ok, `result` is the top of the stack (0 when the code leaves nothing).
RunStatus run(const Code& code, const RunContext& ctx, int64_t& result, RunError& err);

}  // namespace tandem::search
