#include "abstraction/abstract_state.h"

namespace tandem::abstraction {

size_t AbstractState::hash() const {
  size_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&h](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  for (ir::LocId l : pcs) mix(l);
  mix(0xffff);
  for (uint8_t t : truth) mix(t);
  mix(0xfffe);
  for (uint32_t e : exact) mix(e);
  return h;
}

}  // namespace tandem::abstraction
