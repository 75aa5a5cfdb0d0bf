#include "mc/dve/lexer.h"

#include <array>
#include <string_view>

#include "mc/lang/scanner.h"

namespace tandem::dve {

namespace {

constexpr std::array<Spelling<Tok>, 23> kKeywords{{
    {Tok::KwByte, "byte"},
    {Tok::KwInt, "int"},
    {Tok::KwConst, "const"},
    {Tok::KwChannel, "channel"},
    {Tok::KwProcess, "process"},
    {Tok::KwState, "state"},
    {Tok::KwInit, "init"},
    {Tok::KwTrans, "trans"},
    {Tok::KwGuard, "guard"},
    {Tok::KwEffect, "effect"},
    {Tok::KwSync, "sync"},
    {Tok::KwAccept, "accept"},
    {Tok::KwCommit, "commit"},
    {Tok::KwAssert, "assert"},
    {Tok::KwSystem, "system"},
    {Tok::KwAsync, "async"},
    {Tok::KwProperty, "property"},
    {Tok::KwTrue, "true"},
    {Tok::KwFalse, "false"},
    {Tok::KwImply, "imply"},
    {Tok::AndAnd, "and"},
    {Tok::OrOr, "or"},
    {Tok::Bang, "not"},
}};

// Longest first: the first match wins (`->` before `-`, `<<` and `<=` before `<`).
constexpr std::array<Spelling<Tok>, 33> kOperators{{
    {Tok::OrOr, "||"},    {Tok::AndAnd, "&&"}, {Tok::EqEq, "=="},    {Tok::NotEq, "!="},
    {Tok::Le, "<="},      {Tok::Ge, ">="},     {Tok::Shl, "<<"},     {Tok::Shr, ">>"},
    {Tok::Arrow, "->"},   {Tok::Bar, "|"},     {Tok::Caret, "^"},    {Tok::Amp, "&"},
    {Tok::Lt, "<"},       {Tok::Gt, ">"},      {Tok::Plus, "+"},     {Tok::Minus, "-"},
    {Tok::Star, "*"},     {Tok::Slash, "/"},   {Tok::Percent, "%"},  {Tok::Bang, "!"},
    {Tok::Tilde, "~"},    {Tok::Assign, "="},  {Tok::LBrace, "{"},   {Tok::RBrace, "}"},
    {Tok::LParen, "("},   {Tok::RParen, ")"},  {Tok::LBracket, "["}, {Tok::RBracket, "]"},
    {Tok::Semi, ";"},     {Tok::Comma, ","},   {Tok::Colon, ":"},    {Tok::Dot, "."},
    {Tok::Question, "?"},
}};

// The DVE tokens over the shared scanner.
class Lexer {
 public:
  Lexer(const SourceFile& file, Diagnostics& diags) : sc_(file.text(), diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      sc_.skipSpaceAndComments();
      if (sc_.atEnd()) break;
      SourceLoc loc = sc_.here();
      const size_t start = sc_.pos();
      char c = sc_.peek();
      Tok kind = Tok::End;
      if (isIdentStart(c)) {
        kind = keywordOr(kKeywords, sc_.identifier(), Tok::Ident);
      } else if (isDigit(c)) {
        sc_.digits();
        kind = Tok::IntLit;
      } else if (const Spelling<Tok>* op = sc_.match(kOperators)) {
        sc_.advance(op->text.size());
        kind = op->kind;
      } else {
        sc_.badChar();
        continue;
      }
      out.push_back({kind, std::string(sc_.since(start)), loc, start, sc_.pos()});
    }
    out.push_back({Tok::End, "", sc_.here(), sc_.pos(), sc_.pos()});
    return out;
  }

 private:
  Scanner sc_;
};

}  // namespace

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "end of file";
    case Tok::Ident:
      return "identifier '" + t.text + "'";
    case Tok::IntLit:
      return "number '" + t.text + "'";
    default:
      return "'" + t.text + "'";
  }
}

std::vector<Token> lex(const SourceFile& file, Diagnostics& diags) {
  return Lexer(file, diags).run();
}

}  // namespace tandem::dve
