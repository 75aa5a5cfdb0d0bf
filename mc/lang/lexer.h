// The lexer: turns a source file into tokens. Comments and whitespace are dropped; errors (a bad
// character, an unterminated block comment) are reported and lexing continues, so the parser
// still sees the rest of the file.
#pragma once

#include <vector>

#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"
#include "mc/lang/token.h"

namespace tandem {

// Every token of `file`, ending with exactly one Tok::End (located just after the last character).
// Columns count bytes, 1-based, as the caret printer in Diagnostics does.
std::vector<Token> lex(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem
