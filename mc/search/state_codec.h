// A compact, canonical byte encoding of exec::State, guided by the static types of the program
// (so no type tags are stored): varints for small integers, one byte for booleans and enums.
// Equal states encode to equal bytes, which is what the visited set compares.
#pragma once

#include <string>
#include <string_view>

#include "mc/exec/state.h"
#include "mc/ir/program.h"

namespace tandem::search {

class StateCodec {
 public:
  explicit StateCodec(const ir::Program& p) : p_(p) {}
  void encode(const exec::State& s, std::string& out) const;
  // Precondition: `bytes` came from encode() of the same program.
  exec::State decode(std::string_view bytes) const;

 private:
  const ir::Program& p_;
};

}  // namespace tandem::search
