// The syntax tree of a DVE file, as the parser builds it. Only the supported subset is kept:
// unsupported constructs are reported by the parser and skipped.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/lang/source.h"

namespace tandem::dve {

enum class BinOp {
  Imply,
  Or,
  And,
  BitOr,
  BitXor,
  BitAnd,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Shl,
  Shr,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
};
enum class UnOp { Neg, Not, BitNot };

const char* binOpText(BinOp op);  // "||", "<<", ...

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind {
    Int,         // value
    Bool,        // true / false (value 1 / 0)
    Name,        // name
    Unary,       // unop kids[0]
    Binary,      // binop kids[0], kids[1]
    Index,       // kids[0][kids[1]]; kids[0] is a Name or a ProcMember
    ProcMember,  // process.member: `P.s` (state s, or local s) or `P->x` (local x)
  };
  Kind kind = Kind::Int;
  SourceLoc loc;  // Binary: the operator; others: the first character
  BigInt value;
  std::string name;    // Name; ProcMember: the process
  std::string member;  // ProcMember
  SourceLoc memberLoc;
  bool arrow = false;  // ProcMember written `P->x` (a variable, never a state)
  UnOp unop = UnOp::Neg;
  BinOp binop = BinOp::Add;
  std::vector<ExprPtr> kids;
};

struct VarDecl {
  std::string name;
  SourceLoc loc;
  bool isConst = false;
  bool isByte = true;  // byte or int
  ExprPtr size;        // arrays: the length; null for scalars
  bool hasInit = false;
  bool braced = false;  // `= {e, ...}`
  std::vector<ExprPtr> init;
};

struct Effect {
  ExprPtr lhs, rhs;
  SourceLoc loc;
};

// `channel a, b;` (untyped rendezvous channels: a message is one value or none, as used) or
// `channel {byte, int} c[N];` (typed; N = 0 rendezvous, N > 0 a buffer of N messages).
struct ChannelDecl {
  std::string name;
  SourceLoc loc;
  bool typed = false;
  std::vector<bool> fieldIsByte;  // typed: byte or int per field
  ExprPtr capacity;               // null: 0
};

// `sync c!e;`, `sync c!{e1, e2};`, `sync c!;` and `sync c?x;` ...
struct SyncOp {
  bool present = false;
  bool send = false;
  std::string channel;
  SourceLoc loc;  // the channel name
  std::vector<ExprPtr> items;
};

struct Transition {
  std::string from, to;
  SourceLoc loc, toLoc;         // loc: the source state's name
  std::vector<ExprPtr> guards;  // a conjunction (DVE allows `guard e1, e2;`)
  SyncOp sync;
  std::vector<Effect> effects;  // in order: they run left to right
  std::string text;             // as written, whitespace collapsed: "a -> b { guard x; }"
};

struct State {
  std::string name;
  SourceLoc loc;
};

struct Process {
  std::string name;
  SourceLoc loc;
  std::vector<VarDecl> vars;
  std::vector<State> states;
  std::string init;  // empty: missing
  SourceLoc initLoc;
  std::vector<Transition> trans;
};

struct Model {
  std::vector<VarDecl> globals;
  std::vector<ChannelDecl> channels;
  std::vector<Process> processes;
};

}  // namespace tandem::dve
