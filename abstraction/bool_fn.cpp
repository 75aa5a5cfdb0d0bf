#include "abstraction/bool_fn.h"

#include <cassert>

namespace tandem::abstraction {

BoolFn::BoolFn(uint32_t ids, bool value)
    : ids_(ids), bits_((size() + 63) / 64, value ? ~uint64_t{0} : 0) {
  assert(ids <= kMaxIds);
  clearPadding();
}

void BoolFn::clearPadding() {
  if (size() < 64) bits_[0] &= (uint64_t{1} << size()) - 1;
}

void BoolFn::set(uint64_t m, bool v) {
  if (v)
    bits_[m >> 6] |= uint64_t{1} << (m & 63);
  else
    bits_[m >> 6] &= ~(uint64_t{1} << (m & 63));
}

BoolFn BoolFn::constant(uint32_t ids, bool value) { return BoolFn(ids, value); }

BoolFn BoolFn::variable(uint32_t ids, uint32_t id) {
  BoolFn f(ids, false);
  for (uint64_t m = 0; m < f.size(); ++m) f.set(m, (m >> id) & 1);
  return f;
}

bool BoolFn::isConstant(bool value) const { return *this == constant(ids_, value); }

BoolFn BoolFn::operator&(const BoolFn& o) const {
  BoolFn r = *this;
  for (size_t i = 0; i < bits_.size(); ++i) r.bits_[i] &= o.bits_[i];
  return r;
}

BoolFn BoolFn::operator|(const BoolFn& o) const {
  BoolFn r = *this;
  for (size_t i = 0; i < bits_.size(); ++i) r.bits_[i] |= o.bits_[i];
  return r;
}

BoolFn BoolFn::operator~() const {
  BoolFn r = *this;
  for (uint64_t& w : r.bits_) w = ~w;
  r.clearPadding();
  return r;
}

BoolFn BoolFn::substitute(uint32_t id, bool value) const {
  BoolFn r = *this;
  const uint64_t bit = uint64_t{1} << id;
  for (uint64_t m = 0; m < size(); ++m) r.set(m, at(value ? (m | bit) : (m & ~bit)));
  return r;
}

BoolFn BoolFn::restrict(const std::vector<std::optional<bool>>& known) const {
  BoolFn r = *this;
  for (uint32_t i = 0; i < ids_ && i < known.size(); ++i)
    if (known[i]) r = r.substitute(i, *known[i]);
  return r;
}

// Every assignment that agrees with `values` on `mask` makes f true.
bool BoolFn::cubeImplies(uint64_t values, uint64_t mask) const {
  for (uint64_t m = 0; m < size(); ++m)
    if ((m & mask) == values && !at(m)) return false;
  return true;
}

std::vector<BoolFn::Cube> BoolFn::cubes() const {
  std::vector<std::pair<uint64_t, uint64_t>> found;  // (values, mask)
  const uint64_t all = size() - 1;
  for (uint64_t m = 0; m < size(); ++m) {
    if (!at(m)) continue;
    bool covered = false;
    for (auto [v, mask] : found) covered = covered || (m & mask) == v;
    if (covered) continue;
    uint64_t mask = all;
    for (uint32_t i = 0; i < ids_; ++i) {
      const uint64_t smaller = mask & ~(uint64_t{1} << i);
      if (cubeImplies(m & smaller, smaller)) mask = smaller;
    }
    found.emplace_back(m & mask, mask);
  }
  std::vector<Cube> out;
  for (auto [v, mask] : found) {
    Cube c;
    for (uint32_t i = 0; i < ids_; ++i)
      if ((mask >> i) & 1) c.push_back({i, static_cast<bool>((v >> i) & 1)});
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tandem::abstraction
