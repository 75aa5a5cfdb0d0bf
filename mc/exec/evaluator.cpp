// Construction, thread layout and the public entry points that wrap the private evaluators.
#include "mc/exec/evaluator.h"

#include "mc/exec/eval_context.h"

namespace tandem::exec {

Evaluator::Evaluator(const ir::Program& program, NativeRegistry& natives, EvalLimits limits)
    : program_(program), limits_(limits) {
  bound_.reserve(program.natives.size());
  for (const ir::Native& n : program.natives) bound_.push_back(natives.find(n.name));
  // Threads of a closed system: process instances in declaration order, then the rule set.
  threadBase_.assign(program.cfas.size(), kNoThread);
  ThreadId next = 0;
  for (ir::CfaId p : program.processes) {
    threadBase_[p] = next;
    next += program.cfas[p].instances;
  }
  if (program.rules != ir::kNone) ruleThread_ = next++;
  closedThreads_ = next;
}

ThreadId Evaluator::threadOf(ir::CfaId process, uint32_t instance) const {
  if (process >= threadBase_.size() || threadBase_[process] == kNoThread) return kNoThread;
  if (instance >= program_.cfas[process].instances) return kNoThread;
  return threadBase_[process] + instance;
}

Result<Value> Evaluator::eval(ExprRef e, const State& s, ThreadId t) const {
  return evalIn(Ctx(s, t), e);
}

Result<Address> Evaluator::evalLvalue(ExprRef e, const State& s, ThreadId t) const {
  return lvalueIn(Ctx(s, t), e);
}

Result<Value> Evaluator::load(const State& s, const Address& a) const {
  return loadIn(Ctx(s, kNoThread), a);
}

}  // namespace tandem::exec
