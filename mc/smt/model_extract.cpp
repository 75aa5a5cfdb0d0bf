#include "mc/smt/model_extract.h"

#include <unordered_set>
#include <utility>
#include <vector>

#include "mc/expr/expr_walk.h"
#include "mc/smt/expr_support.h"

namespace tandem::smt {

namespace {

// The array below a chain of stores.
ExprRef storeBase(ExprRef a) {
  while (a->op == Op::Store) a = a->kid(0);
  return a;
}

void extractLeaf(ExprRef e, ModelSource& source, Model& m) {
  if (e->type->kind != TypeKind::Array) {
    if (auto v = source.scalar(e)) m.setScalar(LeafKey::of(e), *v);
    return;
  }
  ArrayValue a;
  a.length = source.length(e).value_or(BigInt(0));
  const int64_t n = a.length.sign() <= 0                       ? 0
                    : a.length > BigInt(kMaxExtractedElements) ? kMaxExtractedElements
                                                               : a.length.small();
  for (int64_t i = 0; i < n; ++i)
    if (auto v = source.element(e, BigInt(i))) a.elements[BigInt(i)] = *v;
  m.setArray(LeafKey::of(e), std::move(a));
}

// What the back end says of one node, once its kids are extracted.
void extractNode(ExprRef e, ModelSource& source, Model& m) {
  if (isLeaf(e)) {
    extractLeaf(e, source, m);
  } else if (e->op == Op::Select && isLeaf(storeBase(e->kid(0)))) {
    // A select through stores reads the leaf where no store covers the index.
    ExprRef leaf = storeBase(e->kid(0));
    const LeafKey key = LeafKey::of(leaf);
    auto index = m.evalInt(e->kid(1));
    if (!index || !m.array(key)) return;
    auto v = leaf == e->kid(0) ? source.scalar(e) : source.element(leaf, *index);
    if (v) m.setElement(key, *index, *v);
  } else if (e->op == Op::Call) {
    std::vector<BigInt> args;
    for (ExprRef k : e->kids) {
      auto v = m.evalInt(k);
      if (!v) break;
      args.push_back(*v);
    }
    if (args.size() != e->kids.size()) return;
    if (auto r = source.scalar(e)) m.setCall(e->payload, std::move(args), *r);
  } else if ((e->op == Op::Div || e->op == Op::Mod) && e->type->kind == TypeKind::Int) {
    auto divisor = m.evalInt(e->kid(1));
    if (!divisor || divisor->sign() != 0) return;
    auto dividend = m.evalInt(e->kid(0));
    if (!dividend) return;
    if (auto r = source.scalar(e)) m.setDivByZero(e->op, *dividend, *r);
  }
}

}  // namespace

// Only leaves and the points themselves (selects from leaf arrays, applications, divisions by
// zero) are read from the back end; their arguments are evaluated by Tandem's evaluator over what
// is already extracted, which the post-order guarantees. So the recorded points are exactly the
// ones the evaluator will look up, and the back end answers value queries only for terms of the
// query's own vocabulary (cvc5's lazy bit-blaster aborts on some others).
Model extractModel(std::span<const ExprRef> formulas, ModelSource& source) {
  Model m;
  std::unordered_set<ExprRef> extracted;
  postOrder(
      formulas, [&](ExprRef e) { return extracted.count(e) > 0; },
      [&](ExprRef e) {
        extracted.insert(e);
        extractNode(e, source, m);
      });
  return m;
}

}  // namespace tandem::smt
