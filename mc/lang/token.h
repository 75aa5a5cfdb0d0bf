// Tokens of the Tandem language, as the lexer produces them and the parser consumes them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "mc/lang/source.h"

namespace tandem {

enum class Tok : uint8_t {
  End,       // end of file (always the last token)
  Ident,     // [A-Za-z_][A-Za-z0-9_]*, not a keyword
  IntLit,    // decimal digits, any length
  FloatLit,  // digits with a fraction `.d+` and/or an exponent `e[+-]d+`: an f64 literal
  // Keywords (reserved). Keep KwConst first and KwPid last: isKeyword() relies on the range.
  // `test` is not among them: it is a keyword only at the start of a top-level declaration
  // (`test f(...);`, `test {...}`), since the conformance files name a procedure `test`.
  KwConst,
  KwEnum,
  KwVar,
  KwInit,
  KwPredicate,
  KwInvariant,
  KwNative,
  KwProc,
  KwClass,
  KwProcess,
  KwRule,
  KwMethod,
  KwIf,
  KwElse,
  KwWhile,
  KwBreak,
  KwContinue,
  KwGoto,
  KwAssume,
  KwAssert,
  KwAssumed,
  KwAs,
  KwVerified,
  KwSkip,
  KwReturn,
  KwCall,
  KwHavoc,
  KwAwait,
  KwAtomic,
  KwNew,
  KwNull,
  KwTrue,
  KwFalse,
  KwInt,
  KwI32,
  KwI64,
  KwF64,
  KwBool,
  KwRef,
  KwPartition,
  KwPid,
  // Punctuation and operators.
  Plus,      // +
  Minus,     // -
  Star,      // *
  Slash,     // /
  Percent,   // %
  EqEq,      // ==
  NotEq,     // !=
  Lt,        // <
  Le,        // <=
  Gt,        // >
  Ge,        // >=
  AndAnd,    // &&
  OrOr,      // ||
  Bang,      // !
  Implies,   // ==>
  Question,  // ?
  Colon,     // :
  ColonEq,   // :=
  Eq,        // =
  Semi,      // ;
  Comma,     // ,
  Dot,       // .
  LParen,    // (
  RParen,    // )
  LBracket,  // [
  RBracket,  // ]
  LBrace,    // {
  RBrace,    // }
  At,        // @
  Amp,       // &
  Arrow,     // ->
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  // the spelling as written (identifier name, literal digits, operator)
  SourceLoc loc;     // of the first character
};

inline bool isKeyword(Tok t) { return t >= Tok::KwConst && t <= Tok::KwPid; }

// The fixed spelling of a keyword or operator ("while", ":="); a description for the others
// ("identifier", "integer literal", "end of file"). Used in "expected ..." messages.
std::string_view tokSpelling(Tok t);

}  // namespace tandem
