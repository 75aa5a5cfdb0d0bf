// The explorer's entry state, inputs and method calls of the class analysis. Frames themselves
// are the transfer relation's (transfer_frames.cpp).
#include "mc/symbolic/explorer_impl.h"

namespace tandem::symbolic {

SymValue Explorer::input(SymState& s, InputKind kind, TypeRef t, const std::string& name) {
  // DART keeps the symbols of scalar parameters, input globals and havocs across its runs.
  std::optional<std::pair<SymbolPool::Input, size_t>> pooled;
  if (kind == InputKind::Param) pooled = {{SymbolPool::Input::Param, paramSyms_.size()}};
  if (kind == InputKind::Global) pooled = {{SymbolPool::Input::Global, globalSyms_.size()}};
  if (kind == InputKind::Havoc) pooled = {{SymbolPool::Input::Havoc, s.havocs.size()}};
  ExprRef symbol = nullptr;
  SymValue v;
  if (symbols_ && pooled && isScalarType(t)) {
    symbol = symbols_->symbol(pooled->first, pooled->second, name, t);
    v = SymValue::scalar(symbol);
  } else {
    v = ev_.freshInput(t, name, symbol);
    // A replay cannot build a longer array than the reference evaluator allows.
    if (v.isSymbolicArray() && !v.length->isConst())
      s.limits.push_back(
          ev_.mk(Op::Le, em_.types().boolType(),
                 {v.length, em_.intConst(BigInt(concrete_.limits().maxArrayLength))}));
  }
  switch (kind) {
    case InputKind::Param:
      paramSyms_.push_back(symbol);
      break;
    case InputKind::Global:
      globalSyms_.emplace_back(name, symbol);
      break;
    case InputKind::Havoc:
      s.havocs.push_back(symbol);
      break;
    case InputKind::MethodArg:
      s.calls.back().args.push_back(symbol);
      break;
  }
  return v;
}

std::unique_ptr<SymState> Explorer::entryState() {
  auto s = std::make_unique<SymState>();
  if (!transfer_.enter(*s, o_.entry, *this)) return nullptr;
  if (classMode_) self_ = s->top().self;
  if (!invariantsHold(*s, true)) return nullptr;
  s->pathCondAt.assign(s->pathCond.size(), 0);
  return s;
}

void Explorer::boundary(const SymState& s) {
  if (!classMode_) {
    endPath(s, std::nullopt, std::nullopt);
    return;
  }
  const ir::ClassInfo& cls = p_.classes[classIndex_];
  if (cls.methods.empty()) {  // nothing can happen after init
    endPath(s, std::nullopt, std::nullopt);
    return;
  }
  if (o_.maxCalls && s.calls.size() >= *o_.maxCalls) {
    ++r_.callCuts;
    ++r_.paths;
    return;
  }
  for (ir::CfaId m : cls.methods) {
    reported_.clear();
    auto n = startMethod(s, m);
    if (stop_) return;
    if (n) nextRound_.push_back(std::move(n));
  }
}

std::unique_ptr<SymState> Explorer::startMethod(const SymState& s, ir::CfaId method) {
  auto n = std::make_unique<SymState>(s);
  n->calls.push_back(SymCall{method, {}, n->path.size()});  // input() records the arguments
  if (!transfer_.callMethod(*n, method, self_, ir::kNone, *this)) return nullptr;
  return n;
}

}  // namespace tandem::symbolic
