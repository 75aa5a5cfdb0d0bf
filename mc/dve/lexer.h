// The DVE lexer: a file becomes tokens. Comments (`//`, `/* */`) and whitespace are dropped;
// a bad character or an unterminated comment is reported and lexing goes on.
#pragma once

#include <vector>

#include "mc/dve/token.h"
#include "mc/lang/diagnostics.h"
#include "mc/lang/source.h"

namespace tandem::dve {

// Every token of `file`, ending with exactly one Tok::End. Columns count bytes, 1-based.
std::vector<Token> lex(const SourceFile& file, Diagnostics& diags);

}  // namespace tandem::dve
