// The character level that every front end's lexer shares (the .tdm lexer, the DVE importer's,
// and the next ones): the position as line and column, white space and C/C++ comments,
// identifiers and decimal digits, keyword and operator tables, and one error per character that
// cannot start a token (a UTF-8 sequence counts as one character and is shown as written).
// A lexer keeps only what is its language's own: its token kinds and spellings, and literals
// such as f64's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem {

template <typename Tok>
struct Spelling {
  Tok kind;
  std::string_view text;
};

inline bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

class Scanner {
 public:
  Scanner(std::string_view text, Diagnostics& diags) : text_(text), diags_(diags) {}

  bool atEnd() const { return pos_ >= text_.size(); }
  // The byte `ahead` places on ('\0' past the end).
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  size_t pos() const { return pos_; }
  SourceLoc here() const { return {line_, col_}; }
  std::string_view since(size_t start) const { return text_.substr(start, pos_ - start); }
  bool startsWith(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  void advance(size_t n = 1);
  // White space, `// ...` and `/* ... */` (an unterminated one is an error).
  void skipSpaceAndComments();
  // At an identifier's first character: the identifier.
  std::string_view identifier();
  // At a digit: the digits.
  std::string_view digits();
  // Reports the character here as unexpected and skips it.
  void badChar();

  // The entry of `table` that starts here (the table lists longer spellings first).
  template <typename Tok, size_t N>
  const Spelling<Tok>* match(const std::array<Spelling<Tok>, N>& table) const {
    for (const auto& s : table)
      if (startsWith(s.text)) return &s;
    return nullptr;
  }

  Diagnostics& diags() { return diags_; }

 private:
  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

// The keyword `word` spells, or `ident`.
template <typename Tok, size_t N>
Tok keywordOr(const std::array<Spelling<Tok>, N>& keywords, std::string_view word, Tok ident) {
  for (const auto& k : keywords)
    if (k.text == word) return k.kind;
  return ident;
}

}  // namespace tandem
