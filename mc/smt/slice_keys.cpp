#include "mc/smt/slice_keys.h"

#include <algorithm>
#include <unordered_set>

#include "mc/expr/expr_walk.h"
#include "mc/smt/expr_support.h"

namespace tandem::smt {

namespace {

// Three id spaces as dependencyKeys: symbols, variables, callees; and a fourth: integer division
// by zero is one uninterpreted function per operator in SMT-LIB, shared by every formula that
// divides by a value that may be 0.
constexpr uint64_t kVariableSpace = uint64_t{1} << 32;
constexpr uint64_t kCalleeSpace = uint64_t{2} << 32;
constexpr uint64_t kDivisionSpace = uint64_t{3} << 32;

uint64_t leafBase(LeafKey leaf) {
  return leaf.op == Op::Symbol ? leaf.id : kVariableSpace | leaf.id;
}

// Visits every node of `roots` once; `visit` returns false to skip a node's kids.
template <class Visit>
void walk(std::span<const ExprRef> roots, Visit visit) {
  forEachNode(roots, visit);
}

}  // namespace

bool isConstantSelect(ExprRef e) {
  return e->op == Op::Select && isLeaf(e->kid(0)) && e->kid(1)->op == Op::IntConst;
}

SliceKeys::SliceKeys(std::span<const ExprRef> exprs) {
  walk(exprs, [&](ExprRef e) {
    if (isConstantSelect(e)) return false;  // the index is a constant: no leaf below but the array
    if (isLeaf(e) && e->type && e->type->kind == TypeKind::Array) whole_.insert(LeafKey::of(e));
    return true;
  });
}

SliceKey SliceKey::ofLeaf(LeafKey leaf) { return SliceKey{leafBase(leaf), false, BigInt(0)}; }

SliceKey SliceKey::ofElement(LeafKey array, const BigInt& index) {
  return SliceKey{leafBase(array), true, index};
}

SliceKey SliceKey::ofCallee(uint32_t callee) {
  return SliceKey{kCalleeSpace | callee, false, BigInt(0)};
}

SliceKey SliceKeys::element(ExprRef array, const BigInt& index) const {
  const LeafKey leaf = LeafKey::of(array);
  return whole(leaf) ? SliceKey::ofLeaf(leaf) : SliceKey::ofElement(leaf, index);
}

std::vector<SliceKey> SliceKeys::of(ExprRef root) const {
  std::vector<SliceKey> keys;
  walk({&root, 1}, [&](ExprRef e) {
    if (isConstantSelect(e)) {
      keys.push_back(element(e->kid(0), e->kid(1)->value));
      return false;
    }
    if (isLeaf(e)) keys.push_back(SliceKey::ofLeaf(LeafKey::of(e)));
    if (e->op == Op::Call) keys.push_back(SliceKey::ofCallee(e->payload));
    if ((e->op == Op::Div || e->op == Op::Mod) && e->type && e->type->kind == TypeKind::Int &&
        e->kid(1)->op != Op::IntConst)
      keys.push_back(SliceKey{kDivisionSpace | static_cast<uint64_t>(e->op), false, BigInt(0)});
    return true;
  });
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace tandem::smt
