// Where nondeterministic values come from: havoc (`x := *`, `havoc x`), inputs (globals without an
// initialiser). Engines supply their own (the explorer enumerates, fabrication uses solver models);
// a seeded random and a scripted implementation are provided here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "mc/exec/value.h"
#include "mc/lang/source.h"

namespace tandem::exec {

class Chooser {
 public:
  virtual ~Chooser() = default;
  // A value of `type`, chosen for the havoc or input at `loc`.
  virtual Value choose(TypeRef type, SourceLoc loc) = 0;
  virtual bool chooseBool() = 0;
};

struct RandomChooserOptions {
  int64_t intBound = 16;      // int, i32 and i64 mostly come from [-intBound, intBound]
  size_t maxArrayLength = 4;  // dynamic arrays get a length in [0, maxArrayLength]
};

// Reproducible random choices (std::mt19937_64 with the given seed). References and objects are
// always null: the chooser cannot invent addresses.
class RandomChooser final : public Chooser {
 public:
  explicit RandomChooser(uint64_t seed, RandomChooserOptions options = {});
  Value choose(TypeRef type, SourceLoc loc) override;
  bool chooseBool() override;

 private:
  int64_t smallInt();
  std::mt19937_64 rng_;
  RandomChooserOptions options_;
};

// Hands out the given values in order (integers are converted to the requested integral type).
// Once they run out it returns default values (and `false`) and records that it did.
class ScriptedChooser final : public Chooser {
 public:
  explicit ScriptedChooser(std::vector<Value> values = {}, std::vector<bool> bools = {});
  Value choose(TypeRef type, SourceLoc loc) override;
  bool chooseBool() override;

  size_t requests() const { return requests_; }  // calls of choose and chooseBool
  bool exhausted() const { return exhausted_; }  // some request found the script empty
  size_t remaining() const { return values_.size() + bools_.size(); }

 private:
  std::deque<Value> values_;
  std::deque<bool> bools_;
  size_t requests_ = 0;
  bool exhausted_ = false;
};

}  // namespace tandem::exec
