// A boolean function over the few assumption ids of one procedure, as its truth table: the
// domain of the may/must-unverified inference (Christakis, Mueller, Wuestholz, ICSE'16 §3).
//
// The paper computes over sets of cubes; a truth table denotes the same functions, but is
// canonical, so the fixpoint test is equality and constant propagation is restriction; cubes
// come back (a greedy cover by prime-like cubes) only to print and evaluate a condition.
// Procedures have few assumption ids (one per `assumed` name): kMaxIds keeps a table at most
// 2^kMaxIds bits.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace tandem::abstraction {

class BoolFn {
 public:
  static constexpr uint32_t kMaxIds = 10;

  // A literal of a cube: id `id` is `value`.
  struct Literal {
    uint32_t id;
    bool value;
  };
  using Cube = std::vector<Literal>;  // a conjunction; empty: true

  static BoolFn constant(uint32_t ids, bool value);
  static BoolFn variable(uint32_t ids, uint32_t id);

  uint32_t ids() const { return ids_; }
  bool isConstant(bool value) const;
  bool operator==(const BoolFn& o) const = default;

  BoolFn operator&(const BoolFn& o) const;
  BoolFn operator|(const BoolFn& o) const;
  BoolFn operator~() const;
  // f with id `id` replaced by the constant `value`.
  BoolFn substitute(uint32_t id, bool value) const;
  // f with every id whose value is known replaced by it.
  BoolFn restrict(const std::vector<std::optional<bool>>& known) const;

  // A disjunction of cubes equal to f (empty: false; one empty cube: true); each cube is a
  // minterm of f with literals dropped while the cube still implies f.
  std::vector<Cube> cubes() const;

 private:
  BoolFn(uint32_t ids, bool value);
  bool at(uint64_t m) const { return (bits_[m >> 6] >> (m & 63)) & 1; }
  void set(uint64_t m, bool v);
  uint64_t size() const { return uint64_t{1} << ids_; }
  void clearPadding();
  bool cubeImplies(uint64_t values, uint64_t mask) const;

  uint32_t ids_ = 0;
  std::vector<uint64_t> bits_;  // bit m: the value where id i is bit i of m
};

}  // namespace tandem::abstraction
