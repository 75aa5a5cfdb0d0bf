// Tokens of DVE, the input language of DiVinE and of the BEEM benchmark set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mc/lang/source.h"

namespace tandem::dve {

enum class Tok : uint8_t {
  End,
  Ident,
  IntLit,
  // Keywords (reserved, as in DiVinE). `and`, `or`, `not` lex as `&&`, `||`, `!`.
  KwByte,
  KwInt,
  KwConst,
  KwChannel,
  KwProcess,
  KwState,
  KwInit,
  KwTrans,
  KwGuard,
  KwEffect,
  KwSync,
  KwAccept,
  KwCommit,
  KwAssert,
  KwSystem,
  KwAsync,
  KwProperty,
  KwTrue,
  KwFalse,
  KwImply,  // `imply`
  // Punctuation.
  LBrace,
  RBrace,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Semi,
  Comma,
  Colon,
  Dot,
  Question,
  Arrow,   // ->  (transitions, `P->x`, and implication inside expressions)
  Assign,  // =
  // Operators.
  OrOr,
  AndAnd,
  Bar,
  Caret,
  Amp,
  EqEq,
  NotEq,
  Lt,
  Le,
  Gt,
  Ge,
  Shl,
  Shr,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Bang,
  Tilde,
};

struct Token {
  Tok kind = Tok::End;
  std::string text;           // as written
  SourceLoc loc;              // of the first character
  size_t begin = 0, end = 0;  // byte offsets in the file: [begin, end)
};

// A readable name for messages: "'->'", "identifier", "end of file".
std::string describe(const Token& t);

}  // namespace tandem::dve
