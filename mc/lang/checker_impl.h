// Internal to the type checker (checker_*.cpp): the checker's state and helpers.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mc/lang/ast.h"
#include "mc/lang/checker.h"

namespace tandem::check {

// What a top-level name denotes.
struct GlobalSym {
  enum class Kind { Const, EnumType, EnumMember, Var, Native, Proc, Class, Process, Chan };
  Kind kind;
  size_t index = 0;        // into the Program vector of that kind
  TypeRef type = nullptr;  // Const/EnumMember/Var type
  SourceLoc loc;
};

// The body being checked: a procedure, method, class initialiser or process.
struct BodyCtx {
  ast::ProcDecl* proc = nullptr;
  ast::ProcessDecl* process = nullptr;
  ast::ClassDecl* cls = nullptr;
  TypeRef returnType = nullptr;  // null: no result
  std::set<std::string> labels;
  std::set<std::string> assumedIds;
  int loopDepth = 0;
  int atomicDepth = 0;
  std::vector<std::unique_ptr<ast::VarInfo>>* vars = nullptr;  // where new locals go
  ast::VarScope localScope = ast::VarScope::Local;
  std::string owner;
};

class Checker {
 public:
  Checker(ast::Program& p, TypeTable& t, Diagnostics& d) : prog_(p), types_(t), diags_(d) {}
  bool run();
  bool checkStandalone(ast::Expr& e);
  bool checkStandalone(std::vector<ast::TestDecl>& tests);

 private:
  // --- declarations (checker_decls.cpp)
  void declareGlobals();
  void gatherProcessLabels();
  void declare(const std::string& name, GlobalSym sym);
  void checkConst(ast::ConstDecl& c);
  void checkGlobalVar(ast::GlobalVarDecl& g, ast::VarScope scope, uint32_t index,
                      const std::string& owner);
  void checkProcSignature(ast::ProcDecl& p, ast::ClassDecl* cls);
  void checkProcBody(ast::ProcDecl& p, ast::ClassDecl* cls);
  void checkContracts(ast::ProcDecl& p, ast::ClassDecl* cls);
  void checkClass(ast::ClassDecl& c);
  void checkProcess(ast::ProcessDecl& p);
  void checkRule(ast::RuleDecl& r);
  void checkTest(ast::TestDecl& t);
  void checkNative(ast::NativeDecl& n);
  // The variables of a procedure's or native's parameters, in order, into `out`; a repeated name
  // is an error.
  void declareParams(std::vector<ast::Param>& params, const std::string& owner,
                     std::vector<std::unique_ptr<ast::VarInfo>>& out);
  void checkPurity();
  TypeRef resolveType(ast::TypeExpr* t);
  std::optional<long long> foldConst(const ast::Expr& e);
  // The number of instances a `[count]` declares (process or channel arrays: 1 to 255), or an
  // error naming the declaration (`constant`, `range`) and nullopt.
  std::optional<long long> instanceCount(ast::Expr& count, const std::string& constant,
                                         const std::string& range);
  bool isConstantValue(const ast::Expr& e);

  // --- statements (checker_stmt.cpp)
  void collectLabels(std::vector<ast::StmtPtr>& body);
  void checkBlock(std::vector<ast::StmtPtr>& body);
  void checkStmt(ast::Stmt& s);
  void checkAssign(ast::Stmt& s);
  void checkVarDecl(ast::Stmt& s);
  void checkPremise(ast::Expr& e);
  bool checkLvalue(ast::Expr& e);
  // A call in statement position (`x := f(a)`, `call f(a)`): any procedure may be called.
  TypeRef checkCallStmt(ast::Expr& call, TypeRef expected);

  // --- channels (checker_chan.cpp)
  void checkChan(ast::ChanDecl& c);
  // A channel `c` or `c[i]`: its declaration, or null (reported).
  ast::ChanDecl* checkChannelRef(ast::Expr& e);
  void checkChannelOp(ast::Stmt& s);  // Send, Receive
  // `len(c)`, `empty(c)`, `full(c)` of a channel.
  TypeRef checkChannelBuiltin(ast::Expr& call);
  // Whether `e` (a Name or Index of a Name) names a channel: the argument of len is then one.
  bool namesChannel(const ast::Expr& e);

  // --- expressions (checker_expr.cpp)
  TypeRef checkExpr(ast::Expr& e, TypeRef expected = nullptr);
  TypeRef checkName(ast::Expr& e);
  TypeRef checkUnary(ast::Expr& e, TypeRef expected);
  TypeRef checkBinary(ast::Expr& e, TypeRef expected);
  TypeRef checkCall(ast::Expr& e, TypeRef expected, bool statementPosition);
  TypeRef checkBuiltin(ast::Expr& e, TypeRef expected);
  TypeRef checkField(ast::Expr& e);
  TypeRef checkAtLabel(ast::Expr& e);
  TypeRef checkCond(ast::Expr& e, const char* what);        // a condition of type bool
  void checkBranchCond(ast::Expr& cond, const char* what);  // the same, or `*` (either way)
  // Adapts an integer literal (or null) to `target` when legal; reports a mismatch otherwise.
  bool coerce(ast::Expr& e, TypeRef target, const std::string& what);
  bool isIntLiteral(const ast::Expr& e) const;
  void checkArgs(ast::Expr& call, const std::vector<ast::Param>& params, const std::string& name);
  ast::ProcessDecl* processOf(ast::Expr& e, ast::Expr** indexOut);
  ast::ProcDecl* findMethod(ast::ClassDecl* cls, const std::string& name);

  ast::VarInfo* lookupLocal(const std::string& name);
  const GlobalSym* lookupGlobal(const std::string& name) const;
  void error(SourceLoc loc, std::string msg) { diags_.error(loc, std::move(msg)); }

  ast::Program& prog_;
  TypeTable& types_;
  Diagnostics& diags_;
  std::map<std::string, GlobalSym> globals_;
  std::vector<std::map<std::string, ast::VarInfo*>> scopes_;  // innermost last
  BodyCtx* body_ = nullptr;
  bool inGlobalProperty_ = false;
  bool allowNewObject_ =
      false;  // `new C(...)` only as a whole right-hand side  // invariants may mention processes
  // Purity: which procedures write state, which they call, and calls inside expressions.
  std::map<ast::ProcDecl*, bool> writesState_;
  std::map<ast::ProcDecl*, std::set<ast::ProcDecl*>> callsProcs_;
  std::vector<std::pair<ast::ProcDecl*, ast::Expr*>> exprCalls_;  // (callee, call site)
  std::map<std::string, std::vector<std::string>> processLabels_;
};

std::string binOpText(ast::BinOp op);

}  // namespace tandem::check
