// The parser's internals, shared by parser.cpp (token handling and error recovery),
// parser_decl.cpp, parser_stmt.cpp and parser_expr.cpp. Not part of the public API: include
// mc/lang/parser.h instead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mc/lang/ast.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/token.h"

namespace tandem::parse_detail {

// Thrown once a syntax error has been reported; caught where the parser resynchronises (the
// statement, class member and top-level loops). Exceptions keep the many parse functions free of
// error plumbing; recovery points are few and explicit.
struct SyntaxError {};

class Parser {
 public:
  Parser(std::vector<Token> tokens, Diagnostics& diags);
  std::unique_ptr<ast::Program> program();
  ast::ExprPtr standaloneExpression();

 private:
  // Counts nesting levels taken within one parse function; gives them back when it returns
  // (normally or by SyntaxError).
  class Nesting {
   public:
    explicit Nesting(Parser& p) : p_(p) {}
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    ~Nesting() { p_.depth_ -= added_; }
    void deeper(SourceLoc loc);

   private:
    Parser& p_;
    int added_ = 0;
  };

  // --- tokens (parser.cpp) ---
  const Token& peek(size_t ahead = 0) const;
  bool at(Tok t) const { return peek().kind == t; }
  bool accept(Tok t);
  const Token& advance();
  // Consumes a `t` or fails with "expected 't' CONTEXT, found X".
  const Token& expect(Tok t, std::string_view context);
  // A missing `;` is reported just after the previous token ("expected ';' after CONTEXT"). When
  // the next token starts a new line, parsing goes on as if the `;` were there.
  void expectSemi(std::string_view context);
  // An identifier, or "expected WHAT, found X".
  std::string expectIdent(std::string_view what, SourceLoc* loc = nullptr);
  [[noreturn]] void fail(SourceLoc loc, std::string message);
  [[noreturn]] void failExpected(std::string_view what);
  static std::string describe(const Token& t);
  std::string hint() const;
  std::string topLevelHint(const Token& t);
  SourceLoc endOfPrevious() const;

  // --- error recovery (parser.cpp) ---
  bool atTopLevelStart() const;
  // `test` followed by a name or `{`: `test` is a keyword only there (procedures may be named
  // `test`).
  bool atTestDecl() const;
  // `chan` followed by a name: `chan` is a keyword only there (LANGUAGE.md, Channels).
  bool atChanDecl() const;
  // A statement `c ! ...` or `c[e] ? ...` (a send or a receive).
  bool atChannelOp() const;
  // A keyword that starts a top-level or class declaration but never a statement: a block that
  // reaches one is missing its `}`.
  bool atDeclOnlyStart() const;
  void syncTopLevel();
  // Skips to just after the next `;` (or a `{...}` group), or to a `}` closing the enclosing
  // block or a declaration keyword, without consuming those.
  void syncStatement();

  // --- declarations (parser_decl.cpp) ---
  void topLevelDecl(ast::Program& prog);
  void constDecl(ast::Program& prog);
  void enumDecl(ast::Program& prog);
  std::unique_ptr<ast::GlobalVarDecl> varDecl();
  ast::NamedExpr namedExpr(bool allowName);
  void nativeDecl(ast::Program& prog);
  std::unique_ptr<ast::ProcDecl> procDecl(bool concrete, SourceLoc loc);
  void contracts(ast::ProcDecl& d);
  void classDecl(ast::Program& prog);
  void classMember(ast::ClassDecl& cls);
  void processDecl(ast::Program& prog);
  void ruleDecl(ast::Program& prog);
  void testDecl(ast::Program& prog);
  void chanDecl(ast::Program& prog);
  std::vector<ast::Param> params();
  std::vector<ast::ExprPtr> partitions();

  // --- statements (parser_stmt.cpp) ---
  // `{ stmts }`: expects the `{`.
  std::vector<ast::StmtPtr> block(std::string_view context);
  // The statements up to the `}` (which it consumes); `{` already consumed.
  std::vector<ast::StmtPtr> blockRest();
  ast::StmtPtr statement();
  ast::StmtPtr unlabelledStatement();
  ast::StmtPtr assignment();
  ast::StmtPtr channelOp();

  // --- expressions and types (parser_expr.cpp) ---
  ast::ExprPtr expression();
  // An expression where a lone `*` means "any value": right-hand sides, initialisers, `if (*)`.
  ast::ExprPtr valueOrStar();
  std::vector<ast::ExprPtr> arguments();  // `( e, ... )`
  ast::ExprPtr conditional();
  ast::ExprPtr implication();
  ast::ExprPtr binary(int level);
  ast::ExprPtr unary();
  ast::ExprPtr postfix();
  ast::ExprPtr primary();
  ast::ExprPtr newExpr();
  bool atExpressionStart() const;
  ast::TypeExprPtr type();
  ast::TypeExprPtr baseType();

  std::vector<Token> toks_;
  size_t pos_ = 0;
  bool promelaHinted_ = false;  // the Promela hint is given once per file
  Diagnostics& diags_;
  int depth_ = 0;
};

}  // namespace tandem::parse_detail
