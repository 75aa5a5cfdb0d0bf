// The abstract syntax tree of a Tandem (.tdm) file, as the parser builds it. The type checker
// fills in the `type` and `resolved` annotations; lowering (mc/ir) reads the annotated tree.
// Nodes are tagged structs rather than a class hierarchy: the language is small, and one switch
// per pass reads better than a visitor.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mc/expr/types.h"
#include "mc/lang/source.h"

namespace tandem::ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

// ---------------------------------------------------------------------------------------------
// Type expressions as written.
struct TypeExpr {
  enum class Kind { Int, I32, I64, F64, Bool, Named, Array, Ref };
  Kind kind = Kind::Int;
  SourceLoc loc;
  std::string name;                // Named: an enum or a class
  std::unique_ptr<TypeExpr> elem;  // Array, Ref
  ExprPtr size;                    // Array: constant length, or null for `T[]`
};
using TypeExprPtr = std::unique_ptr<TypeExpr>;

// ---------------------------------------------------------------------------------------------
// Expressions.
enum class UnOp { Neg, Not, Deref, AddrOf };
enum class BinOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Implies };

// What a name (or call, or process reference) resolved to; set by the type checker.
enum class RefKind {
  Unresolved,
  Var,         // a variable: `decl` points at its VarInfo
  Const,       // a named constant (value folded into `constValue`)
  EnumMember,  // `enumIndex` within `type`
  Pid,         // `pid` inside process P[N]
  Proc,        // call of a procedure (`callee`)
  Native,      // call of a native function (`callee` is its name)
  Builtin,     // abs, min, max, len, old, no_overflow_add, no_overflow_mul, int, i32, i64, f64,
               // the f64 natives (sqrt, ...) are Native
  Process,     // a process name (inside P@L, P.v, P[i]@L, P[i].v)
  Assumed,     // an `assumed ... as id` name inside a `verified` premise
  Method,      // call of a method of the enclosing class (`callee`)
  Channel,     // a channel name (in a send, a receive, len/empty/full): `constValue` is its
               // index in Program::chans
};

struct VarInfo;  // declared below

struct Expr {
  enum class Kind {
    IntLit,     // `text` holds the decimal digits (any size)
    FloatLit,   // `text` holds the f64 literal as written (`1.5`, `2.0e-3`, `1e9`)
    BoolLit,    // `boolValue`
    Null,       // `null`
    Star,       // `*` as a value: only in `x := *`, `if (*)`, `while (*)`
    Name,       // `name`
    Unary,      // `unop` args[0]
    Binary,     // `binop` args[0], args[1]
    Cond,       // args[0] ? args[1] : args[2]
    Index,      // args[0][args[1]]
    Field,      // args[0].name  (object field, or P.v / P[i].v)
    AtLabel,    // args[0]@name  (args[0] is Name P or Index(Name P, i))
    Call,       // name(args...)
    NewArray,   // new elemType[args[0]]
    NewObject,  // new name(args...)
    ArrayLit,   // [args...]
  };
  Kind kind = Kind::IntLit;
  SourceLoc loc;
  std::string text;  // IntLit digits, FloatLit text
  bool boolValue = false;
  std::string name;  // Name, Field, AtLabel (the label), Call, NewObject
  UnOp unop = UnOp::Neg;
  BinOp binop = BinOp::Add;
  std::vector<ExprPtr> args;
  TypeExprPtr elemType;  // NewArray

  // --- annotations (type checker) ---
  TypeRef type = nullptr;
  RefKind ref = RefKind::Unresolved;
  VarInfo* var = nullptr;    // RefKind::Var
  long long constValue = 0;  // RefKind::Const (ints that fit), EnumMember index
  std::string constText;     // RefKind::Const: exact decimal value (any size) or "true"/"false"
};

// ---------------------------------------------------------------------------------------------
// Statements.
struct Stmt {
  enum class Kind {
    VarDecl,  // var name: declType [= args[0]]   (args[0] may be a Star or a Call)
    Assign,   // lhs[i] := rhs[i] (parallel); rhs may be a single Star or Call
    Havoc,    // havoc lhs...
    If,       // if (cond) body[0] [else body[1]]; cond may be Star
    While,    // while (cond) body[0]; cond may be Star
    Break,
    Continue,
    Goto,     // goto targets...
    Assume,   // assume cond
    Assert,   // assert cond [verified premise]
    Assumed,  // assumed cond as name
    Skip,
    Return,     // return [cond]
    CallStmt,   // call f(args)   (`cond` holds the Call expression)
    Await,      // await cond
    Atomic,     // atomic { body... }
    Block,      // { body... }
    Predicate,  // predicate cond;  (an abstraction predicate scoped to the enclosing body)
    Send,       // cond ! rhs...   (cond: the channel, a Name or Index(Name, i))
    Receive,    // cond ? lhs...   (each lhs an lvalue, or a constant that must match)
  };
  Kind kind = Kind::Skip;
  SourceLoc loc;
  std::vector<std::string> labels;  // `L: S` (several labels may name the same location)
  std::vector<SourceLoc> labelLocs;

  std::string name;           // VarDecl name, Assumed id
  TypeExprPtr declType;       // VarDecl
  std::vector<ExprPtr> lhs;   // Assign, Havoc
  std::vector<ExprPtr> rhs;   // Assign; VarDecl initialiser is rhs[0] if present
  ExprPtr cond;               // If/While/Assume/Assert/Assumed/Return/Await/CallStmt/Predicate
  ExprPtr premise;            // Assert ... verified premise
  std::vector<StmtPtr> body;  // If: then (and else as body[1]); While; Atomic; Block
  bool hasElse = false;       // If
  std::vector<std::string> targets;  // Goto
  std::vector<SourceLoc> targetLocs;

