// libFuzzer harness for the DVE importer (BEEM models): lexer, parser, lowering to the IR, the IR
// passes, and the two explicit engines against each other.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"
#include "mc/dve/import.h"

using namespace tandem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceFile file("fuzz.dve", fuzz::asText(data, size));
  Diagnostics diags(&file);
  auto program = importDve(file, diags);
  if (!program || diags.hasErrors()) return 0;
  fuzz::walkIr(*program);
  fuzz::exploreBoth(*program, 2000);
  return 0;
}
