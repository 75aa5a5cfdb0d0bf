// libFuzzer harness for the .tdm front end: lexer, parser, printer (idempotent), type checker,
// lowering, the IR passes, and, for closed models, the two explicit engines against each other.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"
#include "mc/ir/lower.h"
#include "mc/lang/checker.h"
#include "mc/lang/parser.h"
#include "mc/lang/printer.h"

using namespace tandem;

namespace {

// print(parse(print(ast))) == print(ast): the printer's documented contract.
void checkPrinter(const ast::Program& ast) {
  const std::string printed = printProgram(ast);
  SourceFile again("printed.tdm", printed);
  Diagnostics d(&again);
  auto reparsed = parseProgram(again, d);
  fuzz::require(reparsed && !d.hasErrors(), "the printed program does not parse");
  fuzz::require(printProgram(*reparsed) == printed, "printing is not idempotent");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceFile file("fuzz.tdm", fuzz::asText(data, size));
  Diagnostics diags(&file);
  auto ast = parseProgram(file, diags);
  if (!ast || diags.hasErrors()) return 0;
  checkPrinter(*ast);
  auto types = std::make_unique<TypeTable>();
  if (!checkProgram(*ast, *types, diags) || diags.hasErrors()) return 0;
  auto program = lowerProgram(*ast, std::move(types), diags);
  if (!program || diags.hasErrors()) return 0;
  fuzz::walkIr(*program);
  fuzz::exploreBoth(*program, 2000);
  return 0;
}
