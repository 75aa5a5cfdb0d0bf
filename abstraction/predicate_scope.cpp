#include "abstraction/predicate_scope.h"

#include "mc/expr/expr_walk.h"

namespace tandem::abstraction {

PredicateScope scopeOf(const ir::Program& p, ExprRef e, ir::CfaId home) {
  using Kind = PredicateScope::Kind;
  const PredicateScope none{Kind::None, ir::kNone};
  ir::CfaId frame = ir::kNone;  // the CFA whose frame or process instance it reads
  uint32_t cls = ir::kNone;     // the class whose fields it reads
  auto joinFrame = [&frame](ir::CfaId c) {
    if (frame != ir::kNone && frame != c) return false;
    frame = c;
    return true;
  };
  // old() reads the snapshot of the globals a procedure's frame took on entry: a predicate of
  // that procedure's frame (e.g. `balance >= old(balance)`, which relates a state to its entry).
  if (mentionsOp(e, Op::Old) && (home == ir::kNone || p.cfas[home].kind != ir::CfaKind::Proc ||
                                 !p.cfas[home].usesOld || !joinFrame(home)))
    return none;
  if (mentionsOp(e, Op::Pid) &&
      (home == ir::kNone || p.cfas[home].kind != ir::CfaKind::Process || !joinFrame(home)))
    return none;
  for (uint32_t id : freeVars(e)) {
    const ir::Variable& v = p.vars[id];
    switch (v.scope) {
      case ir::VarScope::Global:
        break;
      case ir::VarScope::Local:
      case ir::VarScope::ProcessLocal:
        if (v.owner == ir::kNone || !joinFrame(v.owner)) return none;
        break;
      case ir::VarScope::Field:
        if (cls != ir::kNone && cls != v.owner) return none;
        cls = v.owner;
        break;
    }
  }
  if (frame != ir::kNone) {
    if (cls != ir::kNone && p.cfas[frame].classIndex != cls) return none;
    return {Kind::Cfa, frame};
  }
  if (cls != ir::kNone) return {Kind::Class, cls};
  return {Kind::Global, ir::kNone};
}

}  // namespace tandem::abstraction
