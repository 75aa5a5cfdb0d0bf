#include "mc/lang/lexer.h"

#include <array>
#include <utility>

#include "mc/lang/scanner.h"

namespace tandem {

namespace {

// Keywords in enum order.
constexpr std::array<Spelling<Tok>, 41> kKeywords{{
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
constexpr std::array<Spelling<Tok>, 31> kOperators{{
    {Tok::Implies, "==>"}, {Tok::EqEq, "=="},    {Tok::NotEq, "!="},   {Tok::Le, "<="},
    {Tok::Ge, ">="},       {Tok::AndAnd, "&&"},  {Tok::OrOr, "||"},    {Tok::ColonEq, ":="},
    {Tok::Arrow, "->"},    {Tok::Plus, "+"},     {Tok::Minus, "-"},    {Tok::Star, "*"},
    {Tok::Slash, "/"},     {Tok::Percent, "%"},  {Tok::Lt, "<"},       {Tok::Gt, ">"},
    {Tok::Bang, "!"},      {Tok::Question, "?"}, {Tok::Colon, ":"},    {Tok::Eq, "="},
    {Tok::Semi, ";"},      {Tok::Comma, ","},    {Tok::Dot, "."},      {Tok::LParen, "("},
    {Tok::RParen, ")"},    {Tok::LBracket, "["}, {Tok::RBracket, "]"}, {Tok::LBrace, "{"},
    {Tok::RBrace, "}"},    {Tok::At, "@"},       {Tok::Amp, "&"},
}};

// The .tdm tokens over the shared scanner; f64 literals are this language's own.
class Lexer {
 public:
  Lexer(const SourceFile& file, Diagnostics& diags) : sc_(file.text(), diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      sc_.skipSpaceAndComments();
      if (sc_.atEnd()) break;
      SourceLoc loc = sc_.here();
      char c = sc_.peek();
      if (isIdentStart(c)) {
        std::string word(sc_.identifier());
        out.push_back({keywordOr(kKeywords, word, Tok::Ident), std::move(word), loc});
      } else if (isDigit(c)) {
        const size_t start = sc_.pos();
        sc_.digits();
        const bool isFloat = lexFloatTail();
        out.push_back({isFloat ? Tok::FloatLit : Tok::IntLit, std::string(sc_.since(start)), loc});
      } else if (const Spelling<Tok>* op = sc_.match(kOperators)) {
        sc_.advance(op->text.size());
        out.push_back({op->kind, std::string(op->text), loc});
      } else {
        sc_.badChar();
      }
    }
    out.push_back({Tok::End, "", sc_.here()});
    return out;
  }

 private:
  // After the digits of a number: consumes a fraction `.d+` and an exponent `e[+-]?d+` when
  // present and says whether there was either. A `.` must be followed by a digit (`1.` and `.5`
  // are not literals), so `a[1].f` still lexes as before.
  bool lexFloatTail() {
    bool isFloat = false;
    if (sc_.peek() == '.' && isDigit(sc_.peek(1))) {
      sc_.advance();
      sc_.digits();
      isFloat = true;
    }
    if (sc_.peek() == 'e' || sc_.peek() == 'E') {
      size_t d = 1;
      if (sc_.peek(d) == '+' || sc_.peek(d) == '-') ++d;
      if (isDigit(sc_.peek(d))) {
        sc_.advance(d);
        sc_.digits();
        isFloat = true;
      }
    }
    return isFloat;
  }

  Scanner sc_;
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
