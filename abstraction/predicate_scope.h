// The scope a predicate belongs to, by the variables it reads: a predicate is evaluated in one
// frame (or process instance, or object), so one over a procedure's locals must be in scope only
// while that procedure's frame is the one it is read in (Abstraction::scopeAt).
#pragma once

#include <cstdint>

#include "mc/ir/program.h"

namespace tandem::abstraction {

struct PredicateScope {
  enum class Kind : uint8_t {
    Global,  // globals only (and P.v, P@L of named process instances)
    Cfa,     // locals of a procedure or method (and fields of its class), or a process's variables
    Class,   // fields of a class (and globals)
    None,    // no one frame can read it (locals of two procedures, old(), ...)
  };
  Kind kind = Kind::Global;
  uint32_t index = ir::kNone;  // Cfa: the CfaId; Class: the class index
  friend bool operator==(const PredicateScope&, const PredicateScope&) = default;
};

// `home`: the CFA whose code the predicate comes from (`pid` means its process), or kNone.
PredicateScope scopeOf(const ir::Program& p, ExprRef e, ir::CfaId home = ir::kNone);

}  // namespace tandem::abstraction
