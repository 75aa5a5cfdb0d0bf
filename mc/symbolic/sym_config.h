// A symbolic configuration: a symbolic store (globals and the call stack of an open system's one
// thread) and the location of every thread. Closed systems keep their process locations here;
// the SymState's frames are used for the stepping thread only (transfer.h, Mover).
#pragma once

#include <vector>

#include "mc/symbolic/sym_state.h"

namespace tandem::symbolic {

struct SymConfig {
  SymState st;
  std::vector<ir::LocId> pcs;  // per thread
  // Closed systems: the thread inside an atomic block that keeps the turn (exec::System's rule,
  // system.h), exec::kNoThread for none.
  exec::ThreadId turn = exec::kNoThread;
};

}  // namespace tandem::symbolic
