#include "mc/lang/scanner.h"

#include <cstdio>
#include <string>

namespace tandem {

namespace {

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

}  // namespace

void Scanner::advance(size_t n) {
  for (; n > 0 && pos_ < text_.size(); --n) {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
}

void Scanner::skipSpaceAndComments() {
  while (!atEnd()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance();
    } else if (startsWith("//")) {
      while (!atEnd() && text_[pos_] != '\n') advance();
    } else if (startsWith("/*")) {
      SourceLoc start = here();
      advance(2);
      while (!atEnd() && !startsWith("*/")) advance();
      if (atEnd()) {
        diags_.error(start, "unterminated comment");
        return;
      }
      advance(2);
    } else {
      return;
    }
  }
}

std::string_view Scanner::identifier() {
  const size_t start = pos_;
  while (!atEnd() && isIdentChar(text_[pos_])) advance();
  return since(start);
}

std::string_view Scanner::digits() {
  const size_t start = pos_;
  while (!atEnd() && isDigit(text_[pos_])) advance();
  return since(start);
}

void Scanner::badChar() {
  const SourceLoc loc = here();
  const size_t start = pos_;
  unsigned char c0 = static_cast<unsigned char>(text_[pos_]);
  advance();
  if (c0 >= 0xc2 && c0 <= 0xf4)
    while (!atEnd() && pos_ - start < 4 && (static_cast<unsigned char>(text_[pos_]) & 0xc0) == 0x80)
      advance();
  diags_.error(loc, "unexpected character '" + describeBadChar(since(start)) + "'");
}

}  // namespace tandem
