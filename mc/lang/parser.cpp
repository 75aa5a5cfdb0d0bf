// Public entry points, token handling and error recovery of the parser. The grammar itself is in
// parser_decl.cpp, parser_stmt.cpp and parser_expr.cpp.
#include "mc/lang/parser.h"

#include "mc/lang/lexer.h"
#include "mc/lang/parser_impl.h"

namespace tandem {

namespace parse_detail {

Parser::Parser(std::vector<Token> tokens, Diagnostics& diags)
    : toks_(std::move(tokens)), diags_(diags) {
  if (toks_.empty() || toks_.back().kind != Tok::End) toks_.push_back({Tok::End, "", {}});
}

void Parser::Nesting::deeper(SourceLoc loc) {
  ++added_;
  if (++p_.depth_ > kMaxNesting)
    p_.fail(loc, "nesting too deep (more than " + std::to_string(kMaxNesting) + " levels)");
}

// ---------------------------------------------------------------------------------------------
// Tokens.

const Token& Parser::peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

bool Parser::accept(Tok t) {
  if (!at(t)) return false;
  advance();
  return true;
}

const Token& Parser::advance() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;  // End is never consumed
  return t;
}

std::string Parser::describe(const Token& t) {
  if (t.kind == Tok::End) return "end of file";
  return "'" + t.text + "'";
}

SourceLoc Parser::endOfPrevious() const {
  if (pos_ == 0) return peek().loc;
  const Token& prev = toks_[pos_ - 1];
  return {prev.loc.line, prev.loc.col + static_cast<uint32_t>(prev.text.size())};
}

void Parser::fail(SourceLoc loc, std::string message) {
  diags_.error(loc, std::move(message));
  throw SyntaxError{};
}

// A hint for the mistakes newcomers from C, Java and Promela make most (empty: none).
std::string Parser::hint() const {
  const Token& t = peek();
  const Token* prev = pos_ > 0 ? &toks_[pos_ - 1] : nullptr;
  // `x++` stops at the second '+'; `x--` at what follows it (`-` is also a prefix).
  auto doubled = [](const Token& a, const Token& b) {
    return a.kind == b.kind && (a.kind == Tok::Plus || a.kind == Tok::Minus) &&
           a.loc.line == b.loc.line && a.loc.col + 1 == b.loc.col;
  };
  const Token* twice = prev && doubled(*prev, t)                               ? &t
                       : pos_ > 1 && doubled(toks_[pos_ - 2], toks_[pos_ - 1]) ? prev
                                                                               : nullptr;
  if (twice)
    return "Tandem has no '" + twice->text + twice->text + "': write 'x := x " + twice->text +
           " 1'";
  if (t.kind == Tok::Amp && prev && prev->kind != Tok::ColonEq && prev->kind != Tok::LParen &&
      prev->kind != Tok::Comma)
    return "Tandem has no bitwise operators; '&&' and '||' are the logical ones";
  if ((t.kind == Tok::KwInt || t.kind == Tok::KwBool || t.kind == Tok::KwI32 ||
       t.kind == Tok::KwI64 || t.kind == Tok::KwF64) &&
      peek(1).kind == Tok::Ident)
    return "declare a variable as 'var " + peek(1).text + ": " + t.text + " = ...;'";
  if (t.kind == Tok::ColonEq)
    for (size_t i = pos_; i-- > 0 && toks_[i].loc.line == t.loc.line;)
      if (toks_[i].kind == Tok::KwVar)
        return "a declaration initialises with '=', as in 'var x: T = e;'; ':=' assigns";
  if (prev && prev->kind == Tok::RParen &&
      ((t.kind == Tok::Ident && t.text == "returns") || t.kind == Tok::Arrow))
    return "the result type follows a colon: 'proc f(x: int): int { ... }'";
  return "";
}

void Parser::failExpected(std::string_view what) {
  std::string message = "expected " + std::string(what) + ", found " + describe(peek());
  if (std::string h = hint(); !h.empty()) message += " (" + h + ")";
  fail(peek().loc, std::move(message));
}

const Token& Parser::expect(Tok t, std::string_view context) {
  if (at(t)) return advance();
  std::string what = "'" + std::string(tokSpelling(t)) + "'";
  if (!context.empty()) what += " " + std::string(context);
  failExpected(what);
}

void Parser::expectSemi(std::string_view context) {
  if (accept(Tok::Semi)) return;
  std::string message = "expected ';' after " + std::string(context);
  if (std::string h = hint(); !h.empty()) message += " (" + h + ")";
  diags_.error(endOfPrevious(), std::move(message));
  bool newLine = pos_ > 0 && peek().loc.line > toks_[pos_ - 1].loc.line;
  if (!(newLine || at(Tok::RBrace) || at(Tok::End))) throw SyntaxError{};
}

std::string Parser::expectIdent(std::string_view what, SourceLoc* loc) {
  if (!at(Tok::Ident)) failExpected(what);
  if (loc) *loc = peek().loc;
  return advance().text;
}

// ---------------------------------------------------------------------------------------------
// Error recovery.

bool Parser::atTopLevelStart() const {
  switch (peek().kind) {
    case Tok::KwConst:
    case Tok::KwEnum:
    case Tok::KwVar:
    case Tok::KwInit:
    case Tok::KwPredicate:
    case Tok::KwInvariant:
    case Tok::KwNative:
    case Tok::KwProc:
    case Tok::KwClass:
    case Tok::KwProcess:
    case Tok::KwRule:
      return true;
    case Tok::Ident:
      return atTestDecl() || atChanDecl();
    case Tok::At:  // `@concrete proc`; other uses of `@` are inside expressions (P@L)
      return peek(1).kind == Tok::Ident && peek(1).text == "concrete";
    default:
      return false;
  }
}

bool Parser::atTestDecl() const {
  return at(Tok::Ident) && peek().text == "test" &&
         (peek(1).kind == Tok::Ident || peek(1).kind == Tok::LBrace);
}

bool Parser::atChanDecl() const {
  return at(Tok::Ident) && peek().text == "chan" && peek(1).kind == Tok::Ident;
}

bool Parser::atChannelOp() const {
  if (!at(Tok::Ident)) return false;
  size_t i = 1;
  if (peek(i).kind == Tok::LBracket) {  // `c[e] !` / `c[e] ?`: skip the balanced index
    int depth = 0;
    for (;; ++i) {
      Tok t = peek(i).kind;
      if (t == Tok::End || t == Tok::Semi || t == Tok::LBrace || t == Tok::RBrace) return false;
      if (t == Tok::LBracket) ++depth;
      if (t == Tok::RBracket && --depth == 0) break;
    }
    ++i;
  }
  return peek(i).kind == Tok::Bang || peek(i).kind == Tok::Question;
}

bool Parser::atDeclOnlyStart() const {
  switch (peek().kind) {
    case Tok::KwVar:
    case Tok::KwPredicate:
      return false;  // also statements
    case Tok::KwMethod:
      return true;
    default:
      return atTopLevelStart();
  }
}

void Parser::syncTopLevel() {
  int depth = 0;
  while (!at(Tok::End)) {
    if (depth == 0 && atTopLevelStart()) return;
    Tok t = advance().kind;
    if (t == Tok::LBrace) {
      ++depth;
    } else if (t == Tok::RBrace) {
      if (depth > 0 && --depth == 0) return;
    } else if (t == Tok::Semi && depth == 0) {
      return;
    }
  }
}

void Parser::syncStatement() {
  int depth = 0;
  while (!at(Tok::End)) {
    if (depth == 0 && (at(Tok::RBrace) || atDeclOnlyStart())) return;
    Tok t = advance().kind;
    if (t == Tok::LBrace) {
      ++depth;
    } else if (t == Tok::RBrace) {
      // A skipped `if (...) {...}` may go on with `else`: skip that too rather than report it.
      if (--depth == 0 && !at(Tok::KwElse)) return;
    } else if (t == Tok::Semi && depth == 0) {
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Entry points.

std::unique_ptr<ast::Program> Parser::program() {
  auto prog = std::make_unique<ast::Program>();
  while (!at(Tok::End)) {
    size_t before = pos_;
    try {
      topLevelDecl(*prog);
    } catch (const SyntaxError&) {
      syncTopLevel();
      if (pos_ == before) advance();  // always make progress
    }
  }
  return prog;
}

ast::ExprPtr Parser::standaloneExpression() {
  try {
    ast::ExprPtr e = expression();
    if (!at(Tok::End)) fail(peek().loc, "unexpected " + describe(peek()) + " after expression");
    return e;
  } catch (const SyntaxError&) {
    return nullptr;
  }
}

}  // namespace parse_detail

std::unique_ptr<ast::Program> parseProgram(const SourceFile& file, Diagnostics& diags) {
  return parse_detail::Parser(lex(file, diags), diags).program();
}

ast::ExprPtr parseExpression(const SourceFile& file, Diagnostics& diags) {
  size_t errorsBefore = diags.errors().size();
  auto tokens = lex(file, diags);
  bool lexOk = diags.errors().size() == errorsBefore;
  ast::ExprPtr e = parse_detail::Parser(std::move(tokens), diags).standaloneExpression();
  return lexOk ? std::move(e) : nullptr;
}

}  // namespace tandem
