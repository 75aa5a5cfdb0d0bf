#include "mc/lang/lexer.h"

#include <array>
#include <cstdio>
#include <utility>

namespace tandem {

namespace {

struct Spelling {
  Tok kind;
  std::string_view text;
};

// Keywords in enum order.
constexpr std::array<Spelling, 41> kKeywords{{
    {Tok::KwConst, "const"},
    {Tok::KwEnum, "enum"},
    {Tok::KwVar, "var"},
    {Tok::KwInit, "init"},
    {Tok::KwPredicate, "predicate"},
    {Tok::KwInvariant, "invariant"},
    {Tok::KwNative, "native"},
    {Tok::KwProc, "proc"},
    {Tok::KwClass, "class"},
    {Tok::KwProcess, "process"},
    {Tok::KwRule, "rule"},
    {Tok::KwMethod, "method"},
    {Tok::KwIf, "if"},
    {Tok::KwElse, "else"},
    {Tok::KwWhile, "while"},
    {Tok::KwBreak, "break"},
    {Tok::KwContinue, "continue"},
    {Tok::KwGoto, "goto"},
    {Tok::KwAssume, "assume"},
    {Tok::KwAssert, "assert"},
    {Tok::KwAssumed, "assumed"},
    {Tok::KwAs, "as"},
    {Tok::KwVerified, "verified"},
    {Tok::KwSkip, "skip"},
    {Tok::KwReturn, "return"},
    {Tok::KwCall, "call"},
    {Tok::KwHavoc, "havoc"},
    {Tok::KwAwait, "await"},
    {Tok::KwAtomic, "atomic"},
    {Tok::KwNew, "new"},
    {Tok::KwNull, "null"},
    {Tok::KwTrue, "true"},
    {Tok::KwFalse, "false"},
    {Tok::KwInt, "int"},
    {Tok::KwI32, "i32"},
    {Tok::KwI64, "i64"},
    {Tok::KwF64, "f64"},
    {Tok::KwBool, "bool"},
    {Tok::KwRef, "ref"},
    {Tok::KwPartition, "partition"},
    {Tok::KwPid, "pid"},
}};

// Operators, longest first: the first match wins, so `==>` beats `==` and `->` beats `-`.
constexpr std::array<Spelling, 31> kOperators{{
    {Tok::Implies, "==>"}, {Tok::EqEq, "=="},    {Tok::NotEq, "!="},   {Tok::Le, "<="},
    {Tok::Ge, ">="},       {Tok::AndAnd, "&&"},  {Tok::OrOr, "||"},    {Tok::ColonEq, ":="},
    {Tok::Arrow, "->"},    {Tok::Plus, "+"},     {Tok::Minus, "-"},    {Tok::Star, "*"},
    {Tok::Slash, "/"},     {Tok::Percent, "%"},  {Tok::Lt, "<"},       {Tok::Gt, ">"},
    {Tok::Bang, "!"},      {Tok::Question, "?"}, {Tok::Colon, ":"},    {Tok::Eq, "="},
    {Tok::Semi, ";"},      {Tok::Comma, ","},    {Tok::Dot, "."},      {Tok::LParen, "("},
    {Tok::RParen, ")"},    {Tok::LBracket, "["}, {Tok::RBracket, "]"}, {Tok::LBrace, "{"},
    {Tok::RBrace, "}"},    {Tok::At, "@"},       {Tok::Amp, "&"},
}};

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

// A byte that cannot start a token, shown readably: printable ASCII as is, a UTF-8 sequence as
// written (the terminal shows the character), anything else as \xNN.
std::string describeBadChar(std::string_view bytes) {
  unsigned char c0 = static_cast<unsigned char>(bytes[0]);
  if ((c0 >= 0x20 && c0 < 0x7f) || (c0 >= 0xc2 && bytes.size() > 1)) return std::string(bytes);
  std::string out;
  for (char c : bytes) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
    out += buf;
  }
  return out;
}

class Lexer {
 public:
  Lexer(const SourceFile& file, Diagnostics& diags) : text_(file.text()), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skipSpaceAndComments();
      if (pos_ >= text_.size()) break;
      SourceLoc loc = here();
      char c = text_[pos_];
      if (isIdentStart(c)) {
        size_t start = pos_;
        while (pos_ < text_.size() && isIdentChar(text_[pos_])) advance();
        std::string word(text_.substr(start, pos_ - start));
        out.push_back({keywordKind(word), std::move(word), loc});
      } else if (isDigit(c)) {
        size_t start = pos_;
        while (pos_ < text_.size() && isDigit(text_[pos_])) advance();
        const bool isFloat = lexFloatTail();
        out.push_back({isFloat ? Tok::FloatLit : Tok::IntLit,
                       std::string(text_.substr(start, pos_ - start)), loc});
      } else if (const Spelling* op = matchOperator()) {
        for (size_t i = 0; i < op->text.size(); ++i) advance();
        out.push_back({op->kind, std::string(op->text), loc});
      } else {
        badChar(loc);
      }
    }
    out.push_back({Tok::End, "", here()});
    return out;
  }

 private:
  SourceLoc here() const { return {line_, col_}; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  bool digitAt(size_t i) const { return i < text_.size() && isDigit(text_[i]); }

  // After the digits of a number: consumes a fraction `.d+` and an exponent `e[+-]?d+` when
  // present and says whether there was either. A `.` must be followed by a digit (`1.` and `.5`
  // are not literals), so `a[1].f` still lexes as before.
  bool lexFloatTail() {
    bool isFloat = false;
    if (pos_ < text_.size() && text_[pos_] == '.' && digitAt(pos_ + 1)) {
      advance();
      while (digitAt(pos_)) advance();
      isFloat = true;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t d = pos_ + 1;
      if (d < text_.size() && (text_[d] == '+' || text_[d] == '-')) ++d;
      if (digitAt(d)) {
        while (pos_ < d) advance();
        while (digitAt(pos_)) advance();
        isFloat = true;
      }
    }
    return isFloat;
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
        SourceLoc start = here();
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

  // Reports one error per bad character; a UTF-8 sequence counts as one character.
  void badChar(SourceLoc loc) {
    size_t start = pos_;
    unsigned char c0 = static_cast<unsigned char>(text_[pos_]);
    advance();
    if (c0 >= 0xc2 && c0 <= 0xf4)
      while (pos_ < text_.size() && pos_ - start < 4 &&
             (static_cast<unsigned char>(text_[pos_]) & 0xc0) == 0x80)
        advance();
    diags_.error(
        loc, "unexpected character '" + describeBadChar(text_.substr(start, pos_ - start)) + "'");
  }

  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

}  // namespace

std::string_view tokSpelling(Tok t) {
  switch (t) {
    case Tok::End:
      return "end of file";
    case Tok::Ident:
      return "identifier";
    case Tok::IntLit:
      return "integer literal";
    case Tok::FloatLit:
      return "f64 literal";
    default:
      break;
  }
  for (const auto& k : kKeywords)
    if (k.kind == t) return k.text;
  for (const auto& op : kOperators)
    if (op.kind == t) return op.text;
  return "?";
}

std::vector<Token> lex(const SourceFile& file, Diagnostics& diags) {
  return Lexer(file, diags).run();
}

}  // namespace tandem
