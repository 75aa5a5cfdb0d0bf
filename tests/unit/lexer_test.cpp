#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "mc/lang/lexer.h"

namespace tandem {
namespace {

struct Lexed {
  std::vector<Token> tokens;
  std::vector<Diagnostic> errors;
};

Lexed lexText(const std::string& text) {
  SourceFile file("t.tdm", text);
  Diagnostics diags(&file);
  auto tokens = lex(file, diags);
  return {std::move(tokens), diags.errors()};
}

std::vector<Tok> kinds(const std::string& text) {
  std::vector<Tok> out;
  for (const auto& t : lexText(text).tokens) out.push_back(t.kind);
  return out;
}

TEST_CASE("lexer: every keyword") {
  const std::vector<std::pair<std::string, Tok>> words = {
      {"const", Tok::KwConst},
      {"enum", Tok::KwEnum},
      {"var", Tok::KwVar},
      {"init", Tok::KwInit},
      {"predicate", Tok::KwPredicate},
      {"invariant", Tok::KwInvariant},
      {"native", Tok::KwNative},
      {"proc", Tok::KwProc},
      {"class", Tok::KwClass},
      {"process", Tok::KwProcess},
      {"rule", Tok::KwRule},
      {"method", Tok::KwMethod},
      {"if", Tok::KwIf},
      {"else", Tok::KwElse},
      {"while", Tok::KwWhile},
      {"break", Tok::KwBreak},
      {"continue", Tok::KwContinue},
      {"goto", Tok::KwGoto},
      {"assume", Tok::KwAssume},
      {"assert", Tok::KwAssert},
      {"assumed", Tok::KwAssumed},
      {"as", Tok::KwAs},
      {"verified", Tok::KwVerified},
      {"skip", Tok::KwSkip},
      {"return", Tok::KwReturn},
      {"call", Tok::KwCall},
      {"havoc", Tok::KwHavoc},
      {"await", Tok::KwAwait},
      {"atomic", Tok::KwAtomic},
      {"new", Tok::KwNew},
      {"null", Tok::KwNull},
      {"true", Tok::KwTrue},
      {"false", Tok::KwFalse},
      {"int", Tok::KwInt},
      {"i32", Tok::KwI32},
      {"i64", Tok::KwI64},
      {"f64", Tok::KwF64},
      {"bool", Tok::KwBool},
      {"ref", Tok::KwRef},
      {"partition", Tok::KwPartition},
      {"pid", Tok::KwPid},
  };
  CHECK(words.size() == static_cast<size_t>(Tok::KwPid) - static_cast<size_t>(Tok::KwConst) + 1);
  for (const auto& [w, k] : words) {
    CAPTURE(w);
    auto l = lexText(w);
    REQUIRE(l.tokens.size() == 2);
    CHECK(l.tokens[0].kind == k);
    CHECK(l.tokens[0].text == w);
    CHECK(isKeyword(k));
    CHECK(tokSpelling(k) == w);
  }
}

TEST_CASE("lexer: builtin function names are identifiers") {
  for (const char* w : {"len", "old", "abs", "min", "max", "no_overflow_add", "no_overflow_mul",
                        "concrete", "test", "verified_", "_x", "Int", "i33", "x1_y2"}) {
    CAPTURE(w);
    auto l = lexText(w);
    REQUIRE(l.tokens.size() == 2);
    CHECK(l.tokens[0].kind == Tok::Ident);
    CHECK(l.tokens[0].text == w);
  }
}

TEST_CASE("lexer: every operator and punctuation") {
  const std::vector<std::pair<std::string, Tok>> ops = {
      {"+", Tok::Plus},     {"-", Tok::Minus},    {"*", Tok::Star},      {"/", Tok::Slash},
      {"%", Tok::Percent},  {"==", Tok::EqEq},    {"!=", Tok::NotEq},    {"<", Tok::Lt},
      {"<=", Tok::Le},      {">", Tok::Gt},       {">=", Tok::Ge},       {"&&", Tok::AndAnd},
      {"||", Tok::OrOr},    {"!", Tok::Bang},     {"==>", Tok::Implies}, {"?", Tok::Question},
      {":", Tok::Colon},    {":=", Tok::ColonEq}, {"=", Tok::Eq},        {";", Tok::Semi},
      {",", Tok::Comma},    {".", Tok::Dot},      {"(", Tok::LParen},    {")", Tok::RParen},
      {"[", Tok::LBracket}, {"]", Tok::RBracket}, {"{", Tok::LBrace},    {"}", Tok::RBrace},
      {"@", Tok::At},       {"&", Tok::Amp},      {"->", Tok::Arrow},
  };
  CHECK(ops.size() == static_cast<size_t>(Tok::Arrow) - static_cast<size_t>(Tok::Plus) + 1);
  for (const auto& [s, k] : ops) {
    CAPTURE(s);
    auto l = lexText(s);
    REQUIRE(l.tokens.size() == 2);
    CHECK(l.tokens[0].kind == k);
    CHECK(l.tokens[0].text == s);
    CHECK(tokSpelling(k) == s);
    CHECK(l.errors.empty());
  }
}

TEST_CASE("lexer: longest match on operators") {
  CHECK(kinds("a==>b") == std::vector{Tok::Ident, Tok::Implies, Tok::Ident, Tok::End});
  CHECK(kinds("a===b") == std::vector{Tok::Ident, Tok::EqEq, Tok::Eq, Tok::Ident, Tok::End});
  CHECK(kinds("x:=-1") == std::vector{Tok::Ident, Tok::ColonEq, Tok::Minus, Tok::IntLit, Tok::End});
  CHECK(kinds("g->x") == std::vector{Tok::Ident, Tok::Arrow, Tok::Ident, Tok::End});
  CHECK(kinds("a&&&b") == std::vector{Tok::Ident, Tok::AndAnd, Tok::Amp, Tok::Ident, Tok::End});
  CHECK(kinds("!!=") == std::vector{Tok::Bang, Tok::NotEq, Tok::End});
  CHECK(kinds("L: x") == std::vector{Tok::Ident, Tok::Colon, Tok::Ident, Tok::End});
}

TEST_CASE("lexer: integer literals of any size keep their digits") {
  std::string big = "123456789012345678901234567890123456789012345678901234567890";
  auto l = lexText(big + " 0 007");
  REQUIRE(l.tokens.size() == 4);
  CHECK(l.tokens[0].kind == Tok::IntLit);
  CHECK(l.tokens[0].text == big);
  CHECK(l.tokens[1].text == "0");
  CHECK(l.tokens[2].text == "007");
  CHECK(l.errors.empty());
  // A literal glued to a name is two tokens (the parser rejects the sequence).
  CHECK(kinds("12ab") == std::vector{Tok::IntLit, Tok::Ident, Tok::End});
}

TEST_CASE("lexer: comments are skipped") {
  CHECK(kinds("a // b c\nd") == std::vector{Tok::Ident, Tok::Ident, Tok::End});
  CHECK(kinds("a /* b \n c */ d") == std::vector{Tok::Ident, Tok::Ident, Tok::End});
  CHECK(kinds("a/**/b") == std::vector{Tok::Ident, Tok::Ident, Tok::End});
  CHECK(kinds("/* a /* b */ c") == std::vector{Tok::Ident, Tok::End});  // no nesting
  CHECK(kinds("a // unterminated line comment") == std::vector{Tok::Ident, Tok::End});
  CHECK(kinds("x / y") == std::vector{Tok::Ident, Tok::Slash, Tok::Ident, Tok::End});
  CHECK(lexText("// only a comment").errors.empty());
}

TEST_CASE("lexer: positions are 1-based line and column") {
  auto l = lexText("var x: int;\n  // c\n\tfoo := 10;\n/* x\n y */ z");
  REQUIRE(l.tokens.size() == 11);
  CHECK(l.tokens[0].loc == SourceLoc{1, 1});   // var
  CHECK(l.tokens[1].loc == SourceLoc{1, 5});   // x
  CHECK(l.tokens[2].loc == SourceLoc{1, 6});   // :
  CHECK(l.tokens[3].loc == SourceLoc{1, 8});   // int
  CHECK(l.tokens[4].loc == SourceLoc{1, 11});  // ;
  CHECK(l.tokens[5].loc == SourceLoc{3, 2});   // foo (a tab is one column)
  CHECK(l.tokens[6].loc == SourceLoc{3, 6});   // :=
  CHECK(l.tokens[7].loc == SourceLoc{3, 9});   // 10
  CHECK(l.tokens[8].loc == SourceLoc{3, 11});  // ;
  CHECK(l.tokens[9].loc == SourceLoc{5, 7});   // z
  CHECK(l.tokens[10].kind == Tok::End);
  CHECK(l.tokens[10].loc == SourceLoc{5, 8});
}

TEST_CASE("lexer: CRLF line endings") {
  auto l = lexText("a\r\nb");
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[1].loc == SourceLoc{2, 1});
  CHECK(l.errors.empty());
}

TEST_CASE("lexer: empty input is just End") {
  auto l = lexText("");
  REQUIRE(l.tokens.size() == 1);
  CHECK(l.tokens[0].kind == Tok::End);
  CHECK(l.tokens[0].loc == SourceLoc{1, 1});
}

TEST_CASE("lexer: a bad character is reported and lexing goes on") {
  auto l = lexText("x := 1 # 2;\ny $ z");
  REQUIRE(l.errors.size() == 2);
  CHECK(l.errors[0].loc == SourceLoc{1, 8});
  CHECK(l.errors[0].message == "unexpected character '#'");
  CHECK(l.errors[1].loc == SourceLoc{2, 3});
  CHECK(l.errors[1].message == "unexpected character '$'");
  CHECK(kinds("x := 1 # 2;") ==
        std::vector{Tok::Ident, Tok::ColonEq, Tok::IntLit, Tok::IntLit, Tok::Semi, Tok::End});
  auto single = lexText("a | b");
  REQUIRE(single.errors.size() == 1);
  CHECK(single.errors[0].message == "unexpected character '|'");
}

TEST_CASE("lexer: non-printable and non-ASCII characters") {
  auto ctrl = lexText(std::string("a\x01") + "b");
  REQUIRE(ctrl.errors.size() == 1);
  CHECK(ctrl.errors[0].message == "unexpected character '\\x01'");
  auto utf8 = lexText("x \xC3\xA9 y");  // é: one error for the whole sequence
  REQUIRE(utf8.errors.size() == 1);
  CHECK(utf8.errors[0].loc == SourceLoc{1, 3});
  CHECK(utf8.errors[0].message == "unexpected character '\xC3\xA9'");
  CHECK(utf8.tokens.size() == 3);
  auto stray = lexText("\xFF");
  REQUIRE(stray.errors.size() == 1);
  CHECK(stray.errors[0].message == "unexpected character '\\xFF'");
}

TEST_CASE("lexer: an unterminated block comment is an error at its start") {
  auto l = lexText("x := 1;\n  /* never\nclosed");
  REQUIRE(l.errors.size() == 1);
  CHECK(l.errors[0].loc == SourceLoc{2, 3});
  CHECK(l.errors[0].message == "unterminated comment");
  CHECK(l.tokens.size() == 5);  // x := 1 ; End
  CHECK(l.tokens.back().kind == Tok::End);
}

TEST_CASE("lexer: @concrete is two tokens") {
  auto l = lexText("@concrete proc");
  REQUIRE(l.tokens.size() == 4);
  CHECK(l.tokens[0].kind == Tok::At);
  CHECK(l.tokens[1].kind == Tok::Ident);
  CHECK(l.tokens[1].text == "concrete");
  CHECK(l.tokens[2].kind == Tok::KwProc);
}

TEST_CASE("lexer: descriptions of non-fixed tokens") {
  CHECK(tokSpelling(Tok::End) == "end of file");
  CHECK(tokSpelling(Tok::Ident) == "identifier");
  CHECK(tokSpelling(Tok::IntLit) == "integer literal");
  CHECK_FALSE(isKeyword(Tok::Ident));
  CHECK_FALSE(isKeyword(Tok::Plus));
}

}  // namespace
}  // namespace tandem
