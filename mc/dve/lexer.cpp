#include "mc/dve/lexer.h"

#include <array>
#include <cstdio>
#include <string_view>

namespace tandem::dve {

namespace {

struct Spelling {
  Tok kind;
  std::string_view text;
};

constexpr std::array<Spelling, 23> kKeywords{{
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
constexpr std::array<Spelling, 33> kOperators{{
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

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  Lexer(const SourceFile& file, Diagnostics& diags) : text_(file.text()), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skipSpaceAndComments();
      if (pos_ >= text_.size()) break;
      SourceLoc loc{line_, col_};
      size_t start = pos_;
      char c = text_[pos_];
      Tok kind = Tok::End;
      if (isIdentStart(c)) {
        while (pos_ < text_.size() && (isIdentStart(text_[pos_]) || isDigit(text_[pos_])))
          advance();
        kind = keywordKind(text_.substr(start, pos_ - start));
      } else if (isDigit(c)) {
        while (pos_ < text_.size() && isDigit(text_[pos_])) advance();
        kind = Tok::IntLit;
      } else if (const Spelling* op = matchOperator()) {
        for (size_t i = 0; i < op->text.size(); ++i) advance();
        kind = op->kind;
      } else {
        badChar(loc);
        continue;
      }
      out.push_back({kind, std::string(text_.substr(start, pos_ - start)), loc, start, pos_});
    }
    out.push_back({Tok::End, "", {line_, col_}, pos_, pos_});
    return out;
  }

 private:
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  bool startsWith(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  void skipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (startsWith("//")) {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
      } else if (startsWith("/*")) {
        SourceLoc start{line_, col_};
        advance();
        advance();
        while (pos_ < text_.size() && !startsWith("*/")) advance();
        if (pos_ >= text_.size()) {
          diags_.error(start, "unterminated comment");
          return;
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  static Tok keywordKind(std::string_view word) {
    for (const auto& k : kKeywords)
      if (k.text == word) return k.kind;
    return Tok::Ident;
  }

  const Spelling* matchOperator() const {
    for (const auto& op : kOperators)
      if (startsWith(op.text)) return &op;
    return nullptr;
  }

  void badChar(SourceLoc loc) {
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    advance();
    // Skip the continuation bytes of a UTF-8 sequence: one error per character.
    while (pos_ < text_.size() && (static_cast<unsigned char>(text_[pos_]) & 0xc0) == 0x80)
      advance();
    std::string shown;
    if (c >= 0x20 && c < 0x7f) {
      shown = std::string(1, static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      shown = buf;
    }
    diags_.error(loc, "unexpected character '" + shown + "'");
  }

  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
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
