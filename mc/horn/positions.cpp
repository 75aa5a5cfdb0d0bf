#include "mc/horn/positions.h"

#include <cctype>

#include "mc/lang/scanner.h"

namespace tandem::horn {

namespace {

bool isSymbolChar(char c) {
  return c != '\0' && !std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')' &&
         c != ';' && c != '"' && c != '|';
}

// At `;`, `"` or `|`: skips the comment, string or quoted symbol, and returns its text (the
// symbol's without the bars).
std::string skipSpecial(Scanner& s) {
  const char open = s.peek();
  std::string text;
  s.advance();
  if (open == ';') {
    while (!s.atEnd() && s.peek() != '\n') s.advance();
    return text;
  }
  const char close = open;  // "" inside a string is an escaped quote; it just restarts it
  while (!s.atEnd() && s.peek() != close) {
    text += s.peek();
    s.advance();
  }
  if (!s.atEnd()) s.advance();
  return text;
}

void skipSpace(Scanner& s) {
  while (!s.atEnd() && (std::isspace(static_cast<unsigned char>(s.peek())) || s.peek() == ';')) {
    if (s.peek() == ';')
      skipSpecial(s);
    else
      s.advance();
  }
}

std::string symbol(Scanner& s) {
  if (s.peek() == '|') return skipSpecial(s);
  std::string text;
  while (isSymbolChar(s.peek())) {
    text += s.peek();
    s.advance();
  }
  return text;
}

}  // namespace

SourceLoc CommandPositions::assertAt(size_t i) const {
  return i < asserts.size() ? asserts[i].loc : SourceLoc{1, 1};
}

SourceLoc CommandPositions::declarationOf(std::string_view name) const {
  for (const Command& c : declarations)
    if (c.symbol == name) return c.loc;
  return {};
}

CommandPositions scanCommands(std::string_view text) {
  Diagnostics none;  // the scan reports nothing: Z3 reports the syntax errors
  Scanner s(text, none);
  CommandPositions out;
  int depth = 0;
  while (!s.atEnd()) {
    const char c = s.peek();
    if (c == ';' || c == '"' || c == '|') {
      skipSpecial(s);
    } else if (c == '(') {
      const SourceLoc at = s.here();
      s.advance();
      if (depth++ != 0) continue;
      skipSpace(s);
      Command cmd{symbol(s), "", at};
      if (cmd.name == "declare-fun" || cmd.name == "declare-const") {
        skipSpace(s);
        cmd.symbol = symbol(s);
        out.declarations.push_back(std::move(cmd));
      } else if (cmd.name == "assert") {
        out.asserts.push_back(std::move(cmd));
      }
    } else {
      if (c == ')' && depth > 0) --depth;
      s.advance();
    }
  }
  return out;
}

}  // namespace tandem::horn
