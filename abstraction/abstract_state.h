// Abstract states of abstraction fabrication (Yorsh, Ball, Sagiv, ISSTA'06): the control
// location of every thread, the truth value of every predicate in scope there, and the exact
// value of every bool and enum variable in scope (those are never abstracted).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::abstraction {

// A predicate whose evaluation fails in a state (e.g. an index out of bounds) is neither true
// nor false there.
enum class Truth : uint8_t { False = 0, True = 1, Undefined = 2 };

struct AbstractState {
  std::vector<ir::LocId> pcs;   // top-frame location of each thread
  std::vector<uint8_t> truth;   // Truth of each predicate in scope, in Abstraction order
  std::vector<uint32_t> exact;  // bool (0/1) or enum index of each exact variable in scope

  friend bool operator==(const AbstractState&, const AbstractState&) = default;
  size_t hash() const;
};

}  // namespace tandem::abstraction

template <>
struct std::hash<tandem::abstraction::AbstractState> {
  size_t operator()(const tandem::abstraction::AbstractState& a) const noexcept { return a.hash(); }
};
