// Shared by the libFuzzer harnesses: the oracles that go beyond "no crash".
// - Printing is idempotent (mc/lang/printer.h): a parsed program printed, parsed and printed
//   again gives the same text.
// - The two explicit engines agree: the compiled one (mc/search/compiled/compiled_system.h) and the
//   reference interpreter (generic_system.h) must find the same reachable states, transitions
//   and verdict on every closed model both explore to the end.
// A broken oracle aborts, so libFuzzer keeps the input as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mc/ir/program.h"

namespace tandem::fuzz {

// Aborts with `what` on stderr when `ok` is false.
void require(bool ok, const char* what);

// The input as text (libFuzzer's bytes, any of them).
std::string asText(const uint8_t* data, size_t size);

// Every IR pass that needs no solver: the printer, cutpoints in each mode, liveness, local steps.
void walkIr(const ir::Program& p);

// Explores a closed program with both explicit engines, breadth-first, up to `maxStates` states
// each, and requires them to agree when both finish.
void exploreBoth(const ir::Program& p, uint64_t maxStates);

}  // namespace tandem::fuzz