  // --- annotations (type checker) ---
  VarInfo* var = nullptr;     // VarDecl: the declared variable
  std::vector<bool> matches;  // Receive: lhs[i] is a constant the message must carry there
};

// ---------------------------------------------------------------------------------------------
// Declarations.

// Where a variable lives. Lowering assigns slots per scope.
enum class VarScope { Global, ProcessLocal, Local, Param, Field };

struct VarInfo {
  std::string name;
  TypeRef type = nullptr;
  VarScope scope = VarScope::Global;
  SourceLoc loc;
  std::string owner;   // the procedure, method, process or class that declares it ("" for globals)
  uint32_t index = 0;  // position among the variables of the same owner and scope (set by checker)
};

struct Param {
  std::string name;
  TypeExprPtr type;
  SourceLoc loc;
  VarInfo* var = nullptr;  // annotation
};

struct ConstDecl {
  std::string name;
  TypeExprPtr type;
  ExprPtr value;
  SourceLoc loc;
};

struct EnumDecl {
  std::string name;
  std::vector<std::string> members;
  std::vector<SourceLoc> memberLocs;
  SourceLoc loc;
};

struct GlobalVarDecl {
  std::string name;
  TypeExprPtr type;
  ExprPtr init;  // null: unconstrained (an input of the system)
  SourceLoc loc;
  std::unique_ptr<VarInfo> var;  // annotation (owned here)
};

struct NamedExpr {  // init, predicate, invariant (name may be empty)
  std::string name;
  ExprPtr expr;
  SourceLoc loc;
};

struct NativeDecl {
  std::string name;
  std::vector<Param> params;
  TypeExprPtr returnType;  // natives always return a value
  std::vector<ExprPtr> partitions;
  SourceLoc loc;
};

struct ProcDecl {
  std::string name;
  bool concrete = false;  // @concrete
  std::vector<Param> params;
  TypeExprPtr returnType;  // null: no result
  std::vector<ExprPtr> partitions;
  // Contracts: `requires e;` (over the parameters, globals and, in a method, the fields) is
  // asserted at each call and assumed on entry; `ensures e;` (also `old(..)` and `result`) is
  // asserted where the body ends.
  std::vector<ExprPtr> preconditions, postconditions;
  std::vector<StmtPtr> body;
  SourceLoc loc;
  // annotations
  std::vector<std::unique_ptr<VarInfo>> vars;  // params first, then locals, in order
  std::unique_ptr<VarInfo> result;             // `result` in `ensures` (a result type only)
  bool pure = false;  // writes no globals, fields or references; calls only pure code
  bool usesOld = false;
};

struct ClassDecl {
  std::string name;
  std::vector<std::unique_ptr<GlobalVarDecl>> fields;  // `var f: T;` (initialisers allowed)
  std::vector<NamedExpr> predicates;
  std::vector<NamedExpr> invariants;               // `invariant [name:] e;` over the fields
  std::unique_ptr<ProcDecl> init;                  // `init(params) {...}`, name "init"
  std::vector<std::unique_ptr<ProcDecl>> methods;  // `method m(params) [: T] {...}`
  SourceLoc loc;
};

struct ProcessDecl {
  std::string name;
  ExprPtr count;  // `process P[N]`: N; null for a single process
  std::vector<StmtPtr> body;
  SourceLoc loc;
  // annotations
  long long instances = 1;
  std::vector<std::unique_ptr<VarInfo>> vars;  // process-local variables
};

// `chan c = [cap] of { T, ... };` or `chan c[N] = [cap] of { ... };` (an array of N channels).
struct ChanDecl {
  std::string name;
  ExprPtr count;     // null: a single channel
  ExprPtr capacity;  // 0: rendezvous
  std::vector<TypeExprPtr> fields;
  SourceLoc loc;
  // annotations (type checker)
  long long instances = 1;
  long long cap = 0;
  std::vector<TypeRef> fieldTypes;
};

struct RuleDecl {
  std::string name;
  ExprPtr guard;
  std::vector<ExprPtr> lhs;
  std::vector<ExprPtr> rhs;
  SourceLoc loc;
};

struct TestDecl {
  // `test f(args);` / `test C(args);`  or  `test { x = 1, y = 5 };`
  bool isState = false;
  std::string target;
  std::vector<ExprPtr> args;
  std::vector<std::string> names;  // isState: variable names
  std::vector<SourceLoc> nameLocs;
  std::vector<ExprPtr> values;  // isState: values
  SourceLoc loc;
};

// A whole file. The order of declarations is kept for printing.
struct Program {
  enum class DeclKind {
    Const,
    Enum,
    Var,
    Init,
    Predicate,
    Invariant,
    Native,
    Proc,
    Class,
    Process,
    Rule,
    Test,
    Chan
  };
  struct DeclRef {
    DeclKind kind;
    size_t index;  // into the vector of that kind
  };
  std::vector<DeclRef> order;
  std::vector<ConstDecl> consts;
  std::vector<EnumDecl> enums;
  std::vector<std::unique_ptr<GlobalVarDecl>> globals;
  std::vector<NamedExpr> inits;
  std::vector<NamedExpr> predicates;
  std::vector<NamedExpr> invariants;
  std::vector<NativeDecl> natives;
  std::vector<std::unique_ptr<ProcDecl>> procs;
  std::vector<std::unique_ptr<ClassDecl>> classes;
  std::vector<std::unique_ptr<ProcessDecl>> processes;
  std::vector<RuleDecl> rules;
  std::vector<TestDecl> tests;
  std::vector<ChanDecl> chans;
  // Variables the checker creates that no declaration owns (native parameters).
  std::vector<std::unique_ptr<VarInfo>> extraVars;
};

}  // namespace tandem::ast
