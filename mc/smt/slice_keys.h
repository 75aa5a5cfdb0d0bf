// What a formula depends on, for slicing a conjunction into independent groups. Finer than
// dependencyKeys (expr_support.h): an array leaf that the formulas read only at constant indices
// (`a[3]`, never `a[i]`, `len(a)`, a store or a comparison of arrays) depends per element, so
// constraints on a[0] and on a[1] fall into different groups.
#pragma once

#include <compare>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/expr/expr.h"
#include "mc/smt/leaf_key.h"

namespace tandem::smt {

struct SliceKey {
  uint64_t base = 0;  // dependencyKeys' id spaces, plus one for integer division by a variable
  bool element = false;
  BigInt index;  // element: the index read

  static SliceKey ofLeaf(LeafKey leaf);
  static SliceKey ofElement(LeafKey array, const BigInt& index);
  static SliceKey ofCallee(uint32_t callee);

  friend bool operator==(const SliceKey&, const SliceKey&) = default;
  friend std::strong_ordering operator<=>(const SliceKey&, const SliceKey&) = default;
};

class SliceKeys {
 public:
  // `exprs`: every formula and term that will be asked about (the array leaves they use other
  // than at constant indices are sliced whole).
  explicit SliceKeys(std::span<const ExprRef> exprs);
  // Sorted, unique.
  std::vector<SliceKey> of(ExprRef e) const;
  bool whole(LeafKey array) const { return whole_.count(array) != 0; }
  // The key of an array element a[index] (a a leaf): the array's own when it is sliced whole.
  SliceKey element(ExprRef array, const BigInt& index) const;

 private:
  std::set<LeafKey> whole_;
};

// a[k] with `a` a leaf array and `k` an integer constant.
bool isConstantSelect(ExprRef e);

}  // namespace tandem::smt
