#include "abstraction/predicate_scope.h"

#include "mc/expr/expr_walk.h"

namespace tandem::abstraction {

PredicateScope scopeOf(const ir::Program& p, ExprRef e, ir::CfaId home) {
  using Kind = PredicateScope::Kind;
  const PredicateScope none{Kind::None, ir::kNone};
  if (mentionsOp(e, Op::Old)) return none;
  ir::CfaId frame = ir::kNone;  // the CFA whose frame or process instance it reads
  uint32_t cls = ir::kNone;     // the class whose fields it reads
  auto joinFrame = [&frame](ir::CfaId c) {
    if (frame != ir::kNone && frame != c) return false;
    frame = c;
    return true;
  };
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
