// Closed systems in symbolic evaluation, mirroring the reference evaluator's process operators
// (mc/exec/eval_expr.cpp): `pid`, process-local variables, `P[i].v` and what foldLocations leaves
// of `P[i]@L`.
#include "mc/symbolic/sym_eval_ctx.h"

namespace tandem::symbolic {

const SymThread* SymEvaluator::currentThread(const Ctx& c) const {
  return c.thread < c.s.threads.size() ? &c.s.threads[c.thread] : nullptr;
}

SymEvaluator::Instance SymEvaluator::instanceOf(const Ctx& c, ExprRef e, ir::CfaId process) const {
  ExprManager& em = exprs();
  const uint32_t n = program_.cfas[process].instances;
  if (c.s.threads.empty()) throw NotImplemented("process operators outside a closed system");
  if (e->kids.empty()) return Instance{em.intConst(BigInt(0)), 0, false};
  ExprRef k = asInt(scalarOf(evalIn(c, e->kid(0)), e));
  TypeRef bt = em.types().boolType();
  ExprRef ok = em.mkAnd(mk(Op::Le, bt, {em.intConst(BigInt(0)), k}),
                        mk(Op::Lt, bt, {k, em.intConst(BigInt(static_cast<int64_t>(n)))}));
  oblige(c, ok, ir::ErrorKind::IndexOutOfBounds,
         "process instance out of bounds for " + std::to_string(n) + " instances of " +
             program_.cfas[process].name);
  if (ok->isFalse()) return Instance{k, std::nullopt, true};
  if (!k->isConst()) return Instance{k, std::nullopt, false};
  return Instance{k, static_cast<uint32_t>(*k->value.toInt64()), false};
}

SymLvalue SymEvaluator::processLocalAt(ir::VarId var, uint32_t instance) const {
  const ir::Variable& v = program_.vars[var];
  SymLvalue lv{exec::AddressBase::ProcessLocal, 0, exec::kNoObject, v.slot, {}};
  lv.thread = concrete_.threadOf(v.owner, instance);
  return lv;
}

SymLvalue SymEvaluator::processLocalLvalue(const Ctx& c, ExprRef e) const {
  const auto var = static_cast<ir::VarId>(*e->value.toInt64());
  Instance in = instanceOf(c, e, program_.vars[var].owner);
  if (in.failed) return SymLvalue::none();
  if (!in.known) throw NotImplemented("an assignment to P[i].v with a symbolic instance i");
  return processLocalAt(var, *in.known);
}

SymValue SymEvaluator::evalProcessLocal(const Ctx& c, ExprRef e) const {
  const auto var = static_cast<ir::VarId>(*e->value.toInt64());
  const ir::CfaId process = program_.vars[var].owner;
  Instance in = instanceOf(c, e, process);
  if (in.failed) return defaultOf(e->type);
  if (in.known) return load(c, processLocalAt(var, *in.known), e->type);
  // A symbolic instance: the value of whichever instance it is (the range check is obliged).
  if (!isScalarType(e->type))
    throw NotImplemented("P[i].v of a non-scalar type with a symbolic instance i");
  ExprManager& em = exprs();
  ExprRef out = defaultOf(e->type).expr;
  for (uint32_t i = program_.cfas[process].instances; i-- > 0;) {
    ExprRef here = mk(Op::Eq, em.types().boolType(), {in.term, em.intConst(BigInt(i))});
    out = mk(Op::Ite, e->type, {here, load(c, processLocalAt(var, i), e->type).expr, out});
  }
  return SymValue::scalar(out);
}

SymValue SymEvaluator::atLocationResidue(const Ctx& c, ExprRef e) const {
  const auto loc = static_cast<ir::LocId>(*e->value.toInt64());
  Instance in = instanceOf(c, e, program_.locs[loc].cfa);
  // foldLocations folds every instance in range; what remains is out of range (an error).
  if (in.known) throw NotImplemented("P@L without the threads' locations");
  return SymValue::scalar(exprs().falseExpr());
}

}  // namespace tandem::symbolic
