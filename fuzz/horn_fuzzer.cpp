// libFuzzer harness for the CHC-COMP front end (Horn clauses in SMT-LIB): Z3's parser, the
// reading of clauses, the lowering to the IR, the IR passes, and the two explicit engines
// against each other.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"
#include "mc/horn/import.h"

using namespace tandem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceFile file("fuzz.smt2", fuzz::asText(data, size));
  Diagnostics diags(&file);
  auto program = importHorn(file, diags);
  if (!program || diags.hasErrors()) return 0;
  fuzz::walkIr(*program);
  fuzz::exploreBoth(*program, 2000);
  return 0;
}
