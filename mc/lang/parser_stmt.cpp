// Statements and blocks.
#include "mc/lang/parser_impl.h"

namespace tandem::parse_detail {

using K = ast::Stmt::Kind;

std::vector<ast::StmtPtr> Parser::block(std::string_view context) {
  expect(Tok::LBrace, context);
  return blockRest();
}

std::vector<ast::StmtPtr> Parser::blockRest() {
  std::vector<ast::StmtPtr> out;
  while (!accept(Tok::RBrace)) {
    if (at(Tok::End) || atDeclOnlyStart()) {
      // Reported without throwing: the enclosing declaration ends here and the next one parses.
      diags_.error(peek().loc, "expected '}' at end of block, found " + describe(peek()));
      break;
    }
    size_t before = pos_;
    try {
      out.push_back(statement());
    } catch (const SyntaxError&) {
      syncStatement();
      if (pos_ == before && !at(Tok::RBrace) && !at(Tok::End) && !atDeclOnlyStart()) advance();
    }
  }
  return out;
}

ast::StmtPtr Parser::statement() {
  Nesting nest(*this);
  nest.deeper(peek().loc);
  std::vector<std::string> labels;
  std::vector<SourceLoc> labelLocs;
  while (at(Tok::Ident) && peek(1).kind == Tok::Colon) {
    labels.push_back(peek().text);
    labelLocs.push_back(peek().loc);
    advance();
    advance();
  }
  if (!labels.empty() && (at(Tok::RBrace) || at(Tok::End)))
    fail(labelLocs.back(), "label must be followed by a statement");
  ast::StmtPtr s = unlabelledStatement();
  s->labels = std::move(labels);
  s->labelLocs = std::move(labelLocs);
  return s;
}

namespace {
ast::StmtPtr makeStmt(K kind, SourceLoc loc) { return makeNode<ast::Stmt>(kind, loc); }
}  // namespace

ast::StmtPtr Parser::unlabelledStatement() {
  SourceLoc loc = peek().loc;
  switch (peek().kind) {
    case Tok::KwVar: {
      advance();
      auto s = makeStmt(K::VarDecl, loc);
      s->name = expectIdent("variable name");
      expect(Tok::Colon, "after variable name");
      s->declType = type();
      if (accept(Tok::Eq)) s->rhs.push_back(valueOrStar());
      expectSemi("declaration");
      return s;
    }
    case Tok::KwIf:
    case Tok::KwWhile: {
      bool isIf = advance().kind == Tok::KwIf;
      auto s = makeStmt(isIf ? K::If : K::While, loc);
      expect(Tok::LParen, isIf ? "after 'if'" : "after 'while'");
      s->cond = valueOrStar();
      expect(Tok::RParen, "after condition");
      s->body.push_back(statement());
      if (isIf && accept(Tok::KwElse)) {  // binds to the nearest `if`
        s->hasElse = true;
        s->body.push_back(statement());
      }
      return s;
    }
    case Tok::KwBreak:
    case Tok::KwContinue: {
      auto s = makeStmt(advance().kind == Tok::KwBreak ? K::Break : K::Continue, loc);
      expectSemi("statement");
      return s;
    }
    case Tok::KwGoto: {
      advance();
      auto s = makeStmt(K::Goto, loc);
      do {
        SourceLoc l;
        s->targets.push_back(expectIdent("label after 'goto'", &l));
        s->targetLocs.push_back(l);
      } while (accept(Tok::Comma));
      expectSemi("statement");
      return s;
    }
    case Tok::KwAssume:
    case Tok::KwAwait:
    case Tok::KwPredicate: {
      Tok t = advance().kind;
      auto s = makeStmt(t == Tok::KwAssume  ? K::Assume
                        : t == Tok::KwAwait ? K::Await
                                            : K::Predicate,
                        loc);
      s->cond = expression();
      expectSemi("statement");
      return s;
    }
    case Tok::KwAssert: {
      advance();
      auto s = makeStmt(K::Assert, loc);
      s->cond = expression();
      if (accept(Tok::KwVerified)) s->premise = expression();
      expectSemi("statement");
      return s;
    }
    case Tok::KwAssumed: {
      advance();
      auto s = makeStmt(K::Assumed, loc);
      s->cond = expression();
      expect(Tok::KwAs, "after the assumed condition");
      s->name = expectIdent("assumption name after 'as'");
      expectSemi("statement");
      return s;
    }
    case Tok::KwSkip: {
      advance();
      auto s = makeStmt(K::Skip, loc);
      expectSemi("statement");
      return s;
    }
    case Tok::KwReturn: {
      advance();
      auto s = makeStmt(K::Return, loc);
      if (!at(Tok::Semi) && !at(Tok::RBrace)) s->cond = expression();
      expectSemi("statement");
      return s;
    }
    case Tok::KwCall: {
      advance();
      auto s = makeStmt(K::CallStmt, loc);
      auto call = std::make_unique<ast::Expr>();
      call->kind = ast::Expr::Kind::Call;
      call->name = expectIdent("procedure name after 'call'", &call->loc);
      call->args = arguments();
      s->cond = std::move(call);
      expectSemi("statement");
      return s;
    }
    case Tok::KwHavoc: {
      advance();
      auto s = makeStmt(K::Havoc, loc);
      do s->lhs.push_back(expression());
      while (accept(Tok::Comma));
      expectSemi("statement");
      return s;
    }
    case Tok::KwAtomic: {
      advance();
      auto s = makeStmt(K::Atomic, loc);
      s->body = block("after 'atomic'");
      return s;
    }
    case Tok::LBrace: {
      advance();
      auto s = makeStmt(K::Block, loc);
      s->body = blockRest();
      return s;
    }
    default:
      if (atChannelOp()) return channelOp();
      if (at(Tok::Ident) && peek().text == "for" && peek(1).kind == Tok::LParen) {
        // One error, not one per part of the header: skip it, and read the body for its own.
        diags_.error(loc,
                     "Tandem has no 'for' loop: write 'var i: int = 0; while (i < n) { ...; "
                     "i := i + 1; }'");
        advance();
        int depth = 0;
        do {
          depth += at(Tok::LParen) ? 1 : at(Tok::RParen) ? -1 : 0;
          advance();
        } while (depth > 0 && !at(Tok::End));
        return statement();
      }
      if (atExpressionStart()) return assignment();
      failExpected("statement");
  }
}

// `lv, ... := e, ...;` (the left side is any expression; the type checker validates it).
ast::StmtPtr Parser::assignment() {
  auto s = makeStmt(K::Assign, peek().loc);
  do s->lhs.push_back(expression());
  while (accept(Tok::Comma));
  if (!at(Tok::ColonEq)) {
    const ast::Expr& first = *s->lhs.front();
    if (s->lhs.size() == 1 && first.kind == ast::Expr::Kind::Call && at(Tok::Semi))
      fail(first.loc, "a call statement is written 'call " + first.name + "(...);'");
    failExpected("':=' in assignment");
  }
  advance();
  do s->rhs.push_back(valueOrStar());
  while (accept(Tok::Comma));
  expectSemi("statement");
  return s;
}

// `c ! e, ...;` or `c ? x, ...;` (c a channel name, or `c[e]`).
ast::StmtPtr Parser::channelOp() {
  SourceLoc loc = peek().loc;
  auto chan = std::make_unique<ast::Expr>();
  chan->kind = ast::Expr::Kind::Name;
  chan->loc = loc;
  chan->name = advance().text;
  if (at(Tok::LBracket)) {
    auto idx = std::make_unique<ast::Expr>();
    idx->kind = ast::Expr::Kind::Index;
    idx->loc = advance().loc;
    idx->args.push_back(std::move(chan));
    idx->args.push_back(expression());
    expect(Tok::RBracket, "after channel index");
    chan = std::move(idx);
  }
  bool send = advance().kind == Tok::Bang;
  auto s = makeStmt(send ? K::Send : K::Receive, loc);
  s->cond = std::move(chan);
  auto& items = send ? s->rhs : s->lhs;
  do items.push_back(expression());
  while (accept(Tok::Comma));
  expectSemi(send ? "send" : "receive");
  return s;
}

}  // namespace tandem::parse_detail
